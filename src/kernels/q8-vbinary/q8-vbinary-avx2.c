/* q8 elementwise, AVX2: 8 elements per step widened to int32 lanes; 64-bit products for the
 * Q0.31 multipliers (even and odd lanes); tails through an 8-byte buffer. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-vbinary/vbinary.h"

static inline __m256i widen(__m128i x, bool s) {
  return s ? _mm256_cvtepi8_epi32(x) : _mm256_cvtepu8_epi32(x);
}

static inline __m128i narrow(__m256i r, bool s) {
  const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
  return s ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
}

/* gemmlowp SaturatingRoundingDoublingHighMul for multipliers != INT32_MIN:
 * (x * m + 2^30) >> 31; bits 31..62 of each 64-bit sum are the result. */
static inline __m256i srdhm(__m256i x, __m256i m) {
  const __m256i half = _mm256_set1_epi64x(1LL << 30);
  const __m256i pe = _mm256_add_epi64(_mm256_mul_epi32(x, m), half);
  const __m256i po = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), m), half);
  return _mm256_blend_epi32(_mm256_srli_epi64(pe, 31), _mm256_slli_epi64(po, 1), 0xAA);
}

typedef struct rdiv {
  __m128i e;
  __m256i mask, thr;
} rdiv;

static inline rdiv rdiv_make(int32_t e) {
  const uint32_t mask = (uint32_t)((1ull << e) - 1u);
  rdiv r = {_mm_cvtsi32_si128(e), _mm256_set1_epi32((int32_t)mask),
            _mm256_set1_epi32((int32_t)(mask >> 1))};
  return r;
}

/* gemmlowp RoundingDivideByPOT (half away from zero), shift in [0, 31]. */
static inline __m256i rdbpot(__m256i x, const rdiv *d) {
  const __m256i rem = _mm256_and_si256(x, d->mask);
  const __m256i thr = _mm256_sub_epi32(d->thr, _mm256_srai_epi32(x, 31));
  const __m256i up = _mm256_cmpgt_epi32(rem, thr);
  return _mm256_sub_epi32(_mm256_sra_epi32(x, d->e), up);
}

typedef struct vparams {
  bool s;
  __m256i zo, lo, hi;
  __m256i bias, am, bm, aoff, boff;
  __m128i sh, ls, ols;
  __m256i aqm, bqm, oqm;
  rdiv ard, brd, ord;
  __m256 scale, flo, fhi;
} vparams;

static inline __m256i clamp(const vparams *v, __m256i r) {
  return _mm256_min_epi32(_mm256_max_epi32(r, v->lo), v->hi);
}

static inline __m256i add_xnn(const vparams *v, __m256i a, __m256i b) {
  const __m256i acc = _mm256_add_epi32(
      v->bias, _mm256_add_epi32(_mm256_mullo_epi32(a, v->am), _mm256_mullo_epi32(b, v->bm)));
  return clamp(v, _mm256_add_epi32(_mm256_sra_epi32(acc, v->sh), v->zo));
}

static inline __m256i add_fixed(const vparams *v, __m256i a, __m256i b) {
  const __m256i xa = _mm256_sll_epi32(_mm256_add_epi32(a, v->aoff), v->ls);
  const __m256i xb = _mm256_sll_epi32(_mm256_add_epi32(b, v->boff), v->ls);
  const __m256i s =
      _mm256_add_epi32(rdbpot(srdhm(xa, v->aqm), &v->ard), rdbpot(srdhm(xb, v->bqm), &v->brd));
  return clamp(v, _mm256_add_epi32(rdbpot(srdhm(s, v->oqm), &v->ord), v->zo));
}

static inline __m256i mul_xnn(const vparams *v, __m256i a, __m256i b) {
  const __m256i prod =
      _mm256_mullo_epi32(_mm256_add_epi32(a, v->aoff), _mm256_add_epi32(b, v->boff));
  __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(prod), v->scale);
  f = _mm256_min_ps(_mm256_max_ps(f, v->flo), v->fhi);
  return _mm256_add_epi32(_mm256_cvtps_epi32(f), v->zo);
}

