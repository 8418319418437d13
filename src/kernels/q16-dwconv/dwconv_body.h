/* Portable body of the int16 x int8 depthwise sums (dwconv.h), included by the per-ISA files
 * with TFCC_Q16_DW_FN defined; the compiler vectorises the channel loop (a widening multiply
 * and add per tap onto int32 sums of Q16_DW_SPAN channels, which stay in L1). */
#include "kernels/q16-dwconv/dwconv.h"

enum { Q16_DW_SPAN = 256 };

void TFCC_Q16_DW_FN(size_t taps, const int16_t *const *x, const int8_t *const *w, size_t n,
                    int64_t *acc) {
  int32_t s[Q16_DW_SPAN];
  if (taps == 0) return;
  for (size_t c0 = 0; c0 < n; c0 += Q16_DW_SPAN) {
    const size_t nc = n - c0 < Q16_DW_SPAN ? n - c0 : Q16_DW_SPAN;
    const int16_t *x0 = x[0] + c0;
    const int8_t *w0 = w[0] + c0;
    for (size_t c = 0; c < nc; c++) s[c] = (int32_t)x0[c] * (int32_t)w0[c];
    for (size_t t = 1; t < taps; t++) {
      const int16_t *xp = x[t] + c0;
      const int8_t *wp = w[t] + c0;
      for (size_t c = 0; c < nc; c++) s[c] += (int32_t)xp[c] * (int32_t)wp[c];
    }
    for (size_t c = 0; c < nc; c++) acc[c0 + c] += s[c];
  }
}
