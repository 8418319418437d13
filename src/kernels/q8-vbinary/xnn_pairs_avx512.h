/* The ADD_XNN word-pair path shared by the AVX-512 and AVX512-VNNI q8-vbinary variants
 * (included by their .c files, compiled with each file's ISA flags). The includer defines
 * TFCC_XNN_PAIR_DOT(acc, pairs, m): acc + the 32-bit dot products of 16-bit word pairs
 * (VPMADDWD + VPADDD on AVX-512, one VPDPWSSD with VNNI); both give the same wrapping sums. */
#ifndef TFCC_KERNELS_Q8_VBINARY_XNN_PAIRS_AVX512_H
#define TFCC_KERNELS_Q8_VBINARY_XNN_PAIRS_AVX512_H

#include <immintrin.h>

#include "kernels/q8-vbinary/vbinary.h"

#ifndef TFCC_XNN_PAIR_DOT
#error "define TFCC_XNN_PAIR_DOT before including xnn_pairs_avx512.h"
#endif

/* ADD_XNN, 64 elements per step in 16-bit lanes where possible: bytes widen to words w, the
 * word pairs (w * 128, w) of VPUNPCK{L,H}WD meet the packed multiplier pair (mh, ml) in one
 * VPMADDWD (= w * m exactly), the bias is added, the sum shifted (floor) and packed back with
 * signed saturation: dwords to words (PACKSSDW; |acc >> shift| > 32767 stays beyond every
 * clamp), + zero point (saturating), words to bytes (PACKSSWB / PACKUSWB) and the activation
 * clamp on bytes. The unpack / pack pairs work within 128-bit lanes and cancel, except for
 * the last pack of two word vectors, undone by one VPERMQ. Same arithmetic as add_xnn (the
 * AVX-512 file): every
 * 32-bit sum wraps as the reference's. a_step / b_step 0 fold the constant side into the
 * bias. */
typedef struct xparams {
  bool s;
  __m512i bias, ma, mb, zo16, lo8, hi8, perm;
  __m128i sh;
} xparams;

static inline __m512i widen16(const int8_t *p, bool s) {
  const __m256i r = _mm256_loadu_si256((const __m256i *)p);
  return s ? _mm512_cvtepi8_epi16(r) : _mm512_cvtepu8_epi16(r);
}

/* 32 elements: words of a (and b when sb) to 32 saturated words of (acc >> shift) + zp. */
static inline __m512i xnn_words(const xparams *x, const int8_t *pa, const int8_t *pb, bool sb) {
  const __m512i wa = widen16(pa, x->s), ha = _mm512_slli_epi16(wa, 7);
  __m512i lo = TFCC_XNN_PAIR_DOT(x->bias, _mm512_unpacklo_epi16(ha, wa), x->ma);
  __m512i hi = TFCC_XNN_PAIR_DOT(x->bias, _mm512_unpackhi_epi16(ha, wa), x->ma);
  if (sb) {
    const __m512i wb = widen16(pb, x->s), hb = _mm512_slli_epi16(wb, 7);
    lo = TFCC_XNN_PAIR_DOT(lo, _mm512_unpacklo_epi16(hb, wb), x->mb);
    hi = TFCC_XNN_PAIR_DOT(hi, _mm512_unpackhi_epi16(hb, wb), x->mb);
  }
  const __m512i w = _mm512_packs_epi32(_mm512_sra_epi32(lo, x->sh), _mm512_sra_epi32(hi, x->sh));
  return _mm512_adds_epi16(w, x->zo16);
}

/* pa steps; pb steps when sb, else its value is in the bias. Returns elements done. */
static size_t xnn_rows64(const xparams *x, const int8_t *pa, const int8_t *pb, int8_t *po, size_t n,
                         bool sb) {
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

static size_t add_xnn_pairs(const tfcc_q8_vbinary_params *p, const int8_t *pa, const int8_t *pb,
                            int8_t *po, size_t n, int a_step, int b_step) {
  if (n < 64 || (!a_step && !b_step)) return 0;
  xparams x;
  x.s = p->is_signed;
  int32_t bias = p->bias;
  if (!a_step || !b_step) { /* fold the constant operand: bias + c * m, wrapping */
    const int32_t c =
        x.s ? (!a_step ? (int32_t)pa[0] : (int32_t)pb[0])
            : (!a_step ? (int32_t)((const uint8_t *)pa)[0] : (int32_t)((const uint8_t *)pb)[0]);
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
  if (a_step && b_step) return xnn_rows64(&x, pa, pb, po, n, true);
  /* pb is not read without sb; a valid pointer keeps pb + i defined */
  const int8_t *pv = a_step ? pa : pb;
  return xnn_rows64(&x, pv, pv, po, n, false);
}

#endif
