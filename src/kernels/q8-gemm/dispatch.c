/* q8 GEMM dispatch table: the best micro-kernel the model's ISA level and the CPU allow. */
#include "cpu/cpu_info.h"
#include "kernels/dispatch_table.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/q8-gemm/ukernels.h"

static const tfcc_q8_gemm_kernel kernels[] = {
#if defined(__x86_64__)
    /* AMX tiles: see tfcc_q8_gemm_is_amx (weights stored as they are: tdpbssd / tdpbuud) */
    {"q8-gemm-16x64-amxint8", TFCC_ISA_AVX512, TFCC_CPU_AMXINT8, 0, 16, 64,
     tfcc_q8_gemm_s_16x64_amxint8, tfcc_q8_gemm_u_16x64_amxint8, tfcc_q8_row_sum_avx512vnni, true,
     0},
#endif
#if defined(__x86_64__) || defined(__i386__)
    {"q8-gemm-14x32-avx512vnni", TFCC_ISA_AVX512, TFCC_CPU_AVX512VNNI, 0x80, 14, 32,
     tfcc_q8_gemm_s_14x32_avx512vnni, tfcc_q8_gemm_u_14x32_avx512vnni, tfcc_q8_row_sum_avx512vnni,
     true, 0},
    {"q8-gemm-6x16-avxvnni", TFCC_ISA_AVX2, TFCC_CPU_AVXVNNI, 0x80, 6, 16,
     tfcc_q8_gemm_s_6x16_avxvnni, tfcc_q8_gemm_u_6x16_avxvnni, tfcc_q8_row_sum_avxvnni, false, 0},
    /* vpmaddwd on int16 rows and weights (tfcc_q8_gemm_rows16): int8 weight pairs widened in
       the kernel (uint8 weights stored xor 0x80: tfcc_q8_gemm_stored_xor) */
    {"q8-gemm-6x16-avx2", TFCC_ISA_AVX2, -1, 0, 6, 16, tfcc_q8_gemm_s_6x16_avx2,
     tfcc_q8_gemm_u_6x16_avx2, NULL, false, 0},
#endif
#if defined(__aarch64__)
    /* I8MM (SMMLA / UMMLA, 2x2 blocks over 8 depth bytes): see tfcc_q8_gemm_pair_layout */
    {"q8-gemm-8x8-neoni8mm", TFCC_ISA_NEON, TFCC_CPU_I8MM, 0, 8, 8, tfcc_q8_gemm_s_8x8_neoni8mm,
     tfcc_q8_gemm_u_8x8_neoni8mm, NULL, false, 0},
    {"q8-gemm-8x8-neondot", TFCC_ISA_NEON, TFCC_CPU_DOTPROD, 0, 8, 8, tfcc_q8_gemm_s_8x8_neondot,
     tfcc_q8_gemm_u_8x8_neondot, NULL, false, 0},
#endif
#if defined(__wasm_simd128__)
    /* the relaxed-SIMD binary: one relaxed dot product per 16 products, activations xor 0x80
       (x_xor), where the engine's is the exact u8 x s8 one (tfcc_q8_gemm_wasm_rdot_exact; the
       plain binary holds the row too, its self-check always failing: q8-gemm-4x8-wasmsimd.c) */
    {"q8-gemm-4x8-wasmrdot", TFCC_ISA_WASMSIMD, -1, 0, 4, 8, tfcc_q8_gemm_s_4x8_wasmrdot,
     tfcc_q8_gemm_u_4x8_wasmrdot, NULL, false, 0x80},
#endif
#if defined(__wasm_simd128__)
    /* i32x4.dot_i16x8 on widened bytes over depth pairs (tfcc_q8_gemm_c2_layout): weights
       stored as they are (s8 x s8, u8 x u8) */
    {"q8-gemm-4x8-wasmsimd", TFCC_ISA_WASMSIMD, -1, 0, 4, 8, tfcc_q8_gemm_s_4x8_wasmsimd,
     tfcc_q8_gemm_u_4x8_wasmsimd, NULL, false, 0},
#endif
    {"q8-gemm-4x16-scalar", TFCC_ISA_GENERIC, -1, 0x80, 4, 16, tfcc_q8_gemm_s_4x16_scalar,
     tfcc_q8_gemm_u_4x16_scalar, NULL, false, 0},
};
TFCC_DISPATCH_TABLE_FNS_USABLE(tfcc_q8_gemm, tfcc_q8_gemm_kernel, tfcc_q8_gemm_usable)
#define N_KERNELS tfcc_q8_gemm_n_kernels_

