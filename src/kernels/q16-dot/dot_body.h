/* Portable body of the int16 x int8 dot products (dot.h), included by the per-ISA files with
 * TFCC_Q16_DOT_FN defined; the compiler vectorises the block loop (a widening multiply-add
 * reduction) with the file's instruction set. Four units at a time share each load of x. */
#include "kernels/q16-dot/dot.h"

/* Block [i, i + n) of x against four rows of w; n <= TFCC_Q16_DOT_BLOCK. */
static inline __attribute__((always_inline)) void q16_block4(const int16_t *x, const int8_t *w0,
                                                             const int8_t *w1, const int8_t *w2,
                                                             const int8_t *w3, size_t n, int16_t fo,
                                                             int64_t *acc) {
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (size_t j = 0; j < n; j++) {
    const int32_t xv = x[j];
    s0 += xv * (int16_t)(w0[j] + fo);
    s1 += xv * (int16_t)(w1[j] + fo);
    s2 += xv * (int16_t)(w2[j] + fo);
    s3 += xv * (int16_t)(w3[j] + fo);
  }
  acc[0] += s0, acc[1] += s1, acc[2] += s2, acc[3] += s3;
}

static inline __attribute__((always_inline)) int32_t q16_block1(const int16_t *x, const int8_t *w,
                                                                size_t n, int16_t fo) {
  int32_t s = 0;
  for (size_t j = 0; j < n; j++) s += (int32_t)x[j] * (int16_t)(w[j] + fo);
  return s;
}

void TFCC_Q16_DOT_FN(const int16_t *x, const int8_t *w, size_t K, size_t units, size_t w_stride,
                     int32_t fo, int64_t *acc) {
  const int16_t f = (int16_t)fo;
  size_t u = 0;
  for (; u + 4 <= units; u += 4) {
    const int8_t *w0 = w + u * w_stride;
    for (size_t i = 0; i < K; i += TFCC_Q16_DOT_BLOCK) {
      const size_t n = K - i < TFCC_Q16_DOT_BLOCK ? K - i : TFCC_Q16_DOT_BLOCK;
      q16_block4(x + i, w0 + i, w0 + w_stride + i, w0 + 2 * w_stride + i, w0 + 3 * w_stride + i, n,
                 f, acc + u);
    }
  }
  for (; u < units; u++) {
    const int8_t *wr = w + u * w_stride;
    for (size_t i = 0; i < K; i += TFCC_Q16_DOT_BLOCK) {
      const size_t n = K - i < TFCC_Q16_DOT_BLOCK ? K - i : TFCC_Q16_DOT_BLOCK;
      acc[u] += q16_block1(x + i, wr + i, n, f);
    }
  }
}
