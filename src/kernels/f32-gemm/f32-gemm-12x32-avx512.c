/* f32 GEMM micro-kernels, AVX-512F: 12 rows x 32 columns (24 zmm accumulators), up to 4 x 32
 * for short last tiles, 12 x 16 for half-full panels, and 1 x 32 (GEMV). Per k of the 12x32 tile: two panel loads, twelve
 * broadcasts from A, twenty-four FMAs (1.5x the FMAs per panel byte of an 8x32 tile; 24
 * accumulators + 2 panel vectors + 1 broadcast fit the 32 zmm registers). The accumulators
 * start from the panel's bias, or from C when a later K block adds onto it; clamp and
 * masked stores in the epilogue. With pf, each k step prefetches pf_lines lines of the
 * driver's prefetch share into L2 (gemm.h): the driver spreads the next block over the first
 * two tiles of a sweep, so the large-weight layers (ResNet-50's 7x7 stage, 9.4 MB per layer)
 * stream their weights from L3/DRAM while they compute; the other tiles issue none. */
#include <immintrin.h>
#include <stdint.h>

#include "kernels/f32-gemm/ukernels.h"
#include "kernels/simd/f32v_avx512.h"
#include "kernels/simd/f32v_row.h"
/* Prefetch into L2 of pf_lines 64-byte lines per k step of the driver's share (gemm.h). */
#define PF_1(k) _mm_prefetch((const char *)(pf + (k)*16), _MM_HINT_T1);
#define PF_2(k) \
  _mm_prefetch((const char *)(pf + (k)*32), _MM_HINT_T1); \
  _mm_prefetch((const char *)(pf + (k)*32 + 16), _MM_HINT_T1);
#define PF_0(k)

static inline __mmask16 mask_lo(size_t nc) {
  return (__mmask16)(nc >= 16 ? 0xFFFFu : (1u << nc) - 1u);
}
static inline __mmask16 mask_hi(size_t nc) { return nc <= 16 ? 0 : mask_lo(nc - 16); }

/* No per-row branches in the prologue and epilogue (GCC schedules the 24-accumulator body
 * badly around them): a later K block loads C rows with masks, empty for rows >= mr
 * (masked-off lanes never fault); rows >= mr store with an empty mask. */
#define ROWMASK(r, m) ((r) < mr ? (m) : (__mmask16)0)
#define INIT2(r) \
  c##r##0 = _mm512_maskz_loadu_ps(ROWMASK(r, m0), c + (r)*c_stride); \
  c##r##1 = _mm512_maskz_loadu_ps(ROWMASK(r, m1), c + (r)*c_stride + 16);
