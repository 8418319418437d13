/* f32 activations, AVX-512: 16 elements per step, masked tails (approximations: vunary.h). */
#include <immintrin.h>

#include "kernels/f32-vunary/vunary.h"

/* e^z for z <= 0 (or NaN): n = round(z log2 e), r = z - n ln2 (ln2 in two parts), Cephes'
 * degree-7 expf polynomial, times 2^n. z < -87 gives 0 (the result would be below 2^-125). */
static inline __m512 exp_neg(__m512 z) {
  const __m512 zc = _mm512_max_ps(_mm512_set1_ps(-87.5f), z); /* NaN stays NaN */
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(zc, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), zc);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  const __m512i bits = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
  const __m512 res = _mm512_mul_ps(p, _mm512_castsi512_ps(bits));
  return _mm512_maskz_mov_ps(~_mm512_cmp_ps_mask(z, _mm512_set1_ps(-87.0f), _CMP_LT_OQ), res);
}

static inline __m512 absf(__m512 x) {
  return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7FFFFFFF)));
}

static inline __m512 logistic(__m512 x) {
  const __m512 e = exp_neg(_mm512_sub_ps(_mm512_setzero_ps(), absf(x)));
  const __m512 d = _mm512_add_ps(_mm512_set1_ps(1.0f), e);
  const __m512 pos = _mm512_div_ps(_mm512_set1_ps(1.0f), d), neg = _mm512_div_ps(e, d);
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GE_OQ), neg, pos);
}

static inline __m512 tanh_(__m512 x) {
  const __m512 ax = absf(x);
  /* |x| < 0.5: x + x^3 P(x^2), Taylor coefficients to x^15 */
  const __m512 u = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(-929569.0f / 638512875.0f);
  p = _mm512_fmadd_ps(p, u, _mm512_set1_ps(21844.0f / 6081075.0f));
  p = _mm512_fmadd_ps(p, u, _mm512_set1_ps(-1382.0f / 155925.0f));
  p = _mm512_fmadd_ps(p, u, _mm512_set1_ps(62.0f / 2835.0f));
  p = _mm512_fmadd_ps(p, u, _mm512_set1_ps(-17.0f / 315.0f));
  p = _mm512_fmadd_ps(p, u, _mm512_set1_ps(2.0f / 15.0f));
  p = _mm512_fmadd_ps(p, u, _mm512_set1_ps(-1.0f / 3.0f));
  const __m512 small = _mm512_fmadd_ps(_mm512_mul_ps(x, u), p, x);
  /* otherwise (1 - e) / (1 + e), e = e^-2|x|, with x's sign */
  const __m512 e = exp_neg(_mm512_mul_ps(_mm512_set1_ps(-2.0f), ax));
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 t = _mm512_div_ps(_mm512_sub_ps(one, e), _mm512_add_ps(one, e));
  const __m512 large = _mm512_castsi512_ps(_mm512_or_si512(
      _mm512_castps_si512(t), _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u))));
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(ax, _mm512_set1_ps(0.5f), _CMP_LT_OQ), large, small);
}

static inline __m512 apply(const tfcc_f32_vunary_params *p, __m512 x) {
  switch (p->op) {
    case TFCC_F32VU_CLAMP: /* lo < x ? x : lo, then hi < v ? hi : v */
      return _mm512_min_ps(_mm512_set1_ps(p->hi), _mm512_max_ps(x, _mm512_set1_ps(p->lo)));
    case TFCC_F32VU_LEAKY_RELU:
      return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ),
                                  _mm512_mul_ps(x, _mm512_set1_ps(p->alpha)), x);
    case TFCC_F32VU_HARD_SWISH: {
      __m512 r = _mm512_add_ps(x, _mm512_set1_ps(3.0f));
      r = _mm512_max_ps(r, _mm512_setzero_ps());  /* 0 < r ? r : 0 */
      r = _mm512_min_ps(_mm512_set1_ps(6.0f), r); /* 6 < r ? 6 : r */
      return _mm512_div_ps(_mm512_mul_ps(x, r), _mm512_set1_ps(6.0f));
    }
    case TFCC_F32VU_LOGISTIC: return logistic(x);
    default: return tanh_(x);
  }
}

#define LOOP(OP)                                                                        \
  do {                                                                                  \
    size_t i = 0;                                                                       \
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, OP(_mm512_loadu_ps(in + i))); \
    if (i < n) {                                                                        \
      const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);                            \
      _mm512_mask_storeu_ps(out + i, m, OP(_mm512_maskz_loadu_ps(m, in + i)));          \
    }                                                                                   \
  } while (0)

#define APPLY(x) apply(p, x)

TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_avx512) {
  switch (p->op) {
    case TFCC_F32VU_LOGISTIC: LOOP(logistic); break;
    case TFCC_F32VU_TANH: LOOP(tanh_); break;
    default: LOOP(APPLY); break;
  }
}
