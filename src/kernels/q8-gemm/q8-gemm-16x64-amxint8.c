/* q8 GEMM micro-kernel on AMX tiles (AMX-TILE + AMX-INT8), 16 rows x 64 columns.
 *
 * Developed without AMX (checked under a C model of the tiles), then run and measured on an AMX
 * Xeon (docs/kernels.md "AMX on hardware"): faster than AVX512-VNNI for depth >= 256 only, so
 * tfcc_q8_gemm_select_for takes it per layer. Dispatch allows it only when cpuid reports
 * AMX-TILE and AMX-INT8, XCR0 has the tile state enabled, Linux granted this process
 * XFEATURE_XTILEDATA (arch_prctl ARCH_REQ_XCOMP_PERM, src/cpu), the CPU has AVX512-VNNI (row sums) and the dispatch level is avx512. Its tile program runs in the
 * tests under a C model of the tile instructions (tests/ops/test_q8_amx_emulated.c). See
 * docs/kernels.md.
 *
 * Tiles: tmm0..tmm3 = C (mr rows x 16 int32; columns 0-15, 16-31, 32-47, 48-63), tmm4 = A (mr
 * rows x 64 depth bytes), tmm5..tmm7 = B (16 groups of 4 depth bytes x 16 columns x 4 bytes),
 * rotating over the four column blocks: per 64 bytes of depth, 5 tile loads and 4 tile dot
 * products (16 x 16 x 64 multiply-adds each).
 * Weights are stored as they are (w_xor 0): TDPBSSD (s8 x s8) for int8 models, TDPBUUD (u8 x u8)
 * for uint8 ones, so the row-sum factor kz of gemm.h is the filter offset: zero for int8
 * models, which then need no row sums at all.
 * Panels: the layout of gemm.h (group g, column j at g * 256 + 4 * j after the bias and scale
 * rows) with the depth zero-padded to 64 (tfcc_q8_pack pads AMX kernels' panels to a tile
 * row), so the B tile of column block t and depth step s sits at s * 4096 + t * 64 with a
 * 256-byte row stride.
 * A: row pointers. Equally spaced rows (a plain matrix, an im2col tile, a 1x1 convolution's
 * rows within an image row) are loaded in place with their spacing as the tile stride; other
 * rows are gathered 64 bytes each into a staging tile. The last kc % 64 bytes of the rows are
 * staged zero-padded, so no row is read past its kc bytes. C and A tiles are configured with
 * mr rows: rows past mr are neither read nor computed.
 * The tile configuration is loaded on entry and released on exit, so a thread holds no tile
 * state between calls. The epilogue stores the C tiles to an int32 block, adds bias and row
 * term, and requantizes with the AVX512-VNNI kernel's own output stage (requant-avx512.h),
 * two rows x 32 columns at a time.
 *
 * GCC's tile intrinsics are asm statements that do not tell the compiler that ldtilecfg and
 * tileloadd read memory (only tilestored has a memory clobber): a compiler barrier before
 * each keeps the configuration and the staged rows stored before they are read. */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/q8-gemm/requant-avx512.h"
#include "kernels/q8-gemm/ukernels.h"
#include "kernels/simd/amx_tile_config.h"

#define MR 16
#define NR 64
#define KB 64                    /* depth bytes per tile step (one A tile row) */
#define B_STEP (KB / 4 * NR * 4) /* panel bytes per depth step: 16 groups x 64 columns x 4 */

#define TFCC_AMX_BARRIER() __asm__ __volatile__("" ::: "memory")

static inline void configure(size_t mr) {
  /* C and A: mr rows; B: 16 groups */
  const uint8_t r = (uint8_t)mr, rows[8] = {r, r, r, r, r, 16, 16, 16};
  tfcc_amx_tile_config cfg;
  tfcc_amx_tile_config_set(&cfg, 8, rows);
  TFCC_AMX_BARRIER();
  _tile_loadconfig(&cfg);
}

/* One depth step: the A tile from a (row stride a_stride) against the four B tiles at pb. */
#define STEP(dp, a, a_stride, pb) \
  do { \
    _tile_loadd(4, (a), (long)(a_stride)); \
    _tile_loadd(5, (pb), NR * 4); \
    _tile_loadd(6, (pb) + 64, NR * 4); \
    dp(0, 4, 5); \
    _tile_loadd(7, (pb) + 128, NR * 4); \
    dp(1, 4, 6); \
    _tile_loadd(5, (pb) + 192, NR * 4); \
    dp(2, 4, 7); \
    dp(3, 4, 5); \
  } while (0)

