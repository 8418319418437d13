/* f32 elementwise, WebAssembly SIMD128: 8 elements per step; comparisons and selects written as
 * the reference's conditionals (f32x4.pmin / pmax are exactly `b < a ? b : a` / `a < b ? b : a`,
 * so NaN goes where the scalar code sends it); scalar tails. */
#include <wasm_simd128.h>

#include "kernels/f32-vbinary/vbinary.h"

/* v < lo ? lo : v, then hi < v ? hi : v */
static inline v128_t clamp(v128_t v, v128_t lo, v128_t hi) {
  return wasm_f32x4_pmin(wasm_f32x4_pmax(v, lo), hi);
}

static inline float clampf(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

static inline v128_t op_add(v128_t x, v128_t y) { return wasm_f32x4_add(x, y); }
static inline v128_t op_sub(v128_t x, v128_t y) { return wasm_f32x4_sub(x, y); }
static inline v128_t op_mul(v128_t x, v128_t y) { return wasm_f32x4_mul(x, y); }
static inline v128_t op_div(v128_t x, v128_t y) { return wasm_f32x4_div(x, y); }
static inline v128_t op_sqd(v128_t x, v128_t y) {
  const v128_t d = wasm_f32x4_sub(x, y);
  return wasm_f32x4_mul(d, d);
}
static inline v128_t op_max(v128_t x, v128_t y) { return wasm_f32x4_pmax(y, x); } /* x > y ? x : y */
static inline v128_t op_min(v128_t x, v128_t y) { return wasm_f32x4_pmin(y, x); } /* x < y ? x : y */
static inline v128_t op_prelu(v128_t x, v128_t y) {
  return wasm_v128_bitselect(x, wasm_f32x4_mul(x, y), wasm_f32x4_ge(x, wasm_f32x4_splat(0.f)));
}

#define ROW(name, op, sexpr)                                                                   \
  static void name(const tfcc_f32_vbinary_params *p, const float *a, const float *b, float *o,  \
                   size_t n, int sa, int sb) {                                                 \
    const v128_t lo = wasm_f32x4_splat(p->lo), hi = wasm_f32x4_splat(p->hi);                   \
    const v128_t ca = wasm_f32x4_splat(a[0]), cb = wasm_f32x4_splat(b[0]);                     \
    size_t i = 0;                                                                              \
    for (; i + 8 <= n; i += 8) {                                                               \
      const v128_t x0 = sa ? wasm_v128_load(a + i) : ca, x1 = sa ? wasm_v128_load(a + i + 4) : ca; \
      const v128_t y0 = sb ? wasm_v128_load(b + i) : cb, y1 = sb ? wasm_v128_load(b + i + 4) : cb; \
      wasm_v128_store(o + i, clamp(op(x0, y0), lo, hi));                                       \
      wasm_v128_store(o + i + 4, clamp(op(x1, y1), lo, hi));                                   \
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

TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_wasmsimd) {
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
