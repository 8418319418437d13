/* q8 elementwise, AVX-512 (F/BW/VL): 16 elements per step widened to int32 lanes; 64-bit
 * products for the Q0.31 multipliers (even and odd lanes), masked loads and stores for tails. */
#include <immintrin.h>

#include "kernels/q8-vbinary/vbinary.h"

static inline __m512i widen(__m128i x, bool s) {
  return s ? _mm512_cvtepi8_epi32(x) : _mm512_cvtepu8_epi32(x);
}

/* gemmlowp SaturatingRoundingDoublingHighMul for multipliers != INT32_MIN: its nudge makes it
 * (x * m + 2^30) >> 31 in every case; bits 31..62 of each 64-bit sum are the result. */
static inline __m512i srdhm(__m512i x, __m512i m) {
  const __m512i half = _mm512_set1_epi64(1LL << 30);
  const __m512i pe = _mm512_add_epi64(_mm512_mul_epi32(x, m), half);
  const __m512i po = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), m), half);
  return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe, 31), _mm512_slli_epi64(po, 1));
}

/* gemmlowp RoundingDivideByPOT (half away from zero), shift e in [0, 31]. */
typedef struct rdiv {
  __m128i e;
  __m512i mask, thr;
} rdiv;

static inline rdiv rdiv_make(int32_t e) {
  const uint32_t mask = (uint32_t)((1ull << e) - 1u);
  rdiv r = {_mm_cvtsi32_si128(e), _mm512_set1_epi32((int32_t)mask),
            _mm512_set1_epi32((int32_t)(mask >> 1))};
  return r;
}

static inline __m512i rdbpot(__m512i x, const rdiv *d) {
  const __m512i rem = _mm512_and_si512(x, d->mask);
  const __m512i thr = _mm512_sub_epi32(d->thr, _mm512_srai_epi32(x, 31));
  const __mmask16 up = _mm512_cmpgt_epi32_mask(rem, thr);
  const __m512i q = _mm512_sra_epi32(x, d->e);
  return _mm512_mask_add_epi32(q, up, q, _mm512_set1_epi32(1));
}

typedef struct vparams {
  bool s;
  __m512i zo, lo, hi;
  __m512i bias, am, bm, aoff, boff;
  __m128i sh, ls, ols;
  __m512i aqm, bqm, oqm;
  rdiv ard, brd, ord;
  __m512 scale, flo, fhi;
} vparams;

static inline __m512i clamp(const vparams *v, __m512i r) {
  return _mm512_min_epi32(_mm512_max_epi32(r, v->lo), v->hi);
}

static inline __m512i add_xnn(const vparams *v, __m512i a, __m512i b) {
  const __m512i acc = _mm512_add_epi32(
      v->bias, _mm512_add_epi32(_mm512_mullo_epi32(a, v->am), _mm512_mullo_epi32(b, v->bm)));
  return clamp(v, _mm512_add_epi32(_mm512_sra_epi32(acc, v->sh), v->zo));
}

static inline __m512i mul_xnn(const vparams *v, __m512i a, __m512i b) {
  const __m512i prod =
      _mm512_mullo_epi32(_mm512_add_epi32(a, v->aoff), _mm512_add_epi32(b, v->boff));
  __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(prod), v->scale);
  f = _mm512_min_ps(_mm512_max_ps(f, v->flo), v->fhi);
  return _mm512_add_epi32(_mm512_cvtps_epi32(f), v->zo);
}

static inline __m512i mul_fixed(const vparams *v, __m512i a, __m512i b) {
  const __m512i prod =
      _mm512_mullo_epi32(_mm512_add_epi32(a, v->aoff), _mm512_add_epi32(b, v->boff));
  return clamp(
      v, _mm512_add_epi32(rdbpot(srdhm(_mm512_sll_epi32(prod, v->ols), v->oqm), &v->ord), v->zo));
}

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

static inline __m512i fixed_out(const vparams *v, __m512i ta, __m512i tb) {
  const __m512i s = _mm512_add_epi32(ta, tb);
  return clamp(v, _mm512_add_epi32(rdbpot(srdhm(s, v->oqm), &v->ord), v->zo));
}

