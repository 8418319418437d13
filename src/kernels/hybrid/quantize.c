/* Run-time activation quantization of the hybrid operators (quantize.h). Portable C; the
 * min/max pass is the only part that sees every value twice. Written from the published
 * formulas of XNNPACK (quantization.h, f32-qs8-vcvt) and TFLite (portable_tensor_utils);
 * tests/unit/test_hybrid checks them against values TFLite itself produced. */
#include "kernels/hybrid/quantize.h"

#include <math.h>
#include <string.h>

/* Smallest and largest value (exact in any order): four 4-lane GCC / Clang vectors (SSE /
 * NEON compares and selects at the baseline ISA). */
typedef float hyb_v4 __attribute__((vector_size(16)));
typedef int32_t hyb_i4 __attribute__((vector_size(16)));

static inline hyb_v4 vmin4(hyb_v4 v, hyb_v4 a) {
  const hyb_i4 m = v < a;
  return (hyb_v4)((m & (hyb_i4)v) | (~m & (hyb_i4)a));
}
static inline hyb_v4 vmax4(hyb_v4 v, hyb_v4 b) {
  const hyb_i4 m = v > b;
  return (hyb_v4)((m & (hyb_i4)v) | (~m & (hyb_i4)b));
}

static void min_max(const float *x, size_t n, float *lo, float *hi) {
  float ra = x[0], rb = x[0];
  size_t i = 0;
  if (n >= 16) {
    hyb_v4 a[4], b[4];
    memcpy(a, x, sizeof a);
    memcpy(b, x, sizeof b);
    for (i = 16; i + 16 <= n; i += 16) {
      hyb_v4 v[4];
      memcpy(v, x + i, sizeof v);
      for (int k = 0; k < 4; k++) {
        a[k] = vmin4(v[k], a[k]);
        b[k] = vmax4(v[k], b[k]);
      }
    }
    for (int k = 0; k < 4; k++)
      for (int j = 0; j < 4; j++) {
        ra = a[k][j] < ra ? a[k][j] : ra;
        rb = b[k][j] > rb ? b[k][j] : rb;
      }
  }
  for (; i < n; i++) {
    ra = x[i] < ra ? x[i] : ra;
    rb = x[i] > rb ? x[i] : rb;
  }
  *lo = ra;
  *hi = rb;
}

/* round half away from zero (TfLiteRound) */
static inline float round_away(float v) { return roundf(v); }

static void quantize_qd8(const float *x, size_t n, int8_t *q, float *scale, int32_t *zp,
                         const tfcc_qz_kernel *qz, tfcc_hyb_minmax_fn mm) {
  float lo, hi, inv;
  (mm ? mm : min_max)(x, n, &lo, &hi);
  tfcc_hyb_qd8_params(lo, hi, &inv, zp, scale);
  if (qz && qz->quantize_xnn) { /* x * inv, clamped, half to even, + zp: the same element */
    qz->quantize_xnn(x, q, n, inv, *zp, TFCC_INT8);
  } else {
    const float lo_q = (float)(-128 - *zp), hi_q = (float)(127 - *zp);
    for (size_t i = 0; i < n; i++) {
      float v = x[i] * inv;
      v = v > lo_q ? v : lo_q;
      v = v < hi_q ? v : hi_q;
      q[i] = (int8_t)((int32_t)lrintf(v) + *zp);
    }
  }
  if (tfcc_hyb_any_nan(x, n)) *scale = NAN; /* as LiteRT's qd8 (quantize.h) */
}

static void quantize_sym(const float *x, size_t n, int8_t *q, float *scale, int32_t *zp,
                         tfcc_hyb_minmax_fn mm, tfcc_hyb_round_fn rnd) {
  float lo, hi;
  (mm ? mm : min_max)(x, n, &lo, &hi);
  *zp = 0;
  const float r = fabsf(lo) > fabsf(hi) ? fabsf(lo) : fabsf(hi);
  if (r == 0.0f) {
    for (size_t i = 0; i < n; i++) q[i] = 0;
    *scale = 1.0f;
    return;
  }
  *scale = r / 127.0f;
  const float inv = 127.0f / r;
  if (rnd) {
    rnd(x, n, inv, 0, -127, 127, q, false);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    float v = round_away(x[i] * inv);
    v = !(v >= -127.0f) ? -127.0f : v > 127.0f ? 127.0f : v; /* NaN: the low bound */
    q[i] = (int8_t)(int32_t)v;
  }
}