static inline __m256i mul_fixed(const vparams *v, __m256i a, __m256i b) {
  const __m256i prod =
      _mm256_mullo_epi32(_mm256_add_epi32(a, v->aoff), _mm256_add_epi32(b, v->boff));
  return clamp(
      v, _mm256_add_epi32(rdbpot(srdhm(_mm256_sll_epi32(prod, v->ols), v->oqm), &v->ord), v->zo));
}

static inline __m128i load8(const int8_t *p) { return _mm_loadl_epi64((const __m128i *)p); }

/* One row loop per operation so that each keeps its constants in registers. */
#define ROW(name, op) \
  static void name(const vparams *v, const int8_t *pa, const int8_t *pb, int8_t *po, size_t n, \
                   int a_step, int b_step) { \
    const bool s = v->s; \
    const __m256i ca = widen(_mm_set1_epi8(pa[0]), s), cb = widen(_mm_set1_epi8(pb[0]), s); \
    size_t i = 0; \
    for (; i + 8 <= n; i += 8) { \
      const __m256i va = a_step ? widen(load8(pa + i), s) : ca; \
      const __m256i vb = b_step ? widen(load8(pb + i), s) : cb; \
      _mm_storel_epi64((__m128i *)(po + i), narrow(op(v, va, vb), s)); \
    } \
    if (i < n) { \
      int8_t ta[8] = {0}, tb[8] = {0}, to[8]; \
      if (a_step) memcpy(ta, pa + i, n - i); \
      if (b_step) memcpy(tb, pb + i, n - i); \
      const __m256i va = a_step ? widen(load8(ta), s) : ca; \
      const __m256i vb = b_step ? widen(load8(tb), s) : cb; \
      _mm_storel_epi64((__m128i *)to, narrow(op(v, va, vb), s)); \
      memcpy(po + i, to, n - i); \
    } \
  }
ROW(row_add_xnn, add_xnn)
ROW(row_add_fixed, add_fixed)
ROW(row_mul_xnn, mul_xnn)
ROW(row_mul_fixed, mul_fixed)

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx2) {
  const tfcc_q8_vbinary_params *p = params;
  vparams v;
  v.s = p->is_signed;
  v.zo = _mm256_set1_epi32(p->out_zp);
  v.lo = _mm256_set1_epi32(p->qmin);
  v.hi = _mm256_set1_epi32(p->qmax);
  v.bias = _mm256_set1_epi32(p->bias);
  v.am = _mm256_set1_epi32(p->a_mult);
  v.bm = _mm256_set1_epi32(p->b_mult);
  v.aoff = _mm256_set1_epi32(p->a_off);
  v.boff = _mm256_set1_epi32(p->b_off);
  v.sh = _mm_cvtsi32_si128(p->shift);
  v.ls = _mm_cvtsi32_si128(p->left_shift);
  v.ols = _mm_cvtsi32_si128(p->out_ls);
  v.aqm = _mm256_set1_epi32(p->a_qm);
  v.bqm = _mm256_set1_epi32(p->b_qm);
  v.oqm = _mm256_set1_epi32(p->out_qm);
  v.ard = rdiv_make(p->a_rs);
  v.brd = rdiv_make(p->b_rs);
  v.ord = rdiv_make(p->out_rs);
  v.scale = _mm256_set1_ps(p->scale);
  v.flo = _mm256_set1_ps((float)(p->qmin - p->out_zp));
  v.fhi = _mm256_set1_ps((float)(p->qmax - p->out_zp));
  switch (p->op) {
    case TFCC_Q8VB_ADD_XNN: row_add_xnn(&v, a, b, out, n, a_step, b_step); break;
    case TFCC_Q8VB_ADD_FIXED: row_add_fixed(&v, a, b, out, n, a_step, b_step); break;
    case TFCC_Q8VB_MUL_XNN: row_mul_xnn(&v, a, b, out, n, a_step, b_step); break;
    default: row_mul_fixed(&v, a, b, out, n, a_step, b_step); break;
  }
}
