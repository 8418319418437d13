/* float32 softmax row, AVX2: 8 lanes, scalar-masked tails, two partial sums (softmax.h). */
#include <float.h>
#include <immintrin.h>

#include "kernels/softmax/softmax.h"

/* e^z for z <= 0 (or NaN), as f32-vunary-avx2 (see the AVX-512 variant). */
static inline __m256 exp_neg(__m256 z) {
  const __m256 zc = _mm256_max_ps(_mm256_set1_ps(-87.5f), z);
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
  const __m256i bits =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  const __m256 res = _mm256_mul_ps(p, _mm256_castsi256_ps(bits));
  return _mm256_andnot_ps(_mm256_cmp_ps(z, _mm256_set1_ps(-87.0f), _CMP_LT_OQ), res);
}

static inline __m256i tail_mask(size_t k) {
  static const int32_t m[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  return _mm256_loadu_si256((const __m256i *)(m + 8 - k));
}

static inline float hsum(__m256 v) {
  const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_add_ss(t, _mm_movehdup_ps(t)));
}

static inline float hmax(__m256 v) {
  const __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 t = _mm_max_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_max_ss(t, _mm_movehdup_ps(t)));
}

TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_avx2) {
  /* maximum: MAXPS returns its second operand when either is NaN, so NaN never wins */
  __m256 m = _mm256_set1_ps(-FLT_MAX);
  size_t c = 0;
  for (; c + 8 <= depth; c += 8) m = _mm256_max_ps(_mm256_loadu_ps(in + c), m);
  float max = hmax(m);
  for (size_t j = c; j < depth; j++) max = in[j] > max ? in[j] : max;
  const __m256 vmax = _mm256_set1_ps(max), vbeta = _mm256_set1_ps(beta);
  __m256 s0 = _mm256_setzero_ps(), s1 = s0;
  c = 0;
  for (; c + 16 <= depth; c += 16) {
    const __m256 e0 = exp_neg(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(in + c), vmax), vbeta));
    const __m256 e1 = exp_neg(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(in + c + 8), vmax), vbeta));
    _mm256_storeu_ps(out + c, e0);
    _mm256_storeu_ps(out + c + 8, e1);
    s0 = _mm256_add_ps(s0, e0);
    s1 = _mm256_add_ps(s1, e1);
  }
  for (; c + 8 <= depth; c += 8) {
    const __m256 e = exp_neg(_mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(in + c), vmax), vbeta));
    _mm256_storeu_ps(out + c, e);
    s0 = _mm256_add_ps(s0, e);
  }
  if (c < depth) {
    const __m256i tm = tail_mask(depth - c);
    const __m256 x = _mm256_maskload_ps(in + c, tm);
    const __m256 e = _mm256_and_ps(_mm256_castsi256_ps(tm),
                                   exp_neg(_mm256_mul_ps(_mm256_sub_ps(x, vmax), vbeta)));
    _mm256_maskstore_ps(out + c, tm, e);
    s1 = _mm256_add_ps(s1, e);
  }
  const __m256 inv = _mm256_set1_ps(1.f / hsum(_mm256_add_ps(s0, s1)));
  c = 0;
  for (; c + 8 <= depth; c += 8) _mm256_storeu_ps(out + c, _mm256_mul_ps(_mm256_loadu_ps(out + c), inv));
  for (; c < depth; c++) out[c] *= _mm256_cvtss_f32(inv);
}