bool tfcc_hyb_asym_params(float lo, float hi, float *scale, int32_t *zp) {
  const double rmin = lo < 0.0f ? (double)lo : 0.0, rmax = hi > 0.0f ? (double)hi : 0.0;
  if (rmin == rmax) {
    *scale = 1.0f;
    *zp = 0;
    return false;
  }
  const double qmin = -128.0, qmax = 127.0;
  const double s = (rmax - rmin) / (qmax - qmin);
  const double z_min = qmin - rmin / s, z_max = qmax - rmax / s;
  const double e_min = fabs(qmin) + fabs(rmin / s), e_max = fabs(qmax) + fabs(rmax / s);
  const double z = e_min < e_max ? z_min : z_max;
  if (z <= qmin || z != z) /* NaN: a range from -inf to inf */
    *zp = -128;
  else if (z >= qmax)
    *zp = 127;
  else
    *zp = (int32_t)round(z);
  *scale = (float)s;
  return true;
}

/* q: int8, or (centered) int16 values q - zp */
static void quantize_asym(const float *x, size_t n, void *q, bool centered, float *scale,
                          int32_t *zp, tfcc_hyb_minmax_fn mm, tfcc_hyb_round_fn rnd) {
  float lo, hi;
  (mm ? mm : min_max)(x, n, &lo, &hi);
  int32_t nz;
  if (!tfcc_hyb_asym_params(lo, hi, scale, &nz)) {
    memset(q, 0, n * (centered ? sizeof(int16_t) : 1));
    *zp = 0;
    return;
  }
  *zp = nz;
  const float inv = 1.0f / *scale;
  if (rnd) {
    rnd(x, n, inv, nz, -128, 127, q, centered);
    return;
  }
  const float fz = (float)nz;
  for (size_t i = 0; i < n; i++) {
    /* the zero point added in float before rounding, as TFLite (TfLiteRound(offset + x * inv)):
     * a sum that rounds to a half rounds away from zero from there */
    const float p = inv * x[i];
    const float v = round_away(fz + p);
    /* |v| <= 2^31 is not guaranteed for extreme inputs: clamp in float first; NaN takes the
     * low bound, as x86's conversion (INT32_MIN) clamped does in TFLite */
    const float c = !(v >= -256.0f) ? -256.0f : v > 256.0f ? 256.0f : v;
    int32_t t = (int32_t)c;
    t = t < -128 ? -128 : t > 127 ? 127 : t;
    if (centered)
      ((int16_t *)q)[i] = (int16_t)(t - nz);
    else
      ((int8_t *)q)[i] = (int8_t)t;
  }
}

void tfcc_hyb_quantize(tfcc_hyb_scheme s, const float *x, size_t n, int8_t *q, float *scale,
                       int32_t *zp, const tfcc_qz_kernel *qz, tfcc_hyb_minmax_fn mm) {
  tfcc_hyb_quantize_vec(s, x, n, q, scale, zp, qz, mm, NULL);
}

void tfcc_hyb_quantize_vec(tfcc_hyb_scheme s, const float *x, size_t n, int8_t *q, float *scale,
                           int32_t *zp, const tfcc_qz_kernel *qz, tfcc_hyb_minmax_fn mm,
                           tfcc_hyb_round_fn rnd) {
  switch (s) {
    case TFCC_HYB_SYM: quantize_sym(x, n, q, scale, zp, rnd ? mm : NULL, rnd); return;
    case TFCC_HYB_ASYM: quantize_asym(x, n, q, false, scale, zp, rnd ? mm : NULL, rnd); return;
    case TFCC_HYB_QD8:
    default: quantize_qd8(x, n, q, scale, zp, qz, mm); return;
  }
}

void tfcc_hyb_quantize_asym_centered(const float *x, size_t n, int16_t *q, float *scale,
                                     int32_t *zp, tfcc_hyb_minmax_fn mm, tfcc_hyb_round_fn rnd) {
  quantize_asym(x, n, q, true, scale, zp, rnd ? mm : NULL, rnd);
}