static void row_add_fixed_tab(const vparams *v, const tfcc_q8_vbinary_params *p, const uint8_t *pa,
                              const uint8_t *pb, int8_t *po, size_t n, int a_step, int b_step) {
  const __m512i ca = _mm512_set1_epi32(p->a_term[pa[0]]), cb = _mm512_set1_epi32(p->b_term[pb[0]]);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i ta = a_step ? terms(p->a_term, pa + i) : ca;
    const __m512i tb = b_step ? terms(p->b_term, pb + i) : cb;
    _mm_storeu_si128((__m128i *)(po + i), _mm512_cvtepi32_epi8(fixed_out(v, ta, tb)));
  }
  if (i < n) {
    const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
    const __m512i ta = a_step ? terms_tail(p->a_term, pa + i, m, ca) : ca;
    const __m512i tb = b_step ? terms_tail(p->b_term, pb + i, m, cb) : cb;
    _mm_mask_storeu_epi8(po + i, m, _mm512_cvtepi32_epi8(fixed_out(v, ta, tb)));
  }
}

/* One row loop per operation so that each keeps its constants in registers. */
#define ROW(name, op) \
  static void name(const vparams *v, const int8_t *pa, const int8_t *pb, int8_t *po, size_t n, \
                   int a_step, int b_step) { \
    const bool s = v->s; \
    const __m512i ca = widen(_mm_set1_epi8(pa[0]), s), cb = widen(_mm_set1_epi8(pb[0]), s); \
    size_t i = 0; \
    for (; i + 16 <= n; i += 16) { \
      const __m512i va = a_step ? widen(_mm_loadu_si128((const __m128i *)(pa + i)), s) : ca; \
      const __m512i vb = b_step ? widen(_mm_loadu_si128((const __m128i *)(pb + i)), s) : cb; \
      _mm_storeu_si128((__m128i *)(po + i), _mm512_cvtepi32_epi8(op(v, va, vb))); \
    } \
    if (i < n) { \
      const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u); \
      const __m512i va = a_step ? widen(_mm_maskz_loadu_epi8(m, pa + i), s) : ca; \
      const __m512i vb = b_step ? widen(_mm_maskz_loadu_epi8(m, pb + i), s) : cb; \
      _mm_mask_storeu_epi8(po + i, m, _mm512_cvtepi32_epi8(op(v, va, vb))); \
    } \
  }
ROW(row_add_xnn, add_xnn)
ROW(row_mul_xnn, mul_xnn)
ROW(row_mul_fixed, mul_fixed)

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx512) {
  const tfcc_q8_vbinary_params *p = params;
  vparams v;
  v.s = p->is_signed;
  v.zo = _mm512_set1_epi32(p->out_zp);
  v.lo = _mm512_set1_epi32(p->qmin);
  v.hi = _mm512_set1_epi32(p->qmax);
  v.bias = _mm512_set1_epi32(p->bias);
  v.am = _mm512_set1_epi32(p->a_mult);
  v.bm = _mm512_set1_epi32(p->b_mult);
  v.aoff = _mm512_set1_epi32(p->a_off);
  v.boff = _mm512_set1_epi32(p->b_off);
  v.sh = _mm_cvtsi32_si128(p->shift);
  v.ls = _mm_cvtsi32_si128(p->left_shift);
  v.ols = _mm_cvtsi32_si128(p->out_ls);
  v.aqm = _mm512_set1_epi32(p->a_qm);
  v.bqm = _mm512_set1_epi32(p->b_qm);
  v.oqm = _mm512_set1_epi32(p->out_qm);
  v.ard = rdiv_make(p->a_rs);
  v.brd = rdiv_make(p->b_rs);
  v.ord = rdiv_make(p->out_rs);
  v.scale = _mm512_set1_ps(p->scale);
  v.flo = _mm512_set1_ps((float)(p->qmin - p->out_zp));
  v.fhi = _mm512_set1_ps((float)(p->qmax - p->out_zp));
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
