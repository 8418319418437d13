/* q8 elementwise, AVX-512 + VNNI: ADD / SUB in XNNPACK arithmetic as the AVX-512 variant's
 * 64-wide word-pair path, with the bias and both inputs' products accumulated by two VPDPWSSD
 * (no separate adds); everything else (other operations, larger multipliers, tails, both
 * operands constant) is the AVX-512 variant. */
#include <immintrin.h>

#include "kernels/q8-vbinary/vbinary.h"

typedef struct xparams {
  bool s;
  __m512i bias, ma, mb, zo16, lo8, hi8, perm;
  __m128i sh;
} xparams;

static inline __m512i widen16(const int8_t *p, bool s) {
  const __m256i r = _mm256_loadu_si256((const __m256i *)p);
  return s ? _mm512_cvtepi8_epi16(r) : _mm512_cvtepu8_epi16(r);
}

static inline __m512i xnn_words(const xparams *x, const int8_t *pa, const int8_t *pb, bool sb) {
  const __m512i wa = widen16(pa, x->s), ha = _mm512_slli_epi16(wa, 7);
  __m512i lo = _mm512_dpwssd_epi32(x->bias, _mm512_unpacklo_epi16(ha, wa), x->ma);
  __m512i hi = _mm512_dpwssd_epi32(x->bias, _mm512_unpackhi_epi16(ha, wa), x->ma);
  if (sb) {
    const __m512i wb = widen16(pb, x->s), hb = _mm512_slli_epi16(wb, 7);
    lo = _mm512_dpwssd_epi32(lo, _mm512_unpacklo_epi16(hb, wb), x->mb);
    hi = _mm512_dpwssd_epi32(hi, _mm512_unpackhi_epi16(hb, wb), x->mb);
  }
  const __m512i w = _mm512_packs_epi32(_mm512_sra_epi32(lo, x->sh), _mm512_sra_epi32(hi, x->sh));
  return _mm512_adds_epi16(w, x->zo16);
}

static size_t xnn_rows64(const xparams *x, const int8_t *pa, const int8_t *pb, int8_t *po,
                         size_t n, bool sb) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i w0 = xnn_words(x, pa + i, pb + i, sb);
    const __m512i w1 = xnn_words(x, pa + i + 32, pb + i + 32, sb);
    __m512i r;
    if (x->s) {
      r = _mm512_permutexvar_epi64(x->perm, _mm512_packs_epi16(w0, w1));
      r = _mm512_min_epi8(_mm512_max_epi8(r, x->lo8), x->hi8);
    } else {
      r = _mm512_permutexvar_epi64(x->perm, _mm512_packus_epi16(w0, w1));
      r = _mm512_min_epu8(_mm512_max_epu8(r, x->lo8), x->hi8);
    }
    _mm512_storeu_si512(po + i, r);
  }
  return i;
}

TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx512vnni) {
  const tfcc_q8_vbinary_params *p = params;
  size_t done = 0;
  if (p->op == TFCC_Q8VB_ADD_XNN && p->xnn_pairs && n >= 64 && (a_step || b_step)) {
    xparams x;
    x.s = p->is_signed;
    int32_t bias = p->bias;
    if (!a_step || !b_step) { /* fold the constant operand: bias + c * m, wrapping */
      const void *cp = !a_step ? a : b;
      const int32_t c = x.s ? (int32_t)((const int8_t *)cp)[0] : (int32_t)((const uint8_t *)cp)[0];
      bias = (int32_t)((uint32_t)bias + (uint32_t)c * (uint32_t)(!a_step ? p->a_mult : p->b_mult));
    }
    x.bias = _mm512_set1_epi32(bias);
    x.ma = _mm512_set1_epi32(!a_step ? p->b_pair : p->a_pair);
    x.mb = _mm512_set1_epi32(p->b_pair);
    x.zo16 = _mm512_set1_epi16((int16_t)p->out_zp);
    x.lo8 = _mm512_set1_epi8((char)p->qmin);
    x.hi8 = _mm512_set1_epi8((char)p->qmax);
    x.perm = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    x.sh = _mm_cvtsi32_si128(p->shift);
    done = a_step && b_step ? xnn_rows64(&x, a, b, out, n, true)
                            /* pb is not read without sb; a valid pointer keeps pb + i defined */
                            : xnn_rows64(&x, a_step ? a : b, a_step ? a : b, out, n, false);
  }
  if (done < n)
    tfcc_q8_vbinary_avx512(params, (const int8_t *)a + (a_step ? done : 0),
                           (const int8_t *)b + (b_step ? done : 0), (int8_t *)out + done, n - done,
                           a_step, b_step);
}
