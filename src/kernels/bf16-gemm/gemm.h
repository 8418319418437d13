/* bfloat16 GEMM for float models run with precision bf16 (TFCC_PRECISION_BF16):
 *
 *   C[m][n] = clamp(bias[n] + sum_k bf16(A[m][k]) * bf16(B[n][k]), lo, hi)
 *
 * with bf16() = float32 -> bfloat16 rounding to nearest even (subnormals to signed zero, as
 * vcvtne2ps2bf16), products exact, sums in float32.
 *
 * B (constant weights, N x K) is packed once per model into panels of NR columns: for each
 * panel [NR float32 bias][K/2 pair rows x NR columns x 2 bf16], K zero-padded to the kernel's
 * k alignment (2 for vdpbf16ps, 32 for AMX tiles). A pair row holds, for each column j, the
 * bf16 of B[j][k] and B[j][k+1] side by side: the operand layout of vdpbf16ps (one 32-bit lane
 * per column) and of AMX tdpbf16ps (a B tile row). A rows (float32 activations) are converted
 * to bf16 rows, zero-padded the same way, into per-thread scratch, one tile or a group of tiles
 * at a time (im2col for KxK convolutions), never the whole matrix. */
#ifndef TFCC_KERNELS_BF16_GEMM_GEMM_H
#define TFCC_KERNELS_BF16_GEMM_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* One tile: rows i < mr of A at a + i * a_stride (bf16 elements; rows mr..MR-1 are readable
 * scratch, their results are not stored), kp pair rows, columns j < nc <= NR of the packed
 * panel w; c row i at c + i * c_stride. */
typedef void (*tfcc_bf16_gemm_fn)(size_t mr, size_t nc, size_t kp, const uint16_t *a,
                                  size_t a_stride, const void *w, float *c, size_t c_stride,
                                  float lo, float hi);
/* float32 -> bf16 (round to nearest even, subnormals to zero) of n values. */
typedef void (*tfcc_bf16_cvt_fn)(const float *src, uint16_t *dst, size_t n);

typedef struct tfcc_bf16_gemm_kernel {
  const char *name;  /* "bf16-gemm-8x32-avx512bf16" */
  const char *name1; /* its one-row (GEMV) variant */
  tfcc_isa isa;      /* dispatch level the kernel needs */
  uint64_t features; /* and these CPU features (1 << TFCC_CPU_*) */
  bool amx;          /* needs the OS to grant AMX tile state */
  bool test_only;    /* portable emulation: tests and benchmarks only, never dispatched */
  int mr, nr;
  int kalign;                /* K is zero-padded to a multiple of this (even) */
  tfcc_bf16_gemm_fn fn;      /* up to mr rows */
  tfcc_bf16_gemm_fn fn1;     /* one row; same layout */
  tfcc_bf16_gemm_fn fn_half; /* up to mr rows, panels with nc <= nr / 2; NULL: fn */
  tfcc_bf16_cvt_fn cvt;
} tfcc_bf16_gemm_kernel;

/* The kernel precision bf16 runs at dispatch level `isa` on this CPU, or NULL when there is
 * none (no AVX512-BF16, level capped below avx512, not x86-64). */
const tfcc_bf16_gemm_kernel *tfcc_bf16_gemm_select(tfcc_isa isa);
/* Why tfcc_bf16_gemm_select(isa) is NULL (static text), or NULL when it is not. */
const char *tfcc_bf16_gemm_unavailable(tfcc_isa isa);
/* Every kernel this build has (tests, benchmarks), and whether this CPU can run one. */
TFCC_DISPATCH_TABLE_ACCESS_DECL(tfcc_bf16_gemm, tfcc_bf16_gemm_kernel);
bool tfcc_bf16_gemm_runnable(const tfcc_bf16_gemm_kernel *k);

/* float32 -> bf16 bits, round to nearest even; NaN stays NaN (quiet); subnormal inputs become
 * signed zero (what vcvtne2ps2bf16 computes). */
static inline uint16_t tfcc_bf16_from_f32(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  if ((b & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((b >> 16) | 0x40u);
  if ((b & 0x7f800000u) == 0) return (uint16_t)((b >> 16) & 0x8000u);
  return (uint16_t)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}
static inline float tfcc_bf16_to_f32(uint16_t h) {
  const uint32_t b = (uint32_t)h << 16;
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}
/* Scalar conversion of n values (the portable tfcc_bf16_cvt_fn). */
void tfcc_bf16_cvt_scalar(const float *src, uint16_t *dst, size_t n);

/* Weights packed for one kernel. */
typedef struct tfcc_bf16_packed {
  const tfcc_bf16_gemm_kernel *k;
  int32_t n, kdim; /* N columns, K depth */
  int32_t kpad;    /* K rounded up to k->kalign */
  void *w;         /* 64-byte aligned panels (tfcc_bf16_packed_free) */
  bool borrowed;   /* w is the caller's (tfcc_bf16_pack_adopt): never freed here */
} tfcc_bf16_packed;

/* Packs B[n][k] = src[n * ld_n + k * ld_k] and bias (NULL: zeros). false when out of memory
 * or the sizes are negative. */
bool tfcc_bf16_pack(const tfcc_bf16_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                    size_t ld_n, size_t ld_k, const float *bias, tfcc_bf16_packed *out);
/* The packing in caller memory (a weights-cache block): layout sets out's sizes (w NULL) and
 * returns the panels' bytes (0: negative sizes or too large); pack_into packs into mem (64-byte
 * aligned, that many bytes; the bytes tfcc_bf16_pack makes) and adopt takes mem so packed
 * before as out's panels (borrowed). */
size_t tfcc_bf16_pack_layout(const tfcc_bf16_gemm_kernel *k, int32_t n, int32_t kdim,
                             tfcc_bf16_packed *out);
void tfcc_bf16_pack_into(const tfcc_bf16_packed *layout, const float *src, size_t ld_n, size_t ld_k,
                         const float *bias, void *mem);
void tfcc_bf16_pack_adopt(tfcc_bf16_packed *layout, const void *mem);
void tfcc_bf16_packed_free(tfcc_bf16_packed *p);
/* Bytes of one panel: NR float32 biases + kpad x NR bf16. */
static inline size_t tfcc_bf16_panel_bytes(const tfcc_bf16_packed *p) {
  return (size_t)p->k->nr * (4u + 2u * (size_t)p->kpad);
}

struct tfcc_threadpool;

/* Scratch bytes tfcc_bf16_gemm needs for m rows with `threads` threads. */
size_t tfcc_bf16_gemm_scratch_bytes(const tfcc_bf16_packed *p, int32_t m, int threads);
/* C = A x B for m rows: A row i at a + i * a_stride (float32), C row i at c + i * c_stride.
 * scratch: 64-byte aligned, tfcc_bf16_gemm_scratch_bytes. No allocation. */
void tfcc_bf16_gemm(struct tfcc_threadpool *pool, const tfcc_bf16_packed *p, int32_t m,
                    const float *a, size_t a_stride, float *c, size_t c_stride, float lo, float hi,
                    void *scratch);

#endif
