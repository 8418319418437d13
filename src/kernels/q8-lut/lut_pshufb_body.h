/* q8 table lookup by telescoped PSHUFB rows, written once for the x86 widths. Rows
 * R_k = table[16k .. 16k+15]; within each half (k < 8, k >= 8) the shuffled rows are
 * telescoped, T_0 = R_0, T_k = R_k ^ R_{k-1}, and looked up with index x - 16k: PSHUFB yields
 * T_k[x & 15] while that index is in [0, 127] (k <= x / 16) and 0 once it wraps negative, so
 * the XOR of the eight lookups is R_{x/16}[x & 15]. The upper half runs on x ^ 0x80; the top
 * bit of x picks the half.
 *
 * Each ISA's file includes <immintrin.h> and defines, before including this body:
 *   LUT_FN            the kernel's name (TFCC_Q8_LUT_DECL)
 *   LUT_W             bytes per step
 *   lut_v             the vector type
 *   LUT_BCAST16(v)    a __m128i repeated across the vector
 *   LUT_SET1(b)       every byte b
 *   LUT_SHUF(t, x)    PSHUFB;  LUT_SUB(a, b), LUT_XOR(a, b)  bytewise
 *   LUT_TOPBIT_BLEND(lo, hi, x)  per byte, hi where x's top bit is set, else lo
 *   LUT_LOAD(p), LUT_STORE(p, v)  unaligned full-width load and store
 *   LUT_TAIL(r, in, out, k)  the last k < LUT_W bytes, through lookup(r, .) */
#include "kernels/q8-lut/lut.h"

typedef struct rows {
  lut_v t[16];
} rows;

static void make_rows(const uint8_t table[256], rows *r) {
  for (int h = 0; h < 2; h++)
    for (int k = 0; k < 8; k++) {
      const uint8_t *row = table + 16 * (8 * h + k);
      __m128i v = _mm_loadu_si128((const __m128i *)row);
      if (k > 0) v = _mm_xor_si128(v, _mm_loadu_si128((const __m128i *)(row - 16)));
      r->t[8 * h + k] = LUT_BCAST16(v);
    }
}

static inline lut_v half(const rows *r, int h, lut_v x) {
  const lut_v sixteen = LUT_SET1(16);
  lut_v y = LUT_SHUF(r->t[8 * h], x);
  for (int k = 1; k < 8; k++) {
    x = LUT_SUB(x, sixteen);
    y = LUT_XOR(y, LUT_SHUF(r->t[8 * h + k], x));
  }
  return y;
}

static inline lut_v lookup(const rows *r, lut_v x) {
  const lut_v lo = half(r, 0, x);
  const lut_v hi = half(r, 1, LUT_XOR(x, LUT_SET1((char)0x80)));
  return LUT_TOPBIT_BLEND(lo, hi, x);
}

TFCC_Q8_LUT_DECL(LUT_FN) {
  rows r;
  make_rows(table, &r);
  size_t i = 0;
  for (; i + LUT_W <= n; i += LUT_W) LUT_STORE(out + i, lookup(&r, LUT_LOAD(in + i)));
  if (i < n) LUT_TAIL(&r, in + i, out + i, n - i);
}