/* Bytes k .. k + n - 1 of rows 0 .. mr - 1 into the staging tile (64-byte rows), zero past n. */
static inline void stage_rows(uint8_t *st, size_t mr, const void *const *a, size_t k, size_t n) {
  for (size_t i = 0; i < mr; i++) {
    const uint8_t *src = (const uint8_t *)a[i] + k;
    if (n == KB) {
      _mm512_store_si512(st + i * KB, _mm512_loadu_si512(src));
    } else {
      const __mmask64 m = (__mmask64)(~0ull >> (64 - n));
      _mm512_store_si512(st + i * KB, _mm512_maskz_loadu_epi8(m, src));
    }
  }
  TFCC_AMX_BARRIER();
}

/* Tile products into acc (mr rows of 64 int32). */
#define TILE_PRODUCT(dp) \
  do { \
    const uint8_t *a0 = a[0]; \
    const ptrdiff_t s = mr > 1 ? (const uint8_t *)a[1] - a0 : 0; \
    bool spaced = true; \
    for (size_t i = 2; i < mr; i++) \
      if ((const uint8_t *)a[i] - a0 != (ptrdiff_t)i * s) spaced = false; \
    configure(mr); \
    _tile_zero(0); \
    _tile_zero(1); \
    _tile_zero(2); \
    _tile_zero(3); \
    const uint8_t *pb = (const uint8_t *)w + NR * 8; \
    size_t k = 0; \
    for (; k + KB <= kc; k += KB, pb += B_STEP) { \
      if (spaced) { \
        STEP(dp, a0 + k, s, pb); \
      } else { \
        stage_rows(stage, mr, a, k, KB); \
        STEP(dp, stage, KB, pb); \
      } \
    } \
    if (k < kc) { \
      stage_rows(stage, mr, a, k, kc - k); \
      STEP(dp, stage, KB, pb); \
    } \
    _tile_stored(0, &acc[0][0], NR * 4); \
    _tile_stored(1, &acc[0][16], NR * 4); \
    _tile_stored(2, &acc[0][32], NR * 4); \
    _tile_stored(3, &acc[0][48], NR * 4); \
    _tile_release(); \
  } while (0)

/* acc + bias + row term, requantized and stored: rows i, i + 1 and 32 columns at a time. */
static inline void epilogue(size_t mr, size_t nc, const int32_t (*acc)[NR], const void *w,
                            const int32_t *row_add, const tfcc_q8_out *o, int is_signed) {
  const int32_t *bias = w;
  const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4);
  for (size_t i = 0; i < mr; i += 2) {
    const size_t j = i + 1 < mr ? i + 1 : i; /* row i + 1 past mr: computed, not stored */
    const __m512i ri = _mm512_set1_epi32(row_add[i]), rj = _mm512_set1_epi32(row_add[j]);
    for (size_t h = 0; h < NR && h < nc; h += 32) {
      const __m512i b0 = _mm512_loadu_si512(bias + h), b1 = _mm512_loadu_si512(bias + h + 16);
      const __m512i x0 = _mm512_add_epi32(_mm512_add_epi32(_mm512_load_si512(&acc[i][h]), b0), ri);
      const __m512i x1 =
          _mm512_add_epi32(_mm512_add_epi32(_mm512_load_si512(&acc[i][h + 16]), b1), ri);
      const __m512i y0 = _mm512_add_epi32(_mm512_add_epi32(_mm512_load_si512(&acc[j][h]), b0), rj);
      const __m512i y1 =
          _mm512_add_epi32(_mm512_add_epi32(_mm512_load_si512(&acc[j][h + 16]), b1), rj);
      tfcc_q8_out oh = *o;
      oh.c += h;
      if (o->mult && !o->c32) {
        oh.mult += h * (size_t)o->mult_stride;
        oh.shift += h * (size_t)o->mult_stride;
        store_pair_fixed(i, mr, nc - h, x0, x1, y0, y1, &oh);
      } else {
        const __m512 s0 = _mm512_loadu_ps(scale + h), s1 = _mm512_loadu_ps(scale + h + 16);
        store_pair(i, mr, nc - h, x0, x1, y0, y1, s0, s1, &oh, is_signed);
      }
    }
  }
}

#define DP_S8(c, a, b) _tile_dpbssd(c, a, b)
#define DP_U8(c, a, b) _tile_dpbuud(c, a, b)

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_s_16x64_amxint8) {
  int32_t acc[MR][NR] __attribute__((aligned(64)));
  uint8_t stage[MR * KB] __attribute__((aligned(64)));
  TILE_PRODUCT(DP_S8);
  epilogue(mr, nc, (const int32_t(*)[NR])acc, w, row_add, o, 1);
}

TFCC_Q8_GEMM_DECL(tfcc_q8_gemm_u_16x64_amxint8) {
  int32_t acc[MR][NR] __attribute__((aligned(64)));
  uint8_t stage[MR * KB] __attribute__((aligned(64)));
  TILE_PRODUCT(DP_U8);
  epilogue(mr, nc, (const int32_t(*)[NR])acc, w, row_add, o, 0);
}