bool tfcc_q8_gemm_is_amx(const tfcc_q8_gemm_kernel *k) { return k->feature == TFCC_CPU_AMXINT8; }

bool tfcc_q8_gemm_pair_layout(const tfcc_q8_gemm_kernel *k) { return k->feature == TFCC_CPU_I8MM; }

bool tfcc_q8_gemm_hybrid_epilogue(const tfcc_q8_gemm_kernel *k) {
  return k->feature == TFCC_CPU_AVX512VNNI;
}

bool tfcc_q8_gemm_rows16(const tfcc_q8_gemm_kernel *k) {
  return k->isa == TFCC_ISA_AVX2 && k->feature < 0 && !k->w_xor;
}

uint8_t tfcc_q8_gemm_stored_xor(const tfcc_q8_gemm_kernel *k, bool is_signed) {
  return tfcc_q8_gemm_rows16(k) ? (is_signed ? 0 : 0x80) : k->w_xor;
}

bool tfcc_q8_gemm_c2_layout(const tfcc_q8_gemm_kernel *k) {
  return (k->isa == TFCC_ISA_WASMSIMD && !k->x_xor) || tfcc_q8_gemm_rows16(k);
}

/* the relaxed dot product's kernel, usable where the engine computes it exactly */
static bool rdot_inexact(const tfcc_q8_gemm_kernel *k) {
#if defined(__wasm_simd128__)
  return k->x_xor && !tfcc_q8_gemm_wasm_rdot_exact();
#else
  (void)k;
  return false;
#endif
}

bool tfcc_q8_gemm_multi_panel(const tfcc_q8_gemm_kernel *k) { return k->isa == TFCC_ISA_WASMSIMD; }

int32_t tfcc_q8_gemm_k_block(const tfcc_q8_gemm_kernel *k) {
  return tfcc_q8_gemm_is_amx(k)                                     ? 64
         : tfcc_q8_gemm_pair_layout(k) || tfcc_q8_gemm_c2_layout(k) ? 8
                                                                    : 4;
}

const char *tfcc_q8_gemm_unavailable(const tfcc_q8_gemm_kernel *k, tfcc_isa isa) {
  if (tfcc_q8_gemm_usable(k, isa)) return NULL;
  if (tfcc_isa_level_fits(k->isa, isa) && rdot_inexact(k))
    return "the engine's relaxed dot product is not the exact u8 x s8 one (self-check)";
  if (!tfcc_isa_level_fits(k->isa, isa))
    return k->isa == TFCC_ISA_AVX512 ? "the dispatch level is below avx512 (CPU or TFCC_ISA cap)"
                                     : "the dispatch level is below the kernel's ISA";
  if (tfcc_q8_gemm_is_amx(k)) {
    const char *why = tfcc_cpu_amx_unusable(TFCC_CPU_AMXINT8);
    if (why) return why;
    return "the CPU has no AVX512-VNNI (row sums)";
  }
  return "the CPU lacks the kernel's feature";
}

bool tfcc_q8_gemm_usable(const tfcc_q8_gemm_kernel *k, tfcc_isa isa) {
  if (!tfcc_isa_level_fits(k->isa, isa)) return false;
  if (rdot_inexact(k)) return false;
  if (tfcc_q8_gemm_is_amx(k)) {
    const tfcc_cpu_info *c = tfcc_cpu();
    return c->amx_permitted && tfcc_cpu_has(c, TFCC_CPU_AMXTILE) &&
           tfcc_cpu_has(c, TFCC_CPU_AMXINT8) && tfcc_cpu_has(c, TFCC_CPU_AVX512VNNI);
  }
  return k->isa == TFCC_ISA_GENERIC || k->feature < 0 ||
         tfcc_cpu_has(tfcc_cpu(), (tfcc_cpu_feature)k->feature);
}

const tfcc_q8_gemm_kernel *tfcc_q8_gemm_select_for(tfcc_isa isa, int64_t rows, int32_t kdim,
                                                   int32_t n) {
  (void)n;
  const bool amx_pays = kdim >= TFCC_Q8_AMX_MIN_K && rows >= TFCC_Q8_AMX_MIN_ROWS;
  for (int i = 0; i < N_KERNELS; i++)
    if ((amx_pays || !tfcc_q8_gemm_is_amx(&kernels[i])) && tfcc_q8_gemm_usable(&kernels[i], isa))
      return &kernels[i];
  return &kernels[N_KERNELS - 1];
}
