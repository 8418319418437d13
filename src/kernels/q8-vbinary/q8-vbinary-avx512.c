/* q8 elementwise, AVX-512 (F/BW/VL): 16 elements per step widened to int32 lanes; 64-bit
 * products for the Q0.31 multipliers (even and odd lanes), masked loads and stores for tails. */
#include <immintrin.h>

#include "kernels/simd/i32v_avx512.h"
#include "kernels/q8-vbinary/vbinary_i32v.h"

#define TFCC_XNN_PAIR_DOT(acc, pairs, m) _mm512_add_epi32((acc), _mm512_madd_epi16((pairs), (m)))
#include "kernels/q8-vbinary/xnn_pairs_avx512.h"

/* ADD_FIXED through the per-input term tables: two 16-lane gathers (the tables are 1 KiB each,
 * in L1) replace the per-input shift, SRDHM and RDBPOT; the sum goes through the output
 * multiplier as in add_fixed. A constant operand's term is a broadcast. */
static inline __m512i terms(const int32_t *table, const uint8_t *p) {
  return _mm512_i32gather_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p)), table,
                                4);
}

static inline __m512i terms_tail(const int32_t *table, const uint8_t *p, __mmask16 m, __m512i c) {
  return _mm512_mask_i32gather_epi32(c, m, _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, p)), table,
                                     4);
}

static void row_add_fixed_tab(const vparams *v, const tfcc_q8_vbinary_params *p, const uint8_t *pa,
                              const uint8_t *pb, int8_t *po, size_t n, int a_step, int b_step) {
  const i32v ca = _mm512_set1_epi32(p->a_term[pa[0]]), cb = _mm512_set1_epi32(p->b_term[pb[0]]);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i ta = a_step ? terms(p->a_term, pa + i) : ca;
    const __m512i tb = b_step ? terms(p->b_term, pb + i) : cb;
    i32v_st_i8(po + i, fixed_out(v, ta, tb), v->s);
  }
  if (i < n) {
    const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
    const __m512i ta = a_step ? terms_tail(p->a_term, pa + i, m, ca) : ca;
    const __m512i tb = b_step ? terms_tail(p->b_term, pb + i, m, cb) : cb;
    i32v_st_i8_n(po + i, fixed_out(v, ta, tb), n - i, v->s);
  }
}

TFCC_Q8VB_ROW(row_add_xnn, add_xnn)
TFCC_Q8VB_ROW(row_mul_xnn, mul_xnn)
TFCC_Q8VB_ROW(row_mul_fixed, mul_fixed)

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx512) {
  const tfcc_q8_vbinary_params *p = params;
  vparams v;
  vparams_make(&v, p);
  switch (p->op) {
    case TFCC_Q8VB_ADD_XNN: {
      const size_t done = p->xnn_pairs ? add_xnn_pairs(p, a, b, out, n, a_step, b_step) : 0;
      if (done < n)
        row_add_xnn(&v, (const int8_t *)a + (a_step ? done : 0),
                    (const int8_t *)b + (b_step ? done : 0), (int8_t *)out + done, n - done, a_step,
                    b_step);
      break;
    }
    case TFCC_Q8VB_ADD_FIXED: row_add_fixed_tab(&v, p, a, b, out, n, a_step, b_step); break;
    case TFCC_Q8VB_MUL_XNN: row_mul_xnn(&v, a, b, out, n, a_step, b_step); break;
    default: row_mul_fixed(&v, a, b, out, n, a_step, b_step); break;
  }
}
