/* f32 elementwise, portable C (the reference arithmetic, one element at a time). */
#include "kernels/f32-vbinary/vbinary.h"

static inline float clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

/* One loop per broadcast pattern so that the steps are constants for the compiler. */
#define ROW(name, expr) \
  static void name(const tfcc_f32_vbinary_params *p, const float *restrict a, \
                   const float *restrict b, float *o, size_t n, size_t sa, size_t sb) { \
    const float lo = p->lo, hi = p->hi; \
    if (sa && sb) { \
      for (size_t i = 0; i < n; i++) { \
        const float x = a[i], y = b[i]; \
        o[i] = clampf((expr), lo, hi); \
      } \
    } else if (sa) { \
      const float y = b[0]; \
      for (size_t i = 0; i < n; i++) { \
        const float x = a[i]; \
        o[i] = clampf((expr), lo, hi); \
      } \
    } else { \
      const float x = a[0]; \
      for (size_t i = 0; i < n; i++) { \
        const float y = b[sb ? i : 0]; \
        o[i] = clampf((expr), lo, hi); \
      } \
    } \
  }
ROW(row_add, x + y)
ROW(row_sub, x - y)
ROW(row_mul, x *y)
ROW(row_div, x / y)
ROW(row_sqd, (x - y) * (x - y))
ROW(row_max, x > y ? x : y)
ROW(row_min, x < y ? x : y)
ROW(row_prelu, x >= 0.f ? x : x * y)

TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_scalar) {
  const tfcc_f32_vbinary_params *p = params;
  const size_t sa = a_step ? 1 : 0, sb = b_step ? 1 : 0;
#define ROW_CASE(op, sfx) \
  case op: row_##sfx(p, a, b, out, n, sa, sb); break;
  switch (p->op) {
    TFCC_F32VB_OPS(ROW_CASE)
    default: row_prelu(p, a, b, out, n, sa, sb); break;
  }
}
