/* float8 conversions (kernels/ref/float8.c) against a straightforward reference: every byte of
 * e4m3fn and e5m2 decodes to its value by the formula (-1)^s * 2^(e - bias) * (1 + m / 2^M), or
 * the subnormal / special cases, in double; and float32 -> float8 is checked on every 1024th
 * float32 bit pattern (and all neighbours of each float8 value and of each midpoint between two
 * of them) against the nearest float8 value found by search, ties to the even encoding, with
 * values past the largest finite one rounding to infinity (e5m2) or NaN (e4m3fn) exactly where
 * the value one step above the largest would win the rounding (ml_dtypes' ConvertFrom). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/ref/float8.h"
#include "test_harness.h"

static double decode_ref(unsigned b, int e5m2) {
  const int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  const double sign = (b & 0x80) ? -1.0 : 1.0;
  const unsigned e = (b & 0x7F) >> mbits, m = b & ((1u << mbits) - 1);
  if (e5m2 && e == 31) return m ? NAN : sign * INFINITY;
  if (!e5m2 && (b & 0x7F) == 0x7F) return NAN;
  if (e == 0) return sign * ldexp((double)m, 1 - bias - mbits);
  return sign * ldexp(1.0 + (double)m / (1 << mbits), (int)e - bias);
}

static double g_vals[2][128]; /* the non-negative finite values, by encoding */

/* The expected byte for a finite float32 x, by search over the finite encodings. */
static unsigned encode_ref(float x, int e5m2) {
  const unsigned sign = signbit(x) ? 0x80 : 0, top = e5m2 ? 0x7B : 0x7E;
  const double a = fabs((double)x);
  unsigned best = 0;
  double best_err = INFINITY;
  for (unsigned b = 0; b <= top; b++) {
    const double err = fabs(g_vals[e5m2][b] - a);
    if (err < best_err || (err == best_err && b % 2 == 0)) best = b, best_err = err;
  }
  const double vtop = decode_ref(top, e5m2), step = vtop - decode_ref(top - 1, e5m2);
  if (a > vtop) { /* the next (unencodable) value is vtop + step, its encoding odd parity flips */
    const double mid = vtop + step / 2;
    if (a > mid || (a == mid && top % 2 == 1)) return sign | (e5m2 ? 0x7C : 0x7F);
  }
  return sign | best;
}

static int check_one(float x, int e5m2) {
  const unsigned got = tfcc_f32_to_f8(x, e5m2 != 0), want = encode_ref(x, e5m2);
  if (got == want) return 0;
  CHECKF(0, "%s: %a -> 0x%02X, expected 0x%02X", e5m2 ? "e5m2" : "e4m3fn", (double)x, got, want);
  return 1;
}

int main(void) {
  for (int e5m2 = 0; e5m2 <= 1; e5m2++)
    for (unsigned b = 0; b < 128; b++) g_vals[e5m2][b] = decode_ref(b, e5m2);
  for (int e5m2 = 0; e5m2 <= 1; e5m2++) {
    int bad = 0;
    for (unsigned b = 0; b < 256; b++) {
      const double want = decode_ref(b, e5m2);
      const float got = tfcc_f8_to_f32((uint8_t)b, e5m2 != 0);
      if (isnan(want)) {
        bad += !isnan(got) || (signbit(got) != 0) != ((b & 0x80) != 0);
      } else {
        bad += (double)got != want || (signbit(got) != 0) != ((b & 0x80) != 0);
      }
    }
    CHECKF(bad == 0, "%s: %d bytes decode wrongly", e5m2 ? "e5m2" : "e4m3fn", bad);
    /* NaN and infinities */
    CHECK(tfcc_f32_to_f8(NAN, e5m2) == (e5m2 ? 0x7E : 0x7F));
    CHECK(tfcc_f32_to_f8(-NAN, e5m2) == (e5m2 ? 0xFE : 0xFF));
    CHECK(tfcc_f32_to_f8(INFINITY, e5m2) == (e5m2 ? 0x7C : 0x7F));
    CHECK(tfcc_f32_to_f8(-INFINITY, e5m2) == (e5m2 ? 0xFC : 0xFF));
    /* every 1024th finite float32 */
    int fails = 0;
    for (uint64_t bits = 0; bits < 0x100000000ull && fails < 5; bits += 1024) {
      const uint32_t u = (uint32_t)bits;
      if ((u & 0x7F800000u) == 0x7F800000u) continue;
      float x;
      memcpy(&x, &u, sizeof x);
      fails += check_one(x, e5m2);
    }
    /* each float8 value, each midpoint, and their float32 neighbours */
    for (unsigned b = 0; b < 0x7F && fails < 5; b++) {
      const double v = decode_ref(b, e5m2), w = decode_ref(b + 1, e5m2);
      if (isnan(v) || isinf(v)) continue;
      const double pts[2] = {v, isfinite(w) ? (v + w) / 2 : v + (v - decode_ref(b - 1, e5m2)) / 2};
      for (int k = 0; k < 2; k++) {
        const float c = (float)pts[k];
        const float near[3] = {nextafterf(c, -INFINITY), c, nextafterf(c, INFINITY)};
        for (int j = 0; j < 3; j++) fails += check_one(near[j], e5m2) + check_one(-near[j], e5m2);
      }
    }
    CHECKF(fails == 0, "%s: %d conversions differ", e5m2 ? "e5m2" : "e4m3fn", fails);
  }
  return tfcc_test_finish("float8");
}
