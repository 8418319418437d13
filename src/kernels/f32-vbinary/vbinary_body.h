/* Float32 elementwise binary operators written once over the f32v primitives
 * (kernels/simd/f32v.h); each ISA's file includes its primitives header, defines
 * TFCC_F32_VBINARY_FN and includes this body. Two vectors per step, then partial vectors. */
#include "kernels/f32-vbinary/vbinary.h"

static inline f32v vb_add(f32v x, f32v y) { return f32v_add(x, y); }
static inline f32v vb_sub(f32v x, f32v y) { return f32v_sub(x, y); }
static inline f32v vb_mul(f32v x, f32v y) { return f32v_mul(x, y); }
static inline f32v vb_div(f32v x, f32v y) { return f32v_div(x, y); }
static inline f32v vb_sqd(f32v x, f32v y) {
  const f32v d = f32v_sub(x, y);
  return f32v_mul(d, d);
}
static inline f32v vb_max(f32v x, f32v y) { return f32v_max(x, y); } /* x > y ? x : y */
static inline f32v vb_min(f32v x, f32v y) { return f32v_min(x, y); } /* x < y ? x : y */
static inline f32v vb_prelu(f32v x, f32v y) {                        /* x >= 0 ? x : x * y */
  return f32v_sel(f32v_ge(x, f32v_zero()), x, f32v_mul(x, y));
}

#define VB_ROW(name, op) \
  static void name(const tfcc_f32_vbinary_params *p, const float *a, const float *b, float *o, \
                   size_t n, int sa, int sb) { \
    const f32v lo = f32v_set(p->lo), hi = f32v_set(p->hi); \
    const f32v ca = f32v_set(a[0]), cb = f32v_set(b[0]); \
    size_t i = 0; \
    for (; i + 2 * F32V_N <= n; i += 2 * F32V_N) { \
      const f32v x0 = sa ? f32v_ld(a + i) : ca, x1 = sa ? f32v_ld(a + i + F32V_N) : ca; \
      const f32v y0 = sb ? f32v_ld(b + i) : cb, y1 = sb ? f32v_ld(b + i + F32V_N) : cb; \
      f32v_st(o + i, f32v_clamp(op(x0, y0), lo, hi)); \
      f32v_st(o + i + F32V_N, f32v_clamp(op(x1, y1), lo, hi)); \
    } \
    for (; i < n; i += F32V_N) { \
      const size_t k = n - i >= F32V_N ? F32V_N : n - i; \
      const f32v x = sa ? (k == F32V_N ? f32v_ld(a + i) : f32v_ld_n(a + i, k)) : ca; \
      const f32v y = sb ? (k == F32V_N ? f32v_ld(b + i) : f32v_ld_n(b + i, k)) : cb; \
      if (k == F32V_N) \
        f32v_st(o + i, f32v_clamp(op(x, y), lo, hi)); \
      else \
        f32v_st_n(o + i, f32v_clamp(op(x, y), lo, hi), k); \
    } \
  }
VB_ROW(vb_row_add, vb_add)
VB_ROW(vb_row_sub, vb_sub)
VB_ROW(vb_row_mul, vb_mul)
VB_ROW(vb_row_div, vb_div)
VB_ROW(vb_row_sqd, vb_sqd)
VB_ROW(vb_row_max, vb_max)
VB_ROW(vb_row_min, vb_min)
VB_ROW(vb_row_prelu, vb_prelu)

TFCC_F32_VBINARY_DECL(TFCC_F32_VBINARY_FN) {
  const tfcc_f32_vbinary_params *p = params;
#define VB_ROW_CASE(op, sfx) \
  case op: vb_row_##sfx(p, a, b, out, n, a_step, b_step); break;
  switch (p->op) {
    TFCC_F32VB_OPS(VB_ROW_CASE)
    default: vb_row_prelu(p, a, b, out, n, a_step, b_step); break;
  }
}
