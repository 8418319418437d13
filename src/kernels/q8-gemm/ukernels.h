/* Micro-kernel entry points (one file per ISA variant; see gemm.h for the contract). */
#ifndef TFCC_KERNELS_Q8_GEMM_UKERNELS_H
#define TFCC_KERNELS_Q8_GEMM_UKERNELS_H

#include <string.h>

#include "kernels/q8-gemm/gemm.h"

/* Four bytes of a row as one dword (any alignment), for the broadcast in the x86 kernels. */
static inline int32_t tfcc_q8_load4(const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* The last kc % 4 bytes of a row, zero-extended (never reads past the row). */
static inline int32_t tfcc_q8_load_tail(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint32_t)p[i] << (8 * i);
  return (int32_t)v;
}

#define TFCC_Q8_GEMM_DECL(name) \
  void name(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w, \
            const int32_t *row_add, const tfcc_q8_out *o)

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_16x64_amxint8);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_16x64_amxint8);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_14x32_avx512vnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_14x32_avx512vnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_6x16_avxvnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_6x16_avxvnni);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_6x16_avx2);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_6x16_avx2);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_8x8_neoni8mm);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_8x8_neoni8mm);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_8x8_neondot);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_8x8_neondot);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_wasmsimd);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_wasmsimd);
/* the relaxed-SIMD binary's (TFCC_WASM_RELAXED_DOT): the relaxed dot product, taken by
   dispatch only where tfcc_q8_gemm_wasm_rdot_exact() (never in the plain binary) */
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x8_wasmrdot);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x8_wasmrdot);
/* Whether this engine's i32x4.relaxed_dot_i8x16_i7x16_add_s is the exact u8 x s8 dot product
   the wasmrdot kernel needs: a self-check of it against the SIMD128 kernel on edge bytes, run
   once (the first call; later ones return its answer). */
bool tfcc_q8_gemm_wasm_rdot_exact(void);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_4x16_scalar);
TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_4x16_scalar);

/* n activation bytes widened to int16 (sign-extended when is_signed, else zero-extended): the
 * rows of q8-gemm-6x16-avx2 (tfcc_q8_gemm_rows16), 16 bytes per vpmovsxbw / vpmovzxbw. */
void tfcc_q8_widen_avx2(int16_t *d, const uint8_t *s, size_t n, bool is_signed);
uint32_t tfcc_q8_row_sum_avx512vnni(const uint8_t *x, size_t n, bool is_signed);
uint32_t tfcc_q8_row_sum_avxvnni(const uint8_t *x, size_t n, bool is_signed);

#endif
