/* Float32 activations written once over the f32v primitives (kernels/simd/f32v.h); each ISA's
 * file includes its primitives header, defines TFCC_F32_VUNARY_FN and includes this body.
 * The approximations are described in vunary.h. */
#include "kernels/f32-vunary/vunary.h"
#include "kernels/simd/f32v_exp.h"

static inline f32v vu_logistic(f32v x) {
  const f32v e = f32v_exp_neg(f32v_neg_abs(x));
  const f32v d = f32v_add(f32v_set(1.0f), e);
  return f32v_sel(f32v_ge(x, f32v_zero()), f32v_div(f32v_set(1.0f), d), f32v_div(e, d));
}

static inline f32v vu_tanh(f32v x) {
  const f32v ax = f32v_abs(x);
  /* |x| < 0.5: x + x^3 P(x^2), Taylor coefficients to x^15 */
  const f32v u = f32v_mul(x, x);
  f32v p = f32v_set(-929569.0f / 638512875.0f);
  p = f32v_fma(p, u, f32v_set(21844.0f / 6081075.0f));
  p = f32v_fma(p, u, f32v_set(-1382.0f / 155925.0f));
  p = f32v_fma(p, u, f32v_set(62.0f / 2835.0f));
  p = f32v_fma(p, u, f32v_set(-17.0f / 315.0f));
  p = f32v_fma(p, u, f32v_set(2.0f / 15.0f));
  p = f32v_fma(p, u, f32v_set(-1.0f / 3.0f));
  const f32v small = f32v_fma(f32v_mul(x, u), p, x);
  /* otherwise (1 - e) / (1 + e), e = e^-2|x|, with x's sign */
  const f32v e = f32v_exp_neg(f32v_mul(f32v_set(-2.0f), ax));
  const f32v one = f32v_set(1.0f);
  const f32v large = f32v_copysign(f32v_div(f32v_sub(one, e), f32v_add(one, e)), x);
  return f32v_sel(f32v_lt(ax, f32v_set(0.5f)), small, large);
}

static inline f32v vu_apply(const tfcc_f32_vunary_params *p, f32v x) {
  switch (p->op) {
    case TFCC_F32VU_CLAMP: /* lo < x ? x : lo, then hi < v ? hi : v */
      return f32v_min(f32v_set(p->hi), f32v_max(x, f32v_set(p->lo)));
    case TFCC_F32VU_LEAKY_RELU:
      return f32v_sel(f32v_gt(x, f32v_zero()), x, f32v_mul(x, f32v_set(p->alpha)));
    case TFCC_F32VU_HARD_SWISH: {
      f32v r = f32v_add(x, f32v_set(3.0f));
      r = f32v_max(r, f32v_zero());    /* 0 < r ? r : 0 */
      r = f32v_min(f32v_set(6.0f), r); /* 6 < r ? 6 : r */
      return f32v_div(f32v_mul(x, r), f32v_set(6.0f));
    }
    case TFCC_F32VU_LOGISTIC: return vu_logistic(x);
    default: return vu_tanh(x);
  }
}

#define VU_LOOP(OP) \
  do { \
    size_t i = 0; \
    for (; i + F32V_N <= n; i += F32V_N) f32v_st(out + i, OP(f32v_ld(in + i))); \
    if (i < n) f32v_st_n(out + i, OP(f32v_ld_n(in + i, n - i)), n - i); \
  } while (0)

#define VU_APPLY(x) vu_apply(p, x)

TFCC_F32_VUNARY_DECL(TFCC_F32_VUNARY_FN) {
  switch (p->op) {
    case TFCC_F32VU_LOGISTIC: VU_LOOP(vu_logistic); break;
    case TFCC_F32VU_TANH: VU_LOOP(vu_tanh); break;
    default: VU_LOOP(VU_APPLY); break;
  }
}