#define STORE2(r) \
  _mm512_mask_storeu_ps(c + (r)*c_stride, ROWMASK(r, m0), f32v_clamp(c##r##0, vlo, vhi)); \
  _mm512_mask_storeu_ps(c + (r)*c_stride + 16, ROWMASK(r, m1), f32v_clamp(c##r##1, vlo, vhi));
/* With a residual (gemm.h): (acc + r), then the clamp. */
#define STORE2R(r) \
  _mm512_mask_storeu_ps( \
      c + (r)*c_stride, ROWMASK(r, m0), \
      f32v_clamp( \
          _mm512_add_ps(c##r##0, _mm512_maskz_loadu_ps(ROWMASK(r, m0), res + (r)*res_stride)), \
          vlo, vhi)); \
  _mm512_mask_storeu_ps( \
      c + (r)*c_stride + 16, ROWMASK(r, m1), \
      f32v_clamp(_mm512_add_ps(c##r##1, \
                               _mm512_maskz_loadu_ps(ROWMASK(r, m1), res + (r)*res_stride + 16)), \
                 vlo, vhi));

/* The k loop of the 32-column tiles: ROWS(k) broadcasts a[r][k] and multiplies it into the
 * row's two accumulators for each of the tile's rows; PF(k) prefetches pf (PF_0/1/2 by the
 * number of lines per k), unrolled by four. */
#define ROW(r, kk) \
  v = _mm512_set1_ps(a##r[kk]); \
  c##r##0 = _mm512_fmadd_ps(v, b0, c##r##0); \
  c##r##1 = _mm512_fmadd_ps(v, b1, c##r##1);
#define STEP(k, PF, ROWS) \
  do { \
    const __m512 b0 = _mm512_load_ps(w + (k)*32), b1 = _mm512_load_ps(w + (k)*32 + 16); \
    __m512 v; \
    PF(k) \
    ROWS(k) \
  } while (0)
#define LOOP(PF, ROWS) \
  for (; k + 4 <= kc; k += 4) { \
    STEP(k, PF, ROWS); \
    STEP(k + 1, PF, ROWS); \
    STEP(k + 2, PF, ROWS); \
    STEP(k + 3, PF, ROWS); \
  } \
  for (; k < kc; k++) STEP(k, PF, ROWS);
#define K_LOOP(ROWS) \
  size_t k = 0; \
  if (!pf || pf_lines == 0) { \
    LOOP(PF_0, ROWS) \
  } else if (pf_lines == 1) { \
    LOOP(PF_1, ROWS) \
  } else { \
    LOOP(PF_2, ROWS) \
  }
/* macro lists that clang-format 14 rewraps differently on each pass: */
/* clang-format off */
#define ROWS_12(k)                                                               \
  ROW(0, k) ROW(1, k) ROW(2, k) ROW(3, k) ROW(4, k) ROW(5, k)                    \
  ROW(6, k) ROW(7, k) ROW(8, k) ROW(9, k) ROW(10, k) ROW(11, k)
/* clang-format on */
#define ROWS_4(k) ROW(0, k) ROW(1, k) ROW(2, k) ROW(3, k)

/* The kernels' bodies take the residual (NULL: none) and are inlined into the plain entry
 * point (res == NULL, the branch folds away) and the residual one. */
#define CORE(name) \
  static inline __attribute__((always_inline)) void name( \
      size_t mr, size_t nc, size_t kc, const float *const *a, size_t a_off, const float *w, \
      const float *bias, float *c, size_t c_stride, float lo, float hi, const float *pf, \
      size_t pf_lines, const float *res, size_t res_stride)
#define ENTRIES(plain, with_res, core) \
  TFCC_F32_GEMM_DECL(plain) { \
    core(mr, nc, kc, a, a_off, w, bias, c, c_stride, lo, hi, pf, pf_lines, NULL, 0); \
  } \
  TFCC_F32_GEMM_RES_KERNEL_DECL(with_res) { \
    core(mr, nc, kc, a, a_off, w, bias, c, c_stride, lo, hi, pf, pf_lines, res, res_stride); \
  }

CORE(core_12x32) {
  const float *a0 = a[0] + a_off, *a1 = a[1] + a_off, *a2 = a[2] + a_off, *a3 = a[3] + a_off;
  const float *a4 = a[4] + a_off, *a5 = a[5] + a_off, *a6 = a[6] + a_off, *a7 = a[7] + a_off;
  const float *a8 = a[8] + a_off, *a9 = a[9] + a_off, *a10 = a[10] + a_off;
  const float *a11 = a[11] + a_off;
  const __mmask16 m0 = mask_lo(nc), m1 = mask_hi(nc);
  __m512 c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
  __m512 c60, c61, c70, c71, c80, c81, c90, c91, c100, c101, c110, c111;
  if (bias) { /* first K block: every row starts from the bias (one branch, not per row) */
    c00 = c10 = c20 = c30 = c40 = c50 = c60 = c70 = c80 = c90 = c100 = c110 = _mm512_load_ps(bias);
    c01 = c11 = c21 = c31 = c41 = c51 = c61 = c71 = c81 = c91 = c101 = c111 =
        _mm512_load_ps(bias + 16);
  } else {
    /* macro lists that clang-format 14 rewraps differently on each pass: */
    /* clang-format off */
    INIT2(0) INIT2(1) INIT2(2) INIT2(3) INIT2(4) INIT2(5)
    INIT2(6) INIT2(7) INIT2(8) INIT2(9) INIT2(10) INIT2(11)
  }
  K_LOOP(ROWS_12)
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  if (res) {
    STORE2R(0) STORE2R(1) STORE2R(2) STORE2R(3) STORE2R(4) STORE2R(5)
    STORE2R(6) STORE2R(7) STORE2R(8) STORE2R(9) STORE2R(10) STORE2R(11)
  } else {
    STORE2(0) STORE2(1) STORE2(2) STORE2(3) STORE2(4) STORE2(5)
    STORE2(6) STORE2(7) STORE2(8) STORE2(9) STORE2(10) STORE2(11)
  }
  /* clang-format on */
}
ENTRIES(tfcc_f32_gemm_12x32_avx512, tfcc_f32_gemm_12x32_res_avx512, core_12x32)
/* Up to 4 rows x 32 columns: the last tile of M = 12q + 2..4 (ResNet-50's 14x14 stage,
 * M = 196 = 16 x 12 + 4), which the 12-row tile would run at full cost for a third of its
 * rows. Eight accumulators: one FMA chain per output, k in order (the same sums, bit for
 * bit, as the 12-row tile); the chains' latency bounds it at about a third of a 12-row tile's
 * time. Prefetches pf like the 12-row tile. */
CORE(core_4x32) {
  const float *a0 = a[0] + a_off, *a1 = a[mr > 1 ? 1 : 0] + a_off;
  const float *a2 = a[mr > 2 ? 2 : 0] + a_off, *a3 = a[mr > 3 ? 3 : 0] + a_off;
  const __mmask16 m0 = mask_lo(nc), m1 = mask_hi(nc);
  __m512 c00, c01, c10, c11, c20, c21, c30, c31;
  if (bias) {
    c00 = c10 = c20 = c30 = _mm512_load_ps(bias);
    c01 = c11 = c21 = c31 = _mm512_load_ps(bias + 16);
  } else {
    INIT2(0) INIT2(1) INIT2(2) INIT2(3)
  }
  K_LOOP(ROWS_4)
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  if (res) {
    STORE2R(0) STORE2R(1) STORE2R(2) STORE2R(3)
  } else {
    STORE2(0) STORE2(1) STORE2(2) STORE2(3)
  }
}
ENTRIES(tfcc_f32_gemm_4x32_avx512, tfcc_f32_gemm_4x32_res_avx512, core_4x32)

#undef ROWS_4
#undef ROWS_12
#undef K_LOOP
#undef LOOP
#undef STEP
#undef ROW
#undef INIT2
#undef STORE2
#undef STORE2R
#undef PF_0
#undef PF_1
#undef PF_2

CORE(core_1x32) {
  (void)pf;
  (void)pf_lines;
  (void)mr;
  (void)c_stride;
  (void)res_stride;
  const float *a0 = a[0] + a_off;
  const __mmask16 m0 = mask_lo(nc), m1 = mask_hi(nc);
  __m512 c00, c01;
  if (bias) {
    c00 = _mm512_load_ps(bias);
    c01 = _mm512_load_ps(bias + 16);
  } else {
    c00 = _mm512_maskz_loadu_ps(m0, c);
    c01 = _mm512_maskz_loadu_ps(m1, c + 16);
  }
  /* one chain per column vector, k in order: the same sums, bit for bit, as the 12-row
   * tile (a row's result does not depend on how many rows run with it); GEMVs are memory
   * bound, the FMA latency is hidden */
  for (size_t k = 0; k < kc; k++) {
    const __m512 v = _mm512_set1_ps(a0[k]);
    c00 = _mm512_fmadd_ps(v, _mm512_load_ps(w), c00);
    c01 = _mm512_fmadd_ps(v, _mm512_load_ps(w + 16), c01);
    w += 32;
  }
  if (res) {
    const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
    c00 = _mm512_add_ps(c00, _mm512_maskz_loadu_ps(m0, res));
    c01 = _mm512_add_ps(c01, _mm512_maskz_loadu_ps(m1, res + 16));
    _mm512_mask_storeu_ps(c, m0, f32v_clamp(c00, vlo, vhi));
    _mm512_mask_storeu_ps(c + 16, m1, f32v_clamp(c01, vlo, vhi));
    return;
  }
  f32v_st2_clamp(c, nc, c00, c01, _mm512_set1_ps(lo), _mm512_set1_ps(hi));
}
ENTRIES(tfcc_f32_gemm_1x32_avx512, tfcc_f32_gemm_1x32_res_avx512, core_1x32)

/* 12 rows x the first 16 columns of a 32-column panel (nc <= 16): twelve accumulators, one
 * panel load and twelve broadcasts per k; half the FMAs of the 12x32 tile on half-empty
 * panels (N = 16 layers, N tails of 16 or fewer). */
CORE(core_12x16) {
  (void)pf;
  (void)pf_lines;
  const float *a0 = a[0] + a_off, *a1 = a[1] + a_off, *a2 = a[2] + a_off, *a3 = a[3] + a_off;
  const float *a4 = a[4] + a_off, *a5 = a[5] + a_off, *a6 = a[6] + a_off, *a7 = a[7] + a_off;
  const float *a8 = a[8] + a_off, *a9 = a[9] + a_off, *a10 = a[10] + a_off;
  const float *a11 = a[11] + a_off;
  const __mmask16 m = mask_lo(nc), l = bias ? (__mmask16)0 : m;
  const __m512 bi = bias ? _mm512_load_ps(bias) : _mm512_setzero_ps();
#define INIT1(r) _mm512_mask_loadu_ps(bi, (r) < mr ? l : (__mmask16)0, c + (r)*c_stride)
  __m512 c0 = INIT1(0), c1 = INIT1(1), c2 = INIT1(2), c3 = INIT1(3), c4 = INIT1(4);
  __m512 c5 = INIT1(5), c6 = INIT1(6), c7 = INIT1(7), c8 = INIT1(8), c9 = INIT1(9);
  __m512 c10 = INIT1(10), c11 = INIT1(11);
#undef INIT1
/* row r's accumulator += its element k of A times the panel's 16 columns b */
#define FMA1(r, k) c##r = _mm512_fmadd_ps(_mm512_set1_ps(a##r[k]), b, c##r)
#define STEP(k) \
  do { \
    const __m512 b = _mm512_load_ps(w + (k)*32); \
    FMA1(0, k), FMA1(1, k), FMA1(2, k), FMA1(3, k), FMA1(4, k), FMA1(5, k); \
    FMA1(6, k), FMA1(7, k), FMA1(8, k), FMA1(9, k), FMA1(10, k), FMA1(11, k); \
  } while (0)
/* the twelve row pointers and the panel, n depth steps on */
#define ADVANCE(n) \
  do { \
    a0 += (n), a1 += (n), a2 += (n), a3 += (n), a4 += (n), a5 += (n); \
    a6 += (n), a7 += (n), a8 += (n), a9 += (n), a10 += (n), a11 += (n); \
    w += (n)*32; \
  } while (0)
  size_t k = 0;
  for (; k + 4 <= kc; k += 4) {
    STEP(0);
    STEP(1);
    STEP(2);
    STEP(3);
    ADVANCE(4);
  }
  for (; k < kc; k++) {
    STEP(0);
    ADVANCE(1);
  }
#undef ADVANCE
#undef STEP
#undef FMA1
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
#define ST(r, v) \
  _mm512_mask_storeu_ps(c + (r)*c_stride, (r) < mr ? m : (__mmask16)0, f32v_clamp(v, vlo, vhi))
#define STR(r, v) \
  _mm512_mask_storeu_ps( \
      c + (r)*c_stride, (r) < mr ? m : (__mmask16)0, \
      f32v_clamp(_mm512_add_ps( \
                     v, _mm512_maskz_loadu_ps((r) < mr ? m : (__mmask16)0, res + (r)*res_stride)), \
                 vlo, vhi))
#define ROWS12(S) \
  S(0, c0), S(1, c1), S(2, c2), S(3, c3), S(4, c4), S(5, c5), S(6, c6), S(7, c7), S(8, c8), \
      S(9, c9), S(10, c10), S(11, c11)
  if (res)
    ROWS12(STR);
  else
    ROWS12(ST);
#undef ROWS12
#undef STR
#undef ST
}
ENTRIES(tfcc_f32_gemm_12x16_avx512, tfcc_f32_gemm_12x16_res_avx512, core_12x16)

/* Residual epilogue (gemm.h): up to 32 columns per row in two masked vectors; the clamp as
 * the f32-vbinary kernels do it, f32v_clamp (MAXPS/MINPS return v when it is NaN). */
TFCC_F32_GEMM_RES_DECL(tfcc_f32_gemm_res_avx512) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (size_t j = 0; j < nc; j += 32) {
    const size_t n = nc - j;
    const __mmask16 m0 = mask_lo(n), m1 = mask_hi(n);
    float *cr = c + j;
    const float *rr = r + j;
    for (size_t i = 0; i < mr; i++, cr += c_stride, rr += r_stride) {
      const __m512 v0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, cr), _mm512_maskz_loadu_ps(m0, rr));
      const __m512 v1 =
          _mm512_add_ps(_mm512_maskz_loadu_ps(m1, cr + 16), _mm512_maskz_loadu_ps(m1, rr + 16));
      _mm512_mask_storeu_ps(cr, m0, f32v_clamp(v0, vlo, vhi));
      _mm512_mask_storeu_ps(cr + 16, m1, f32v_clamp(v1, vlo, vhi));
    }
  }
}
