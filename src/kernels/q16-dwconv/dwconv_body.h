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

/* tfcc_requant64 (kernels/ref/conv_acc.h) written out per channel with r's precomputed terms,
 * a loop that the compiler vectorises (AVX-512: 64-bit multiplies and shifts); the int32
 * truncations are the reference's. x86 builds first take whole groups through tfcc_q16rq
 * (kernels/simd/q16_requant_x86.h) while their sums and biases are within +-2^30. The unit test
 * holds it to the reference kernel. */
void TFCC_Q16_DW_REQ_FN(size_t n, const int64_t *acc, const tfcc_q16_dw_req_terms *r,
                        int16_t *out) {
  const int64_t lim = (int64_t)1 << 47;
  const int64_t *bias = r->bias, *mult = r->mult, *round = r->round, *shift = r->shift;
  const int32_t off = r->offset, lo = r->act_min, hi = r->act_max;
  size_t j = 0;
#ifdef TFCC_Q16RQ_W
  /* the x86 vector path where a group's sums and biases allow (q16_requant_x86.h) */
  while (j + TFCC_Q16RQ_W <= n &&
         tfcc_q16rq(acc + j, bias + j, mult + j, round + j, shift + j, off, lo, hi, out + j))
    j += TFCC_Q16RQ_W;
#endif
  for (; j < n; j++) {
    int64_t a = acc[j];
    a = a < -lim ? -lim : (a > lim - 1 ? lim - 1 : a);
    a += bias[j];
    a = a < -lim ? -lim : (a > lim - 1 ? lim - 1 : a);
    int32_t v = (int32_t)(uint32_t)(uint64_t)((a * mult[j] + round[j]) >> shift[j]);
    v = (int32_t)(uint32_t)(uint64_t)((int64_t)v + off);
    v = v < lo ? lo : (v > hi ? hi : v);
    out[j] = (int16_t)v;
  }
}
