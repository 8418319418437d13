/* f32 elementwise, AVX-512: 32 elements per step (two vectors), masked tails. */
#include <immintrin.h>

#include "kernels/f32-vbinary/vbinary.h"

/* v < lo ? lo : v, then hi < v ? hi : v: MAXPS/MINPS return their second operand when either is
 * NaN, which is v here, as in the reference. */
static inline __m512 clamp(__m512 v, __m512 lo, __m512 hi) {
  return _mm512_min_ps(hi, _mm512_max_ps(lo, v));
}

static inline __m512 op_add(__m512 x, __m512 y) { return _mm512_add_ps(x, y); }
static inline __m512 op_sub(__m512 x, __m512 y) { return _mm512_sub_ps(x, y); }
static inline __m512 op_mul(__m512 x, __m512 y) { return _mm512_mul_ps(x, y); }
static inline __m512 op_div(__m512 x, __m512 y) { return _mm512_div_ps(x, y); }
static inline __m512 op_sqd(__m512 x, __m512 y) {
  const __m512 d = _mm512_sub_ps(x, y);
  return _mm512_mul_ps(d, d);
}
static inline __m512 op_max(__m512 x, __m512 y) { return _mm512_max_ps(x, y); } /* x > y ? x : y */
static inline __m512 op_min(__m512 x, __m512 y) { return _mm512_min_ps(x, y); } /* x < y ? x : y */

static inline __m512 op_prelu(__m512 x, __m512 y) { /* x >= 0 ? x : x * y */
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GE_OQ),
                              _mm512_mul_ps(x, y), x);
}

#define ROW(name, op)                                                                          \
  static void name(const tfcc_f32_vbinary_params *p, const float *a, const float *b, float *o,  \
                   size_t n, int sa, int sb) {                                                 \
    const __m512 lo = _mm512_set1_ps(p->lo), hi = _mm512_set1_ps(p->hi);                       \
    const __m512 ca = _mm512_set1_ps(a[0]), cb = _mm512_set1_ps(b[0]);                         \
    size_t i = 0;                                                                              \
    for (; i + 32 <= n; i += 32) {                                                             \
      const __m512 x0 = sa ? _mm512_loadu_ps(a + i) : ca, x1 = sa ? _mm512_loadu_ps(a + i + 16) : ca; \
      const __m512 y0 = sb ? _mm512_loadu_ps(b + i) : cb, y1 = sb ? _mm512_loadu_ps(b + i + 16) : cb; \
      _mm512_storeu_ps(o + i, clamp(op(x0, y0), lo, hi));                                      \
      _mm512_storeu_ps(o + i + 16, clamp(op(x1, y1), lo, hi));                                 \
    }                                                                                          \
    for (; i < n; i += 16) {                                                                   \
      const size_t left = n - i;                                                               \
      const __mmask16 m = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1u);     \
      const __m512 x = sa ? _mm512_maskz_loadu_ps(m, a + i) : ca;                              \
      const __m512 y = sb ? _mm512_maskz_loadu_ps(m, b + i) : cb;                              \
      _mm512_mask_storeu_ps(o + i, m, clamp(op(x, y), lo, hi));                                \
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

TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_avx512) {
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
