/* float32 softmax row, AVX-512: 16 lanes, masked tails, four partial sums (softmax.h). */
#include <float.h>
#include <immintrin.h>

#include "kernels/softmax/softmax.h"

/* e^z for z <= 0 (or NaN), as f32-vunary-avx512: n = round(z log2 e), r = z - n ln2 (two
 * parts), Cephes' degree-7 polynomial, times 2^n; z < -87 gives 0. */
static inline __m512 exp_neg(__m512 z) {
  const __m512 zc = _mm512_max_ps(_mm512_set1_ps(-87.5f), z);
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
  const __m512i bits =
      _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
  const __m512 res = _mm512_mul_ps(p, _mm512_castsi512_ps(bits));
  return _mm512_maskz_mov_ps(~_mm512_cmp_ps_mask(z, _mm512_set1_ps(-87.0f), _CMP_LT_OQ), res);
}

TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_avx512) {
  /* maximum: MAXPS returns its second operand when either is NaN, so NaN never wins */
  __m512 m = _mm512_set1_ps(-FLT_MAX);
  size_t c = 0;
  for (; c + 16 <= depth; c += 16) m = _mm512_max_ps(_mm512_loadu_ps(in + c), m);
  const __mmask16 tail = (__mmask16)((1u << (depth - c)) - 1u);
  if (c < depth) m = _mm512_mask_max_ps(m, tail, _mm512_maskz_loadu_ps(tail, in + c), m);
  const float max = _mm512_reduce_max_ps(m);
  const __m512 vmax = _mm512_set1_ps(max), vbeta = _mm512_set1_ps(beta);
  __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
  c = 0;
  for (; c + 64 <= depth; c += 64) {
    const __m512 e0 = exp_neg(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(in + c), vmax), vbeta));
    const __m512 e1 = exp_neg(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(in + c + 16), vmax), vbeta));
    const __m512 e2 = exp_neg(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(in + c + 32), vmax), vbeta));
    const __m512 e3 = exp_neg(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(in + c + 48), vmax), vbeta));
    _mm512_storeu_ps(out + c, e0);
    _mm512_storeu_ps(out + c + 16, e1);
    _mm512_storeu_ps(out + c + 32, e2);
    _mm512_storeu_ps(out + c + 48, e3);
    s0 = _mm512_add_ps(s0, e0);
    s1 = _mm512_add_ps(s1, e1);
    s2 = _mm512_add_ps(s2, e2);
    s3 = _mm512_add_ps(s3, e3);
  }
  for (; c + 16 <= depth; c += 16) {
    const __m512 e = exp_neg(_mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(in + c), vmax), vbeta));
    _mm512_storeu_ps(out + c, e);
    s0 = _mm512_add_ps(s0, e);
  }
  if (c < depth) {
    const __m512 x = _mm512_maskz_loadu_ps(tail, in + c);
    const __m512 e = _mm512_maskz_mov_ps(tail, exp_neg(_mm512_mul_ps(_mm512_sub_ps(x, vmax), vbeta)));
    _mm512_mask_storeu_ps(out + c, tail, e);
    s1 = _mm512_add_ps(s1, e);
  }
  const float sum = _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
  const __m512 inv = _mm512_set1_ps(1.f / sum);
  c = 0;
  for (; c + 16 <= depth; c += 16) _mm512_storeu_ps(out + c, _mm512_mul_ps(_mm512_loadu_ps(out + c), inv));
  if (c < depth)
    _mm512_mask_storeu_ps(out + c, tail, _mm512_mul_ps(_mm512_maskz_loadu_ps(tail, out + c), inv));
}
