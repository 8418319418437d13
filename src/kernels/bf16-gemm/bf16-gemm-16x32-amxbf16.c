/* bf16 GEMM micro-kernel on AMX tiles (AMX-TILE + AMX-BF16), 16 rows x 32 columns.
 *
 * Developed without AMX (checked under a C model of the tiles), then run and measured on an AMX
 * Xeon (docs/kernels.md "AMX on hardware"). Dispatch picks it only when cpuid reports AMX-TILE and AMX-BF16, XCR0 has the tile state enabled, Linux
 * granted this process XFEATURE_XTILEDATA (arch_prctl ARCH_REQ_XCOMP_PERM, src/cpu) and the
 * dispatch level is avx512. See docs/kernels.md.
 *
 * Tiles: tmm0/tmm1 = C (16 rows x 16 float32, columns 0-15 / 16-31), tmm2 = A (16 rows x 32
 * bf16 of K), tmm3/tmm4 = B (16 pair rows x 16 columns x 2 bf16). The packed panel's pair row
 * is 32 columns x 2 bf16 = 128 bytes, so B0 is its first 64 bytes and B1 its second at a row
 * stride of 128 bytes: the same panel layout as the vdpbf16ps kernel, with K padded to 32.
 * A rows are the driver's bf16 scratch rows (constant stride; rows past mr are readable
 * scratch whose results are discarded). The tile configuration is loaded on entry and released
 * on exit, so a thread holds no tile state between calls. */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/bf16-gemm/ukernels.h"
#include "kernels/simd/f32v_avx512.h"
#include "kernels/simd/amx_tile_config.h"

TFCC_BF16_GEMM_DECL(tfcc_bf16_gemm_16x32_amxbf16) {
  static const uint8_t rows[5] = {16, 16, 16, 16, 16};
  tfcc_amx_tile_config cfg;
  tfcc_amx_tile_config_set(&cfg, 5, rows);
  _tile_loadconfig(&cfg);
  const float *bias = w;
  const uint16_t *b = (const uint16_t *)(const void *)(bias + 32);
  _tile_zero(0);
  _tile_zero(1);
  /* kp is a multiple of 16 (K padded to 32) */
  for (size_t k = 0; k < kp; k += 16) {
    _tile_loadd(2, a + 2 * k, (long)(a_stride * sizeof(uint16_t)));
    _tile_loadd(3, b + k * 64, 128);
    _tile_loadd(4, b + k * 64 + 32, 128);
    _tile_dpbf16ps(0, 2, 3);
    _tile_dpbf16ps(1, 2, 4);
  }
  float acc[16][32] __attribute__((aligned(64)));
  _tile_stored(0, &acc[0][0], 128);
  _tile_stored(1, &acc[0][16], 128);
  _tile_release();
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const __m512 b0 = _mm512_load_ps(bias), b1 = _mm512_load_ps(bias + 16);
  const __mmask16 m0 = (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
  const __mmask16 m1 = (__mmask16)(nc >= 32 ? 0xFFFFu : nc > 16 ? (1u << (nc - 16)) - 1u : 0u);
  for (size_t i = 0; i < mr; i++) {
    const __m512 v0 = _mm512_add_ps(_mm512_load_ps(&acc[i][0]), b0);
    const __m512 v1 = _mm512_add_ps(_mm512_load_ps(&acc[i][16]), b1);
    _mm512_mask_storeu_ps(c + i * c_stride, m0, f32v_clamp(v0, vlo, vhi));
    _mm512_mask_storeu_ps(c + i * c_stride + 16, m1, f32v_clamp(v1, vlo, vhi));
  }
}
