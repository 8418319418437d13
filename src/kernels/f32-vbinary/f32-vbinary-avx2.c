/* f32 elementwise, AVX2: 16 elements per step (two vectors), tails through maskload/maskstore. */
#include <immintrin.h>

#include "kernels/f32-vbinary/vbinary.h"

/* v < lo ? lo : v, then hi < v ? hi : v: MAXPS/MINPS return their second operand when either is
 * NaN, which is v here, as in the reference. */
static inline __m256 clamp(__m256 v, __m256 lo, __m256 hi) {
  return _mm256_min_ps(hi, _mm256_max_ps(lo, v));
}

static inline __m256 op_add(__m256 x, __m256 y) { return _mm256_add_ps(x, y); }
static inline __m256 op_sub(__m256 x, __m256 y) { return _mm256_sub_ps(x, y); }
static inline __m256 op_mul(__m256 x, __m256 y) { return _mm256_mul_ps(x, y); }
static inline __m256 op_div(__m256 x, __m256 y) { return _mm256_div_ps(x, y); }
static inline __m256 op_sqd(__m256 x, __m256 y) {
  const __m256 d = _mm256_sub_ps(x, y);
  return _mm256_mul_ps(d, d);
}
static inline __m256 op_max(__m256 x, __m256 y) { return _mm256_max_ps(x, y); } /* x > y ? x : y */
static inline __m256 op_min(__m256 x, __m256 y) { return _mm256_min_ps(x, y); } /* x < y ? x : y */

static inline __m256 op_prelu(__m256 x, __m256 y) { /* x >= 0 ? x : x * y */
  return _mm256_blendv_ps(_mm256_mul_ps(x, y), x, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GE_OQ));
}

#define ROW(name, op)                                                                          \
  static void name(const tfcc_f32_vbinary_params *p, const float *a, const float *b, float *o,  \
                   size_t n, int sa, int sb) {                                                 \
    const __m256 lo = _mm256_set1_ps(p->lo), hi = _mm256_set1_ps(p->hi);                       \
    const __m256 ca = _mm256_set1_ps(a[0]), cb = _mm256_set1_ps(b[0]);                         \
    size_t i = 0;                                                                              \
    for (; i + 16 <= n; i += 16) {                                                             \
      const __m256 x0 = sa ? _mm256_loadu_ps(a + i) : ca, x1 = sa ? _mm256_loadu_ps(a + i + 8) : ca; \
      const __m256 y0 = sb ? _mm256_loadu_ps(b + i) : cb, y1 = sb ? _mm256_loadu_ps(b + i + 8) : cb; \
      _mm256_storeu_ps(o + i, clamp(op(x0, y0), lo, hi));                                      \
      _mm256_storeu_ps(o + i + 8, clamp(op(x1, y1), lo, hi));                                 \
    }                                                                                          \
    for (; i < n; i += 8) {                                                                    \
      const size_t left = n - i;                                                               \
      const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(left >= 8 ? 8 : (int)left),      \
                                           _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));         \
      const __m256 x = sa ? _mm256_maskload_ps(a + i, m) : ca;                                 \
      const __m256 y = sb ? _mm256_maskload_ps(b + i, m) : cb;                                 \
      _mm256_maskstore_ps(o + i, m, clamp(op(x, y), lo, hi));                                  \
    }                                                                                          \
  }
ROW(row_add, op_add)
ROW(row_sub, op_sub)
ROW(row_mul, op_mul)
ROW(row_div, op_div)
ROW(row_sqd, op_sqd)
ROW(row_max, op_max)
ROW(row_min, op_min)
ROW(row_prelu, op_prelu)

TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_avx2) {
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
