/* f32 activations, AVX2 + FMA: 8 elements per step, maskload/maskstore tails (approximations:
 * vunary.h; the same arithmetic as the AVX-512 variant). */
#include <immintrin.h>

#include "kernels/f32-vunary/vunary.h"

static inline __m256 exp_neg(__m256 z) {
  const __m256 zc = _mm256_max_ps(_mm256_set1_ps(-87.5f), z); /* NaN stays NaN */
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(zc, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), zc);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  const __m256 res = _mm256_mul_ps(p, _mm256_castsi256_ps(bits));
  return _mm256_andnot_ps(_mm256_cmp_ps(z, _mm256_set1_ps(-87.0f), _CMP_LT_OQ), res);
}

static inline __m256 absf(__m256 x) {
  return _mm256_castsi256_ps(_mm256_and_si256(_mm256_castps_si256(x), _mm256_set1_epi32(0x7FFFFFFF)));
}

static inline __m256 logistic(__m256 x) {
  const __m256 e = exp_neg(_mm256_sub_ps(_mm256_setzero_ps(), absf(x)));
  const __m256 d = _mm256_add_ps(_mm256_set1_ps(1.0f), e);
  const __m256 pos = _mm256_div_ps(_mm256_set1_ps(1.0f), d), neg = _mm256_div_ps(e, d);
  return _mm256_blendv_ps(neg, pos, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GE_OQ));
}

static inline __m256 tanh_(__m256 x) {
  const __m256 ax = absf(x);
  const __m256 u = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(-929569.0f / 638512875.0f);
  p = _mm256_fmadd_ps(p, u, _mm256_set1_ps(21844.0f / 6081075.0f));
  p = _mm256_fmadd_ps(p, u, _mm256_set1_ps(-1382.0f / 155925.0f));
  p = _mm256_fmadd_ps(p, u, _mm256_set1_ps(62.0f / 2835.0f));
  p = _mm256_fmadd_ps(p, u, _mm256_set1_ps(-17.0f / 315.0f));
  p = _mm256_fmadd_ps(p, u, _mm256_set1_ps(2.0f / 15.0f));
  p = _mm256_fmadd_ps(p, u, _mm256_set1_ps(-1.0f / 3.0f));
  const __m256 small = _mm256_fmadd_ps(_mm256_mul_ps(x, u), p, x);
  const __m256 e = exp_neg(_mm256_mul_ps(_mm256_set1_ps(-2.0f), ax));
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 t = _mm256_div_ps(_mm256_sub_ps(one, e), _mm256_add_ps(one, e));
  const __m256 large = _mm256_or_ps(t, _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u))));
  return _mm256_blendv_ps(large, small, _mm256_cmp_ps(ax, _mm256_set1_ps(0.5f), _CMP_LT_OQ));
}

static inline __m256 apply(const tfcc_f32_vunary_params *p, __m256 x) {
  switch (p->op) {
    case TFCC_F32VU_CLAMP:
      return _mm256_min_ps(_mm256_set1_ps(p->hi), _mm256_max_ps(x, _mm256_set1_ps(p->lo)));
    case TFCC_F32VU_LEAKY_RELU:
      return _mm256_blendv_ps(_mm256_mul_ps(x, _mm256_set1_ps(p->alpha)), x,
                              _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ));
    case TFCC_F32VU_HARD_SWISH: {
      __m256 r = _mm256_add_ps(x, _mm256_set1_ps(3.0f));
      r = _mm256_max_ps(r, _mm256_setzero_ps());
      r = _mm256_min_ps(_mm256_set1_ps(6.0f), r);
      return _mm256_div_ps(_mm256_mul_ps(x, r), _mm256_set1_ps(6.0f));
    }
    case TFCC_F32VU_LOGISTIC: return logistic(x);
    default: return tanh_(x);
  }
}

#define LOOP(OP)                                                                           \
  do {                                                                                     \
    size_t i = 0;                                                                          \
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, OP(_mm256_loadu_ps(in + i)));     \
    if (i < n) {                                                                           \
      const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - i)),                \
                                           _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));     \
      _mm256_maskstore_ps(out + i, m, OP(_mm256_maskload_ps(in + i, m)));                  \
    }                                                                                      \
  } while (0)

#define APPLY(x) apply(p, x)

TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_avx2) {
  switch (p->op) {
    case TFCC_F32VU_LOGISTIC: LOOP(logistic); break;
    case TFCC_F32VU_TANH: LOOP(tanh_); break;
    default: LOOP(APPLY); break;
  }
}
