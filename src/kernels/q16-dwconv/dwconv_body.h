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

/* tfcc_requant64 (kernels/ref/conv_acc.h) of n channels, written out with the channel's
 * multiplier loaded once per loop variant so that the compiler can vectorise it (AVX-512:
 * 64-bit multiplies and variable shifts); the unit test holds it to the reference kernel. */
static inline __attribute__((always_inline)) void q16_dw_req(size_t n, const int64_t *acc,
                                                             const int64_t *b64, const int32_t *b32,
                                                             int kind, const int32_t *mult,
                                                             const int32_t *shift, bool per_ch,
                                                             const tfcc_conv_requant *q,
                                                             int16_t *out) {
  const int64_t lim = (int64_t)1 << 47;
  const int32_t off = q->output_offset, lo = q->act_min, hi = q->act_max;
  for (size_t j = 0; j < n; j++) {
    int64_t bv = kind == 0 ? b64[j] : (kind == 1 ? (int64_t)b32[j] : 0);
    bv = bv > lim ? lim : (bv < -lim ? -lim : bv);
    int64_t a = acc[j];
    a = a < -lim ? -lim : (a > lim - 1 ? lim - 1 : a);
    a += bv;
    a = a < -lim ? -lim : (a > lim - 1 ? lim - 1 : a);
    const int32_t qm = per_ch ? mult[j] : mult[0];
    const int sh = per_ch ? shift[j] : shift[0];
    const int64_t reduced = qm < 0x7FFF0000 ? (qm + (1 << 15)) >> 16 : 0x7FFF;
    const int ts = 15 - sh;
    a = a * reduced + ((int64_t)1 << (ts - 1));
    int32_t v = (int32_t)(a >> ts);
    v = (int32_t)((int64_t)v + off);
    v = v < lo ? lo : (v > hi ? hi : v);
    out[j] = (int16_t)v;
  }
}

void TFCC_Q16_DW_REQ_FN(size_t n, const int64_t *acc, const int64_t *bias64, const int32_t *bias32,
                        const tfcc_conv_requant *q, int32_t c0, int16_t *out) {
  const bool per_ch = q->mult_stride != 0;
  const int32_t *mult = q->mult + (per_ch ? c0 : 0), *shift = q->shift + (per_ch ? c0 : 0);
  const int64_t *b64 = bias64 ? bias64 + c0 : NULL;
  const int32_t *b32 = bias32 ? bias32 + c0 : NULL;
  const int kind = b64 ? 0 : (b32 ? 1 : 2);
  if (per_ch) {
    if (kind == 0)
      q16_dw_req(n, acc, b64, b32, 0, mult, shift, true, q, out);
    else if (kind == 1)
      q16_dw_req(n, acc, b64, b32, 1, mult, shift, true, q, out);
    else
      q16_dw_req(n, acc, b64, b32, 2, mult, shift, true, q, out);
  } else {
    if (kind == 0)
      q16_dw_req(n, acc, b64, b32, 0, mult, shift, false, q, out);
    else if (kind == 1)
      q16_dw_req(n, acc, b64, b32, 1, mult, shift, false, q, out);
    else
      q16_dw_req(n, acc, b64, b32, 2, mult, shift, false, q, out);
  }
}
