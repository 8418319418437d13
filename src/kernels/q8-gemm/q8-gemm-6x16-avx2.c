/* q8 GEMM micro-kernel, AVX2 without VNNI: 6 rows x 16 columns of exact vpmaddwd products on
 * int16 operands (no vpmaddubsw: it saturates). The weights are int8 pairs (tfcc_q8_gemm_c2_layout,
 * tfcc_q8_gemm_stored_xor: w, or w - 128 for uint8), sign-extended here by vpmovsxbw from
 * memory (a load and a shuffle each); the rows come widened to int16 by the driver, once per
 * row tile for all the panels it runs (tfcc_q8_gemm_rows16), so that a depth pair is one
 * dword of a row. Per depth pair: two widening panel loads (columns 0-7, 8-15), one dword
 * broadcast per row, two vpmaddwd and two vpaddd per row (12 int32 accumulators, two panel
 * vectors, the broadcast and the product: the 16 ymm registers). |x * w| <= 255 * 128, so each
 * vpmaddwd lane is exact and the int32 sums wrap as the reference's do.
 *
 * The body is vnni_body.h's, with the dot product of 4 bytes replaced by vpmaddwd on one depth
 * pair (4 bytes of the int16 rows, 32 bytes of panel per step; kc in bytes of the int16 rows);
 * partial tiles run 4-, 2- and 1-row instances; the output stage is requant_body.h's
 * store_pair (float requantization, or the int32 tile for the driver's fixed-point and hybrid
 * stages). tfcc_q8_widen_avx2 (below) widens the driver's rows. */
#include <immintrin.h>
#include <string.h>

#include "kernels/q8-gemm/ukernels.h"
#include "kernels/simd/i32v_avx2.h"

#include "kernels/q8-gemm/requant_body.h"

#define Q8G_DOT(acc, u, s) _mm256_add_epi32((acc), _mm256_madd_epi16((u), (s)))
#define Q8G_TILES(X) X(6, 4) X(4, 2) X(2, 1) X(1, 0)
/* no prefetches: with the prefetch code in the loop (unused or not), gcc 12 keeps loop state on
   the stack and the 53 ResNet-50 convolutions ran 1.2-1.4x slower (bench/q8_conv_bench) */
#define Q8G_PREFETCH 0
#define Q8G_FULL_EPILOGUE 0
#define Q8G_TAIL 0 /* kc: 4 bytes per depth pair */
/* a depth pair's 16 int8 pairs (32 bytes): columns 0-7, 8-15 sign-extended to int16 by
   vpmovsxbw from memory */
#define Q8G_LDW(p, half) \
  _mm256_cvtepi8_epi16(_mm_load_si128((const __m128i *)(const void *)((p) + (half)*16)))
#define Q8G_W_STEP 32
#define Q8G_FN_S tfcc_q8_gemm_s_6x16_avx2
#define Q8G_FN_U tfcc_q8_gemm_u_6x16_avx2
#include "kernels/q8-gemm/vnni_body.h"

void tfcc_q8_widen_avx2(int16_t *d, const uint8_t *s, size_t n, bool is_signed) {
  size_t i = 0;
  if (n >= 16) {
    /* the last 16 bytes end at n (overlapping the step before: the same values again) */
    for (;; i += 16) {
      if (i + 16 > n) i = n - 16;
      const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
      _mm256_storeu_si256((__m256i *)(void *)(d + i),
                          is_signed ? _mm256_cvtepi8_epi16(b) : _mm256_cvtepu8_epi16(b));
      if (i + 16 == n) return;
    }
  }
  if (is_signed)
    for (; i < n; i++) d[i] = (int8_t)s[i];
  else
    for (; i < n; i++) d[i] = s[i];
}
