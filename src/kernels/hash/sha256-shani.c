/* SHA-256 blocks on the x86 SHA extensions (sha256.h). The state lives as the two vectors the
 * round instruction takes, {A, B, E, F} and {C, D, G, H}; each sha256rnds2 runs two rounds on
 * the low two words of (W + K), and the message schedule's 48 later words come four at a time
 * from sha256msg1 (W[t-16] + s0(W[t-15])), the W[t-7] words across two vectors, and
 * sha256msg2 (+ s1(W[t-2])). */
#include <immintrin.h>

#include "kernels/hash/sha256.h"

void tfcc_sha256_blocks_shani(uint32_t h[8], const uint8_t *p, size_t n) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
  __m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]); /* lanes h0 h1 h2 h3 */
  __m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);
  for (; n > 0; n--, p += 64) {
    const __m128i abef0 = abef, cdgh0 = cdgh;
    __m128i m[4];
    for (int g = 0; g < 16; g++) {
      __m128i w;
      if (g < 4) {
        w = m[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
      } else { /* m[g % 4] holds words 4g-16.., the others 4g-12.., 4g-8.., 4g-4.. */
        __m128i t = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);
        t = _mm_add_epi32(t, _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
        w = m[g & 3] = _mm_sha256msg2_epu32(t, m[(g + 3) & 3]);
      }
      const __m128i wk = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)&tfcc_sha256_k[4 * g]));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
  }
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
  dcba = _mm_blend_epi16(feba, dchg, 0xf0);
  hgfe = _mm_alignr_epi8(dchg, feba, 8);
  _mm_storeu_si128((__m128i *)&h[0], dcba);
  _mm_storeu_si128((__m128i *)&h[4], hgfe);
}
