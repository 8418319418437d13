/* q8 bilinear resize, AVX2: 8 channels per step in int32 lanes, scalar channel tails. */
#include <immintrin.h>

#include "kernels/q8-resize/resize.h"

static inline __m256i widen(__m128i x, bool s) {
  return s ? _mm256_cvtepi8_epi32(x) : _mm256_cvtepu8_epi32(x);
}

static inline __m128i ld8(const int8_t *p) { return _mm_loadl_epi64((const __m128i *)p); }

/* tfcc_xnn_ibilinear on 8 lanes (every intermediate inside int32 for 8-bit inputs). */
static inline __m128i lerp(const int8_t *p00, const int8_t *p01, const int8_t *p10,
                           const int8_t *p11, __m256i wx, __m256i wy, bool s) {
  const __m256i tl = widen(ld8(p00), s), tr = widen(ld8(p01), s), bl = widen(ld8(p10), s),
                br = widen(ld8(p11), s);
  const __m256i t =
      _mm256_add_epi32(_mm256_slli_epi32(tl, 11), _mm256_mullo_epi32(_mm256_sub_epi32(tr, tl), wx));
  const __m256i b =
      _mm256_add_epi32(_mm256_slli_epi32(bl, 11), _mm256_mullo_epi32(_mm256_sub_epi32(br, bl), wx));
  const __m256i acc = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_slli_epi32(t, 11), _mm256_mullo_epi32(_mm256_sub_epi32(b, t), wy)),
      _mm256_set1_epi32(1 << 21));
  const __m256i r = _mm256_srai_epi32(acc, 22);
  const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
  return s ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
}

/* 8 channels per step, the rest to the body's scalar loop */
static inline size_t q8r_channels(int8_t *o, const int8_t *const *p, int32_t wx, int32_t wy, bool s,
                                  size_t d) {
  const __m256i vx = _mm256_set1_epi32(wx), vy = _mm256_set1_epi32(wy);
  const size_t full = d & ~(size_t)7;
  for (size_t c = 0; c < full; c += 8)
    _mm_storel_epi64((__m128i *)(o + c), lerp(p[0] + c, p[1] + c, p[2] + c, p[3] + c, vx, vy, s));
  return full;
}

#define TFCC_Q8_RESIZE_FN tfcc_q8_resize_avx2
#include "kernels/q8-resize/resize_body.h"
