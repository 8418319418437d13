/* f32 elementwise, NEON (aarch64): 8 elements per step; comparisons and selects written as the
 * reference's conditionals (NEON's FMAX/FMIN treat NaN differently); scalar tails. */
#include <arm_neon.h>

#include "kernels/f32-vbinary/vbinary.h"

/* v < lo ? lo : v, then hi < v ? hi : v */
static inline float32x4_t clamp(float32x4_t v, float32x4_t lo, float32x4_t hi) {
  v = vbslq_f32(vcltq_f32(v, lo), lo, v);
  return vbslq_f32(vcltq_f32(hi, v), hi, v);
}

static inline float clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

static inline float32x4_t op_add(float32x4_t x, float32x4_t y) { return vaddq_f32(x, y); }
static inline float32x4_t op_sub(float32x4_t x, float32x4_t y) { return vsubq_f32(x, y); }
static inline float32x4_t op_mul(float32x4_t x, float32x4_t y) { return vmulq_f32(x, y); }
static inline float32x4_t op_div(float32x4_t x, float32x4_t y) { return vdivq_f32(x, y); }
static inline float32x4_t op_sqd(float32x4_t x, float32x4_t y) {
  const float32x4_t d = vsubq_f32(x, y);
  return vmulq_f32(d, d);
}
static inline float32x4_t op_max(float32x4_t x, float32x4_t y) { return vbslq_f32(vcgtq_f32(x, y), x, y); }
static inline float32x4_t op_min(float32x4_t x, float32x4_t y) { return vbslq_f32(vcltq_f32(x, y), x, y); }
static inline float32x4_t op_prelu(float32x4_t x, float32x4_t y) {
  return vbslq_f32(vcgeq_f32(x, vdupq_n_f32(0.f)), x, vmulq_f32(x, y));
}

#define ROW(name, op, sexpr)                                                                   \
  static void name(const tfcc_f32_vbinary_params *p, const float *a, const float *b, float *o,  \
                   size_t n, int sa, int sb) {                                                 \
    const float32x4_t lo = vdupq_n_f32(p->lo), hi = vdupq_n_f32(p->hi);                        \
    const float32x4_t ca = vdupq_n_f32(a[0]), cb = vdupq_n_f32(b[0]);                          \
    size_t i = 0;                                                                              \
    for (; i + 8 <= n; i += 8) {                                                               \
      const float32x4_t x0 = sa ? vld1q_f32(a + i) : ca, x1 = sa ? vld1q_f32(a + i + 4) : ca;  \
      const float32x4_t y0 = sb ? vld1q_f32(b + i) : cb, y1 = sb ? vld1q_f32(b + i + 4) : cb;  \
      vst1q_f32(o + i, clamp(op(x0, y0), lo, hi));                                             \
      vst1q_f32(o + i + 4, clamp(op(x1, y1), lo, hi));                                         \
    }                                                                                          \
    for (; i < n; i++) {                                                                       \
      const float x = a[sa ? i : 0], y = b[sb ? i : 0];                                        \
      o[i] = clampf((sexpr), p->lo, p->hi);                                                    \
    }                                                                                          \
  }
ROW(row_add, op_add, x + y)
ROW(row_sub, op_sub, x - y)
ROW(row_mul, op_mul, x * y)
ROW(row_div, op_div, x / y)
ROW(row_sqd, op_sqd, (x - y) * (x - y))
ROW(row_max, op_max, x > y ? x : y)
ROW(row_min, op_min, x < y ? x : y)
ROW(row_prelu, op_prelu, x >= 0.f ? x : x * y)

TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_neon) {
  const tfcc_f32_vbinary_params *p = params;
  switch (p->op) {
    case TFCC_F32VB_ADD: row_add(p, a, b, out, n, a_step, b_step); break;
    case TFCC_F32VB_SUB: row_sub(p, a, b, out, n, a_step, b_step); break;
    case TFCC_F32VB_MUL: row_mul(p, a, b, out, n, a_step, b_step); break;
    case TFCC_F32VB_DIV: row_div(p, a, b, out, n, a_step, b_step); break;
    case TFCC_F32VB_SQDIFF: row_sqd(p, a, b, out, n, a_step, b_step); break;
    case TFCC_F32VB_MAX: row_max(p, a, b, out, n, a_step, b_step); break;
    case TFCC_F32VB_MIN: row_min(p, a, b, out, n, a_step, b_step); break;
    default: row_prelu(p, a, b, out, n, a_step, b_step); break;
  }
}
