/* f32 direct convolution, AVX-512F: tiles of up to 8 pixels x one 32-channel panel (16 zmm
 * accumulators; 16-channel half panels use 8). Per tap: two panel loads, then each pixel's
 * input value is broadcast against them (8 pixels, not 12 as the GEMM tile: 12 pixel
 * pointers and 24 accumulators made GCC spill the panel vectors and run at a third of the
 * speed). The pixels' tap rows are read in place from the image (or a stack patch at the
 * borders). */
#include <immintrin.h>

#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/simd/f32v_avx512.h"

static inline __mmask16 mask_lo(size_t nc) {
  return (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
}
static inline __mmask16 mask_hi(size_t nc) { return nc <= 16 ? 0 : mask_lo(nc - 16); }

static inline __attribute__((always_inline)) void tile_t(const float *const *px, size_t mr,
                                                         size_t ky_stride, int32_t KH, int32_t KWC,
                                                         const float *bias, const float *wk,
                                                         size_t nc, float *out, size_t N,
                                                         __m512 vlo, __m512 vhi, const int MR,
                                                         const int NV) {
  const float *a[8];
  for (int p = 0; p < MR; p++) a[p] = px[(size_t)p < mr ? p : 0];
  __m512 acc[8][2];
  const __m512 b0 = _mm512_load_ps(bias), b1 = NV > 1 ? _mm512_load_ps(bias + 16) : b0;
  for (int p = 0; p < MR; p++) {
    acc[p][0] = b0;
    acc[p][1] = b1;
  }
  for (int32_t ky = 0; ky < KH; ky++) {
    const size_t off = (size_t)ky * ky_stride;
    for (int32_t j = 0; j < KWC; j++, wk += 32) {
      const __m512 w0 = _mm512_load_ps(wk);
      const __m512 w1 = NV > 1 ? _mm512_load_ps(wk + 16) : w0;
      for (int p = 0; p < MR; p++) {
        const __m512 x = _mm512_set1_ps(a[p][off + (size_t)j]);
        acc[p][0] = _mm512_fmadd_ps(x, w0, acc[p][0]);
        if (NV > 1) acc[p][1] = _mm512_fmadd_ps(x, w1, acc[p][1]);
      }
    }
  }
  const __mmask16 m0 = mask_lo(nc), m1 = mask_hi(nc);
  for (int p = 0; p < MR; p++) {
    if ((size_t)p >= mr) break;
    float *o = out + (size_t)p * N;
    _mm512_mask_storeu_ps(o, m0, f32v_clamp(acc[p][0], vlo, vhi));
    if (NV > 1) _mm512_mask_storeu_ps(o + 16, m1, f32v_clamp(acc[p][1], vlo, vhi));
  }
}

/* One panel: 8- or 4-pixel tiles, full or half panel. */
static inline __attribute__((always_inline)) void panel_tile(const float *const *px, size_t mr,
                                                             size_t ky_stride, int32_t KH,
                                                             int32_t KWC, const float *bias,
                                                             const float *wk, size_t nc, float *o,
                                                             size_t N, __m512 vlo, __m512 vhi) {
  if (nc > 16) {
    if (mr > 4)
      tile_t(px, mr, ky_stride, KH, KWC, bias, wk, nc, o, N, vlo, vhi, 8, 2);
    else
      tile_t(px, mr, ky_stride, KH, KWC, bias, wk, nc, o, N, vlo, vhi, 4, 2);
  } else {
    if (mr > 4)
      tile_t(px, mr, ky_stride, KH, KWC, bias, wk, nc, o, N, vlo, vhi, 8, 1);
    else
      tile_t(px, mr, ky_stride, KH, KWC, bias, wk, nc, o, N, vlo, vhi, 4, 1);
  }
}

static void dc_tile(const float *const *px, size_t mr, size_t ky_stride, int32_t KH, int32_t KWC,
                    const float *w, int32_t N, float *out, float lo, float hi) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  /* the packed layout with one K block: all panels' bias, then each panel's K x 32 */
  const size_t panel = 32u * (size_t)KH * (size_t)KWC;
  const float *wk = w + ((size_t)N + 31u) / 32u * 32u;
  for (size_t n0 = 0; n0 < (size_t)N; n0 += 32, wk += panel)
    panel_tile(px, mr, ky_stride, KH, KWC, w + n0, wk, (size_t)N - n0 < 32 ? (size_t)N - n0 : 32,
               out + n0, (size_t)N, vlo, vhi);
}

#define TFCC_DC_MR 8
#include "kernels/f32-conv-direct/direct_conv_rows.h"

TFCC_F32_DIRECT_CONV_DECL(tfcc_f32_direct_conv_32_avx512) {
  dc_rows(g, in, w, lo, hi, out, row0, row1);
}
