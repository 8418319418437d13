/* Portable emulation of the vdpbf16ps micro-kernel (4 rows x 16 columns, and 1 x 16): per
 * column lane, for each k pair, acc += a[k+1] * b[k+1] then acc += a[k] * b[k] (the order of
 * Intel's VDPBF16PS pseudocode; products of two bf16 are exact in float32). Not dispatched:
 * it runs the bf16 driver and packing in tests on any CPU, and is the twin the SIMD kernels
 * are checked against. */
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/bf16-gemm/ukernels.h"

/* GCC 12.2 at -O3 miscompiles this loop nest (its loop vectorizer; a 6-line float-only
 * reproducer gives 4 instead of 3), so loop vectorization is off for it under GCC. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-vectorize")))
#endif
static void
tile(size_t rows, size_t mr, size_t nc, size_t kp, const uint16_t *a, size_t a_stride,
     const void *w, float *c, size_t c_stride, float lo, float hi) {
  const float *bias = w;
  const uint16_t *b = (const uint16_t *)(const void *)(bias + 16);
  for (size_t i = 0; i < rows && i < mr; i++) {
    const uint16_t *ar = a + i * a_stride;
    for (size_t j = 0; j < nc; j++) {
      float acc = bias[j];
      for (size_t k = 0; k < kp; k++) {
        const uint16_t *bp = b + k * 32 + 2 * j;
        acc = acc + tfcc_bf16_to_f32(ar[2 * k + 1]) * tfcc_bf16_to_f32(bp[1]);
        acc = acc + tfcc_bf16_to_f32(ar[2 * k]) * tfcc_bf16_to_f32(bp[0]);
      }
      acc = acc < lo ? lo : acc;
      c[i * c_stride + j] = acc > hi ? hi : acc;
    }
  }
}

TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_4x16_scalar) {
  tile(4, mr, nc, kp, a, a_stride, w, c, c_stride, lo, hi);
}

TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_1x16_scalar) {
  tile(1, 1, nc, kp, a, a_stride, w, c, c_stride, lo, hi);
}
