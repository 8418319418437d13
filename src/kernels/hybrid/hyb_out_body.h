/* Portable body of the hybrid output stage (hyb_out.h), included by the per-ISA files with
 * TFCC_HO_ISA (name suffix) defined so that the compiler vectorises the loops for that
 * instruction set. One pass per element; every product and sum is its own statement (no
 * contraction into a fused multiply-add, even where the file is built with FMA enabled). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/hybrid/hyb_out.h"
#include "kernels/hybrid/quantize.h"

#define HO_CAT2(a, b) a##b
#define HO_CAT(a, b) HO_CAT2(a, b)

#if (HO_W == 16 && defined(__AVX512F__)) || (HO_W == 8 && defined(__AVX2__))
#include <immintrin.h>
#endif

/* Lane-wise a < b ? a : b and a > b ? a : b (so b where they are equal or a is NaN, and the
 * same bits as the compare-and-select below): one instruction where the x86 min / max
 * instructions are these exact selects. */
typedef float ho_f __attribute__((vector_size(HO_W * 4)));
typedef int32_t ho_s __attribute__((vector_size(HO_W * 4)));

static inline ho_f HO_CAT(ho_min_, TFCC_HO_ISA)(ho_f a, ho_f b) {
#if HO_W == 16 && defined(__AVX512F__)
  return (ho_f)_mm512_min_ps((__m512)a, (__m512)b);
#elif HO_W == 8 && defined(__AVX2__)
  return (ho_f)_mm256_min_ps((__m256)a, (__m256)b);
#else
  const ho_s m = a < b;
  return (ho_f)((m & (ho_s)a) | (~m & (ho_s)b));
#endif
}

static inline ho_f HO_CAT(ho_max_, TFCC_HO_ISA)(ho_f a, ho_f b) {
#if HO_W == 16 && defined(__AVX512F__)
  return (ho_f)_mm512_max_ps((__m512)a, (__m512)b);
#elif HO_W == 8 && defined(__AVX2__)
  return (ho_f)_mm256_max_ps((__m256)a, (__m256)b);
#else
  const ho_s m = a > b;
  return (ho_f)((m & (ho_s)a) | (~m & (ho_s)b));
#endif
}
#define HO_MIN HO_CAT(ho_min_, TFCC_HO_ISA)
#define HO_MAX HO_CAT(ho_max_, TFCC_HO_ISA)

/* Lane-wise rint of values of magnitude below 2^22 (the qd8 element's, in [-255, 255]): the
 * 1.5 * 2^23 trick (f + magic rounds in the current rounding mode, - magic is exact), or one
 * conversion instruction in that mode where x86 has it (the same integers). */
static inline ho_s HO_CAT(ho_rint_, TFCC_HO_ISA)(ho_f f) {
#if HO_W == 16 && defined(__AVX512F__)
  return (ho_s)_mm512_cvtps_epi32((__m512)f);
#elif HO_W == 8 && defined(__AVX2__)
  return (ho_s)_mm256_cvtps_epi32((__m256)f);
#else
  const ho_f magic = (ho_f){0} + 12582912.0f;
  f = f + magic;
  f = f - magic;
  return __builtin_convertvector(f, ho_s);
#endif
}

#define HO_LOOP(SCALE, BIAS) \
  for (size_t j = 0; j < nc; j++) { \
    const float t = (float)(int32_t)((uint32_t)acc[j] - zp * (uint32_t)ws[j]); \
    float v = SCALE; \
    BIAS; \
    v = v < lo ? lo : v; \
    v = v > hi ? hi : v; \
    out[j] = v; \
  }

void HO_CAT(tfcc_hyb_out_row_, TFCC_HO_ISA)(const tfcc_q8_hybrid *h, const int32_t *restrict acc,
                                            size_t n0, size_t nc, uint32_t zp, float s,
                                            float *restrict out) {
  const int32_t *restrict ws = h->wsum + n0;
  const float lo = h->lo, hi = h->hi;
  const float *restrict b = h->bias ? h->bias + n0 : NULL;
  if (h->fscale_stride) {
    const float *restrict fs = h->fscale + n0;
    if (h->combined) {
      if (b)
        HO_LOOP(t * (s * fs[j]), v = v + b[j])
      else
        HO_LOOP(t * (s * fs[j]), (void)0)
    } else {
      if (b)
        HO_LOOP((t * s) * fs[j], v = v + b[j])
      else
        HO_LOOP((t * s) * fs[j], (void)0)
    }
  } else {
    const float fs = h->fscale[0], m = s * fs;
    if (h->combined) {
      if (b)
        HO_LOOP(t * m, v = v + b[j])
      else
        HO_LOOP(t * m, (void)0)
    } else {
      if (b)
        HO_LOOP((t * s) * fs, v = v + b[j])
      else
        HO_LOOP((t * s) * fs, (void)0)
    }
  }
}

/* A whole c32 tile (gemm.h, tfcc_q8_hybrid_tile_fn): rows r < mr (int32 row r at c32 + r * NR)
 * of output rows m0 + r, columns n0 .. n0+nc-1, in vectors of HO_W columns whose weight sums,
 * scales and biases are loaded once for all the rows; the same operations in the same order as
 * the row function (so the same bits), the last nc % HO_W columns through it. */
typedef uint32_t ho_u __attribute__((vector_size(HO_W * 4)));

#define HO_TILE_LOOP(SCALE, BIAS) \
  for (size_t r = r0; r < r1; r++) { \
    const ho_u vzp = (ho_u){0} + rzp[r - r0]; \
    const float s = rs[r - r0]; \
    ho_u a; \
    memcpy(&a, c32 + r * NR + j0, sizeof a); \
    const ho_f t = __builtin_convertvector((ho_s)(a - vzp * ws), ho_f); \
    ho_f v = SCALE; \
    BIAS; \
    if (clamp) { \
      v = HO_MAX(vlo, v); /* v < lo ? lo : v */ \
      v = HO_MIN(vhi, v); /* v > hi ? hi : v */ \
    } \
    memcpy(h->c + (m0 + r) * h->c_stride + n0 + j0, &v, sizeof v); \
  }

#if HO_W == 8 && defined(__AVX2__)
/* AVX2 (hybrid63): pairs of 8-column vectors (the AVX2 GEMM's 16-column panels), their sums,
 * scales and biases in registers across the tile's rows, each row's zero point and scale
 * broadcast once for both; the same operations in the same order as HO_TILE_LOOP. The generic
 * loop's per-call row tables and per-row reloads cost more than the arithmetic on AVX2's
 * 6-row tiles (a 6 x 16 tile is 12 vectors). */
static inline __attribute__((always_inline)) __m256 ho_tile_v_avx2(__m256i a, __m256i zp,
                                                                   __m256i ws, __m256 s, __m256 fs,
                                                                   __m256 b, bool comb, bool bias,
                                                                   bool clamp, __m256 lo,
                                                                   __m256 hi) {
  const __m256 t = _mm256_cvtepi32_ps(_mm256_sub_epi32(a, _mm256_mullo_epi32(zp, ws)));
  __m256 v = comb ? _mm256_mul_ps(t, _mm256_mul_ps(s, fs)) : _mm256_mul_ps(_mm256_mul_ps(t, s), fs);
  if (bias) v = _mm256_add_ps(v, b);
  if (clamp) {
    v = _mm256_max_ps(lo, v); /* v < lo ? lo : v */
    v = _mm256_min_ps(hi, v); /* v > hi ? hi : v */
  }
  return v;
}

/* Columns [0, nc16) of the tile (nc16 a multiple of 16). */
static inline __attribute__((always_inline)) void ho_tile16_avx2(const tfcc_q8_hybrid *h,
                                                                 const int32_t *c32, size_t NR,
                                                                 size_t m0, size_t mr, size_t n0,
                                                                 size_t nc16, bool comb, bool bias,
                                                                 bool clamp) {
  const __m256 lo = _mm256_set1_ps(h->lo), hi = _mm256_set1_ps(h->hi);
  const int32_t *zp = h->zp;
  const float *sc = h->scale;
  const size_t rpg = h->rows_per_group, cs = h->c_stride;
  float *const c = h->c + m0 * cs + n0;
  for (size_t j0 = 0; j0 < nc16; j0 += 16) {
    const __m256i w0 = _mm256_loadu_si256((const __m256i *)(const void *)(h->wsum + n0 + j0));
    const __m256i w1 = _mm256_loadu_si256((const __m256i *)(const void *)(h->wsum + n0 + j0 + 8));
    __m256 f0 = _mm256_set1_ps(h->fscale[0]), f1 = f0, b0 = _mm256_setzero_ps(), b1 = b0;
    if (h->fscale_stride)
      f0 = _mm256_loadu_ps(h->fscale + n0 + j0), f1 = _mm256_loadu_ps(h->fscale + n0 + j0 + 8);
    if (bias) b0 = _mm256_loadu_ps(h->bias + n0 + j0), b1 = _mm256_loadu_ps(h->bias + n0 + j0 + 8);
    for (size_t r = 0; r < mr; r++) {
      const size_t grp = rpg == 1 ? m0 + r : (m0 + r) / rpg;
      const __m256i vz = _mm256_set1_epi32(zp[grp]);
      const __m256 vs = _mm256_set1_ps(sc[grp]);
      const int32_t *a = c32 + r * NR + j0;
      float *o = c + r * cs + j0;
      const __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)a);
      const __m256i a1 = _mm256_loadu_si256((const __m256i *)(const void *)(a + 8));
      _mm256_storeu_ps(o, ho_tile_v_avx2(a0, vz, w0, vs, f0, b0, comb, bias, clamp, lo, hi));
      _mm256_storeu_ps(o + 8, ho_tile_v_avx2(a1, vz, w1, vs, f1, b1, comb, bias, clamp, lo, hi));
    }
  }
}
#endif

void HO_CAT(tfcc_hyb_out_tile_, TFCC_HO_ISA)(const tfcc_q8_hybrid *h, const int32_t *c32, size_t NR,
                                             size_t m0, size_t mr, size_t n0, size_t nc) {
  const ho_f vlo = (ho_f){0} + h->lo, vhi = (ho_f){0} + h->hi;
  /* a linear layer (lo = -inf, hi = +inf): the two selects return v for every v, NaN included
     (v where the compare is false), so they are skipped */
  const bool clamp = !(h->lo == -INFINITY && h->hi == INFINITY);
#if HO_W == 8 && defined(__AVX2__)
  const size_t nc16 = nc & ~(size_t)15;
  if (nc16) {
    if (h->combined) {
      if (h->bias)
        ho_tile16_avx2(h, c32, NR, m0, mr, n0, nc16, true, true, clamp);
      else
        ho_tile16_avx2(h, c32, NR, m0, mr, n0, nc16, true, false, clamp);
    } else {
      if (h->bias)
        ho_tile16_avx2(h, c32, NR, m0, mr, n0, nc16, false, true, clamp);
      else
        ho_tile16_avx2(h, c32, NR, m0, mr, n0, nc16, false, false, clamp);
    }
    if (nc16 == nc) return;
    c32 += nc16, n0 += nc16, nc -= nc16;
  }
#endif
  enum { HO_ROWS = 32 };
  /* rows in groups of up to HO_ROWS, their zero points and scales looked up once */
  for (size_t r0 = 0; r0 < mr; r0 += HO_ROWS) {
    const size_t r1 = mr - r0 < HO_ROWS ? mr : r0 + HO_ROWS;
    uint32_t rzp[HO_ROWS];
    float rs[HO_ROWS];
    for (size_t r = r0; r < r1; r++) {
      const size_t grp = h->rows_per_group == 1 ? m0 + r : (m0 + r) / h->rows_per_group;
      rzp[r - r0] = (uint32_t)h->zp[grp];
      rs[r - r0] = h->scale[grp];
    }
    size_t j0 = 0;
    for (; j0 + HO_W <= nc; j0 += HO_W) {
      ho_u ws;
      memcpy(&ws, h->wsum + n0 + j0, sizeof ws);
      ho_f b = {0};
      if (h->bias) memcpy(&b, h->bias + n0 + j0, sizeof b);
      /* per-channel scales, or the one per-tensor scale in every lane (the same products) */
      ho_f fs = (ho_f){0} + h->fscale[0];
      if (h->fscale_stride) memcpy(&fs, h->fscale + n0 + j0, sizeof fs);
      if (h->combined) {
        if (h->bias)
          HO_TILE_LOOP(t * (s * fs), v = v + b)
        else
          HO_TILE_LOOP(t * (s * fs), (void)0)
      } else {
        if (h->bias)
          HO_TILE_LOOP((t * s) * fs, v = v + b)
        else
          HO_TILE_LOOP((t * s) * fs, (void)0)
      }
    }
    if (j0 < nc)
      for (size_t r = r0; r < r1; r++) HO_CAT(tfcc_hyb_out_row_, TFCC_HO_ISA)
    (h, c32 + r * NR + j0, n0 + j0, nc - j0, rzp[r - r0], rs[r - r0],
     h->c + (m0 + r) * h->c_stride + n0 + j0);
  }
}

/* Smallest and largest of x[0..n) (n >= 1), exact in any order: 4 vectors of HO_W floats,
 * then single vectors, then one vector ending at the last element (elements seen twice change
 * nothing), so that short rows (a 1x1 convolution's pixels) stay in vectors too; the lanes
 * then meet in a halving tree (lane j against lane j + w), in vector halves. */
typedef float ho_v __attribute__((vector_size(HO_W * 4)));
typedef int32_t ho_i __attribute__((vector_size(HO_W * 4)));
typedef float ho_v8 __attribute__((vector_size(32)));
typedef int32_t ho_i8 __attribute__((vector_size(32)));
typedef float ho_v4 __attribute__((vector_size(16)));
typedef int32_t ho_i4 __attribute__((vector_size(16)));
typedef float ho_v2 __attribute__((vector_size(8)));
typedef int32_t ho_i2 __attribute__((vector_size(8)));

static inline void HO_CAT(ho_minmax1_, TFCC_HO_ISA)(ho_v v, ho_v *a, ho_v *b) {
  *a = HO_MIN(v, *a); /* v < a ? v : a */
  *b = HO_MAX(v, *b); /* v > b ? v : b */
}

/* One level of the tree: RA / RB (N lanes) = the lane-wise min of A's halves / max of B's. */
#define HO_HALVE(N, A, B, RA, RB) \
  ho_v##N RA, RB; \
  { \
    ho_v##N l_, u_; \
    memcpy(&l_, &(A), sizeof l_); \
    memcpy(&u_, (const char *)&(A) + sizeof l_, sizeof u_); \
    ho_i##N m_ = u_ < l_; \
    RA = (ho_v##N)((m_ & (ho_i##N)u_) | (~m_ & (ho_i##N)l_)); \
    memcpy(&l_, &(B), sizeof l_); \
    memcpy(&u_, (const char *)&(B) + sizeof l_, sizeof u_); \
    m_ = u_ > l_; \
    RB = (ho_v##N)((m_ & (ho_i##N)u_) | (~m_ & (ho_i##N)l_)); \
  }

static inline void HO_CAT(ho_minmax_part_, TFCC_HO_ISA)(const float *x, size_t n, ho_v *ra,
                                                        ho_v *rb);

static inline __attribute__((always_inline)) void HO_CAT(ho_minmax_,
                                                         TFCC_HO_ISA)(const float *x, size_t n,
                                                                      float *lo, float *hi) {
  if (n < HO_W) {
    float ra = x[0], rb = x[0];
    for (size_t i = 1; i < n; i++) {
      ra = x[i] < ra ? x[i] : ra;
      rb = x[i] > rb ? x[i] : rb;
    }
    *lo = ra;
    *hi = rb;
    return;
  }
  ho_v a0, b0;
  HO_CAT(ho_minmax_part_, TFCC_HO_ISA)(x, n, &a0, &b0);
#if HO_W == 16
  HO_HALVE(8, a0, b0, a8, b8)
  HO_HALVE(4, a8, b8, a4, b4)
#elif HO_W == 8
  HO_HALVE(4, a0, b0, a4, b4)
#else
  const ho_v4 a4 = a0, b4 = b0;
#endif
  HO_HALVE(2, a4, b4, a2, b2)
  *lo = a2[1] < a2[0] ? a2[1] : a2[0];
  *hi = b2[1] > b2[0] ? b2[1] : b2[0];
}

/* The vector part of ho_minmax_ (n >= HO_W): every element met lane by lane into *ra / *rb,
 * which the halving tree then reduces. */
static inline __attribute__((always_inline)) void HO_CAT(ho_minmax_part_,
                                                         TFCC_HO_ISA)(const float *x, size_t n,
                                                                      ho_v *ra, ho_v *rb) {
  ho_v a[4], b[4];
  size_t i = HO_W;
  memcpy(&a[0], x, sizeof a[0]);
  b[0] = a[1] = b[1] = a[2] = b[2] = a[3] = b[3] = a[0];
  for (; i + 4 * HO_W <= n; i += 4 * HO_W)
    for (int k = 0; k < 4; k++) {
      ho_v v;
      memcpy(&v, x + i + (size_t)k * HO_W, sizeof v);
      HO_CAT(ho_minmax1_, TFCC_HO_ISA)(v, &a[k], &b[k]);
    }
  for (; i + HO_W <= n; i += HO_W) {
    ho_v v;
    memcpy(&v, x + i, sizeof v);
    HO_CAT(ho_minmax1_, TFCC_HO_ISA)(v, &a[0], &b[0]);
  }
  if (i < n) {
    ho_v v;
    memcpy(&v, x + n - HO_W, sizeof v);
    HO_CAT(ho_minmax1_, TFCC_HO_ISA)(v, &a[1], &b[1]);
  }
  for (int k = 1; k < 4; k++) HO_CAT(ho_minmax1_, TFCC_HO_ISA)
  (a[k], &a[0], &b[0]), HO_CAT(ho_minmax1_, TFCC_HO_ISA)(b[k], &a[0], &b[0]);
  *ra = a[0];
  *rb = b[0];
}

/* ho_minmax_part_ of a row of HO_W <= n < 5 HO_W, without its merges that change nothing:
 * there the 4-vector loop never runs, so a[2] and a[3] are still the first vector (and a[1]
 * too when no tail vector came), and meeting the first vector again leaves a[0] and b[0] as
 * they are (a[0] only ever moves below it, or is it; NaN first: stays NaN); the tail's merge
 * keeps its order. The same bits as the part. */
static inline __attribute__((always_inline)) void HO_CAT(ho_minmax_short_,
                                                         TFCC_HO_ISA)(const float *x, size_t n,
                                                                      ho_v *ra, ho_v *rb) {
  ho_v a0, b0;
  size_t i = HO_W;
  memcpy(&a0, x, sizeof a0);
  b0 = a0;
  for (; i + HO_W <= n; i += HO_W) {
    ho_v v;
    memcpy(&v, x + i, sizeof v);
    HO_CAT(ho_minmax1_, TFCC_HO_ISA)(v, &a0, &b0);
  }
  if (i < n) {
    ho_v v, a1, b1;
    memcpy(&v, x + n - HO_W, sizeof v);
    memcpy(&a1, x, sizeof a1);
    b1 = a1;
    HO_CAT(ho_minmax1_, TFCC_HO_ISA)(v, &a1, &b1);
    HO_CAT(ho_minmax1_, TFCC_HO_ISA)(a1, &a0, &b0);
    HO_CAT(ho_minmax1_, TFCC_HO_ISA)(b1, &a0, &b0);
  }
  *ra = a0;
  *rb = b0;
}

#if HO_W == 16 && defined(__AVX512F__)
/* The halving tree of 16 rows at once (AVX-512, rows of at least 16): p[r] is row r's vector
 * part, the result lane r its min (MAX 0) or max (MAX 1). Every level is, for every row, the
 * tree's select of the upper half against the lower half (min(u, l) is u < l ? u : l, max(u, l)
 * u > l ? u : l), with the halves of 2, 4, 4 and 4 rows gathered into one vector by shuffles:
 * the same values, bits, NaNs and zero signs as each row's own tree; lane 4 L + j then holds
 * row L + 4 j, put back in order by one permutation. */
static inline __m512 ho_tree16_avx512(const __m512 *p, const int max) {
#define HO_SEL(u, l) (max ? _mm512_max_ps((u), (l)) : _mm512_min_ps((u), (l)))
  __m512 m1[8], m2[4], m3[2];
  for (int k = 0; k < 8; k++) /* 16 -> 8: rows 2k, 2k + 1 */
    m1[k] = HO_SEL(_mm512_shuffle_f32x4(p[2 * k], p[2 * k + 1], 0xEE),
                   _mm512_shuffle_f32x4(p[2 * k], p[2 * k + 1], 0x44));
  for (int k = 0; k < 4; k++) /* 8 -> 4: rows 4k .. 4k + 3, one per 128-bit lane */
    m2[k] = HO_SEL(_mm512_shuffle_f32x4(m1[2 * k], m1[2 * k + 1], 0xDD),
                   _mm512_shuffle_f32x4(m1[2 * k], m1[2 * k + 1], 0x88));
  for (int k = 0; k < 2; k++) { /* 4 -> 2: lane L holds rows 8k + L and 8k + 4 + L */
    const __m512d x = _mm512_castps_pd(m2[2 * k]), y = _mm512_castps_pd(m2[2 * k + 1]);
    m3[k] = HO_SEL(_mm512_castpd_ps(_mm512_unpackhi_pd(x, y)),
                   _mm512_castpd_ps(_mm512_unpacklo_pd(x, y)));
  }
  /* 2 -> 1: lane L element j is row L + 4 j */
  const __m512 r = HO_SEL(_mm512_shuffle_ps(m3[0], m3[1], _MM_SHUFFLE(3, 1, 3, 1)),
                          _mm512_shuffle_ps(m3[0], m3[1], _MM_SHUFFLE(2, 0, 2, 0)));
#undef HO_SEL
  const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  return _mm512_permutexvar_ps(order, r);
}
#endif

#if HO_W == 8 && defined(__AVX2__)
/* The halving tree of 8 rows at once (AVX2, rows of at least 8; hybrid63): p[r] is row r's
 * vector from the min/max part, max 0 for the min tree (lane-wise u < l ? u : l of the upper and
 * lower halves, vminps(u, l)) and 1 for the max tree (u > l ? u : l, vmaxps(u, l)). Each level
 * gathers the halves of 2 rows into one vector (128-bit lane permutes, then in-lane shuffles),
 * so one min or max serves both, each lane making the select its row's own tree makes (the
 * same NaN and zero-sign outcomes); the last permutation puts the 8 results in row order. */
static inline __m256 ho_sel8_avx2(__m256 u, __m256 l, int max) {
  return max ? _mm256_max_ps(u, l) : _mm256_min_ps(u, l);
}

static inline __m256 ho_tree8_avx2(const __m256 *p, const int max) {
  __m256 v[4];
  for (int i = 0; i < 4; i++) /* 8 -> 4: row 2i's in the low 128 bits, row 2i+1's high */
    v[i] = ho_sel8_avx2(_mm256_permute2f128_ps(p[2 * i], p[2 * i + 1], 0x31),
                        _mm256_permute2f128_ps(p[2 * i], p[2 * i + 1], 0x20), max);
  __m256 w[2];
  for (int i = 0; i < 2; i++) /* 4 -> 2: per 128 bits, rows (0, 2) and (1, 3) of the four */
    w[i] = ho_sel8_avx2(_mm256_shuffle_ps(v[2 * i], v[2 * i + 1], _MM_SHUFFLE(3, 2, 3, 2)),
                        _mm256_shuffle_ps(v[2 * i], v[2 * i + 1], _MM_SHUFFLE(1, 0, 1, 0)), max);
  /* 2 -> 1: lanes rows 0, 2, 4, 6 | 1, 3, 5, 7 */
  const __m256 r = ho_sel8_avx2(_mm256_shuffle_ps(w[0], w[1], _MM_SHUFFLE(3, 1, 3, 1)),
                                _mm256_shuffle_ps(w[0], w[1], _MM_SHUFFLE(2, 0, 2, 0)), max);
  return _mm256_permutevar8x32_ps(r, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
#endif

void HO_CAT(tfcc_hyb_minmax_, TFCC_HO_ISA)(const float *x, size_t n, float *lo, float *hi) {
  HO_CAT(ho_minmax_, TFCC_HO_ISA)(x, n, lo, hi);
}

/* Element of the sym / asym quantizers (quantize.h, tfcc_hyb_round_fn): zp + x * inv in float
 * (as TFLite's AsymmetricQuantizeFloats), rounded half away from zero as the truncation plus or
 * minus one where the (exact) remainder is at least one half in magnitude, which is roundf; in
 * GCC / Clang vectors of HO_W lanes. Clamping to +-256 first keeps every value inside int32
 * (NaN goes to -256, where the portable loop's conversion would be undefined). */
typedef int8_t ho_b __attribute__((vector_size(HO_W)));
typedef int16_t ho_h __attribute__((vector_size(2 * HO_W)));

static inline int32_t HO_CAT(ho_round1_, TFCC_HO_ISA)(float v, int32_t zp, int32_t qmin,
                                                      int32_t qmax) {
  v = v + (float)zp;
  v = v > -256.0f ? v : -256.0f;
  v = v < 256.0f ? v : 256.0f;
  int32_t t = (int32_t)v;
  const float f = v - (float)t;
  t += f >= 0.5f ? 1 : f <= -0.5f ? -1 : 0;
  t = t < qmin ? qmin : t;
  return t > qmax ? qmax : t;
}

void HO_CAT(tfcc_hyb_round_, TFCC_HO_ISA)(const float *restrict x, size_t n, float inv, int32_t zp,
                                          int32_t qmin, int32_t qmax, void *restrict q,
                                          bool centered) {
  int8_t *restrict q8 = q;
  int16_t *restrict q16 = q;
  size_t i = 0;
  /* Vectors: the clamp to [qmin, qmax] in float before rounding (rounding is monotone and
   * qmin, qmax are integers of magnitude <= 256, so this is the clamps of the portable loop,
   * NaN going to qmin as there), then round half away from zero as the truncation of
   * v + copysign(0.5 - 2^-25, v): the same integer as roundf for every float of magnitude
   * <= 256 (all of them checked; 0.5 itself would round 0.49999997 up). */
  const ho_v vinv = (ho_v){0} + inv;
  const ho_v qlo = (ho_v){0} + (float)qmin, qhi = (ho_v){0} + (float)qmax;
  const ho_i sign = (ho_i){0} + INT32_MIN, nearly_half = (ho_i){0} + 0x3EFFFFFF;
  const ho_i vzp = (ho_i){0} + zp;
  const ho_v vzpf = (ho_v){0} + (float)zp;
#if HO_W == 16 && defined(__AVX512F__)
  if (!centered && qmin == -128 && qmax == 127) {
    /* int8 over its whole range: the lower clamp is the narrowing store's signed saturation
       (vpmovsdb). The upper clamp is taken as qhi < v ? qhi : v, so a NaN stays NaN, which the
       truncation turns into INT32_MIN and the store into -128 = qmin, as the clamps give it;
       below -128.5 the sum rounds to -129 or less (below -2^31: INT32_MIN), -128 once stored;
       the sign-select of the rounding constant is one ternary-logic instruction. 7 vector
       instructions per 16 values instead of 9, the same bytes. */
    const __m512 vqhi = _mm512_set1_ps(127.0f);
    const __m512i vsign = _mm512_set1_epi32(INT32_MIN), vhalf = _mm512_set1_epi32(0x3EFFFFFF);
    for (; i + HO_W <= n; i += HO_W) {
      __m512 v = _mm512_mul_ps(_mm512_loadu_ps(x + i), (__m512)vinv);
      v = _mm512_add_ps(v, (__m512)vzpf);
      v = _mm512_min_ps(vqhi, v); /* 127 < v ? 127 : v */
      /* (v & sign) | nearly_half: 0xF8 = A | (B & C) */
      const __m512i h = _mm512_ternarylogic_epi32(vhalf, _mm512_castps_si512(v), vsign, 0xF8);
      v = _mm512_add_ps(v, _mm512_castsi512_ps(h));
      _mm_storeu_si128((__m128i *)(q8 + i), _mm512_cvtsepi32_epi8(_mm512_cvttps_epi32(v)));
    }
  }
#endif
  for (; i + HO_W <= n; i += HO_W) {
    ho_v v;
    memcpy(&v, x + i, sizeof v);
    v = v * vinv;
    v = v + vzpf;       /* a separate rounding: no fused multiply-add */
    v = HO_MAX(v, qlo); /* v > qlo ? v : qlo */
    v = HO_MIN(v, qhi); /* v < qhi ? v : qhi */
    v = v + (ho_v)(((ho_i)v & sign) | nearly_half);
    const ho_i t = __builtin_convertvector(v, ho_i); /* truncation */
    if (centered) {
      const ho_h s = __builtin_convertvector(t - vzp, ho_h);
      memcpy(q16 + i, &s, sizeof s);
    } else {
      const ho_b b = __builtin_convertvector(t, ho_b);
      memcpy(q8 + i, &b, sizeof b);
    }
  }
  for (; i < n; i++) {
    const int32_t v = HO_CAT(ho_round1_, TFCC_HO_ISA)(x[i] * inv, zp, qmin, qmax);
    if (centered)
      q16[i] = (int16_t)(v - zp);
    else
      q8[i] = (int8_t)v;
  }
}

/* qd8 quantization of `rows` rows of len floats each (quantize.h, one group per row): the
 * min/max above, tfcc_hyb_qd8_params, then XNNPACK's f32 -> qs8 element (x * inv clamped to
 * [-128 - zp, 127 - zp], rounded with the 1.5 * 2^23 trick, + zp; the QUANTIZE kernels'
 * quantize_xnn) in vectors, the last vector ending at the row's last element (overlapping
 * elements are written twice with the same value), scalar only for rows shorter than a vector.
 * off (0 or 128) is added to every byte and zero point as stored: 128 gives the q8 GEMM's
 * uint8 q + 128 (ops/hybrid.c) in the same pass. */
typedef uint8_t ho_ub __attribute__((vector_size(HO_W)));

static inline uint8_t HO_CAT(ho_qd8_1_, TFCC_HO_ISA)(float x, float inv, float flo, float fhi,
                                                     int32_t zp) {
  float f = x * inv;
  f = f >= flo ? f : flo;
  f = f <= fhi ? f : fhi;
  const float r = (f + 12582912.0f) - 12582912.0f;
  return (uint8_t)((int32_t)r + zp);
}

static inline void HO_CAT(ho_qd8_vec_, TFCC_HO_ISA)(const float *x, uint8_t *q, ho_v vinv,
                                                    ho_v vflo, ho_v vfhi, ho_i vzp) {
  ho_v f;
  memcpy(&f, x, sizeof f);
  f = f * vinv;
  /* f >= lo ? f : lo and f <= hi ? f : hi: an equal lane may take the bound's zero sign,
   * which rounds to the same integer; NaN goes to lo as before */
  f = HO_MAX(f, vflo);
  f = HO_MIN(f, vfhi);
  const ho_i r = (ho_i)HO_CAT(ho_rint_, TFCC_HO_ISA)(f) + vzp;
#if HO_W == 8 && defined(__AVX2__)
  /* the low byte of each lane (the conversion's truncation): one byte shuffle per 128-bit half
     and an unpack, where GCC's generic conversion extracted the 8 lanes one by one (half the
     kernel's time on AVX2 in perf) */
  __m256i v;
  memcpy(&v, &r, sizeof v);
  v = _mm256_shuffle_epi8(
      v, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12,
                          -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
  _mm_storel_epi64((__m128i *)(void *)q,
                   _mm_unpacklo_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
#else
  const ho_ub b = __builtin_convertvector(r, ho_ub);
  memcpy(q, &b, sizeof b);
#endif
}

#if HO_W == 16 && defined(__AVX512BW__) && defined(__AVX512VL__)
/* The same element with the float clamps replaced by saturating narrowing: r =
 * rint(x * inv) in one conversion, then sat8(sat16(sat16(r) + z)), xor 0x80 for off 128.
 * Equal bytes: the bounds -128 - z and 127 - z are integers, so rint(clamp(f)) + z =
 * clamp(rint(f) + z, -128, 127), and the two int16 saturations bind only where the int8 one
 * gives the same bound (z in [-128, 127]); NaN converts to INT32_MIN and lands on -128 as the
 * clamp's lower bound does. Only f >= 2^31 (+inf included) would convert to INT32_MIN where the
 * clamp gives 127: the caller takes this element only for rows whose max(|lo|, |hi|) * inv is
 * at most 2^30 (a NaN hidden from the min/max trees gives NaN, handled above; any other value of
 * the row lies in [lo, hi]). 3 operations on 512-bit sources per 16 values instead of 6 (the
 * add and the narrowing to bytes on 256 bits, the xor on 128). */
static inline void ho_qd8_vec_sat_avx512(const float *x, uint8_t *q, __m512 vinv, __m256i vz,
                                         __m128i vxor) {
  const __m512i r = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_loadu_ps(x), vinv));
  const __m256i w = _mm256_adds_epi16(_mm512_cvtsepi32_epi16(r), vz);
  _mm_storeu_si128((__m128i *)(void *)q, _mm_xor_si128(_mm256_cvtsepi16_epi8(w), vxor));
}
#endif

/* tfcc_hyb_qd8_params (quantize.h) of HO_W groups at once, lane by lane the same operations
 * (one statement each, so the same bits; lrintf of z in [-128, 127] as the 1.5 * 2^23 trick,
 * which also rounds half to even). */
static inline void HO_CAT(ho_qd8_params_, TFCC_HO_ISA)(ho_v lo, ho_v hi, ho_v *inv, ho_i *zp,
                                                       ho_v *scale) {
  const ho_v zero = {0}, one = zero + 1.0f, qmin = zero - 128.0f, qmax = zero + 127.0f;
  const ho_v magic = zero + 12582912.0f;
  ho_i m = lo < zero;
  const ho_v rmin = (ho_v)((m & (ho_i)lo) | (~m & (ho_i)zero));
  m = hi > zero;
  const ho_v rmax = (ho_v)((m & (ho_i)hi) | (~m & (ho_i)zero));
  const ho_v range = rmax - rmin;
  ho_v s = (qmax - qmin) / range;
  m = rmin == rmax;
  s = (ho_v)((m & (ho_i)one) | (~m & (ho_i)s));
  const ho_v dmin = rmin * s, dmax = rmax * s;
  const ho_v emin = qmin + dmin, emax = qmax + dmax;
  const ho_v esum = emin + emax;
  const ho_v zlo = qmin - dmin, zhi = qmax - dmax;
  m = esum > zero;
  ho_v z = (ho_v)((m & (ho_i)zlo) | (~m & (ho_i)zhi));
  m = z > qmin;
  z = (ho_v)((m & (ho_i)z) | (~m & (ho_i)qmin));
  m = z < qmax;
  z = (ho_v)((m & (ho_i)z) | (~m & (ho_i)qmax));
  z = z + magic;
  z = z - magic;
  *inv = s;
  *zp = __builtin_convertvector(z, ho_i);
  *scale = one / s;
}

/* Lane r of v in every lane (its bits: a permutation where the ISA has one). */
static inline ho_v HO_CAT(ho_lane_, TFCC_HO_ISA)(ho_v v, size_t r) {
#if HO_W == 16 && defined(__AVX512F__)
  return (ho_v)_mm512_permutexvar_ps(_mm512_set1_epi32((int)r), (__m512)v);
#elif HO_W == 8 && defined(__AVX2__)
  return (ho_v)_mm256_permutevar8x32_ps((__m256)v, _mm256_set1_epi32((int)r));
#else
  const ho_i b = (ho_i){0} + ((ho_i)v)[r];
  return (ho_v)b;
#endif
}

/* tfcc_hyb_any_nan (quantize.h); on AVX2 (hybrid63) an unordered compare of whole vectors (the
 * last one ending at the row's end) OR-ed and tested once, where the generic loop reduced its
 * vector and ran a scalar tail per row (rows of 16-32 values in MobileNetV2's 1x1 layers). */
static inline bool HO_CAT(ho_any_nan_, TFCC_HO_ISA)(const float *x, size_t n) {
#if HO_W == 8 && defined(__AVX2__)
  if (n >= 8) {
    __m256 m = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      const __m256 v = _mm256_loadu_ps(x + i);
      m = _mm256_or_ps(m, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    }
    if (i < n) {
      const __m256 v = _mm256_loadu_ps(x + n - 8);
      m = _mm256_or_ps(m, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    }
    return _mm256_movemask_ps(m) != 0;
  }
#endif
  return tfcc_hyb_any_nan(x, n);
}

/* Rows go in blocks of up to HO_W (fewer for long rows, so that a block stays in L1 until it
 * is quantized): min/max of each row, the block's parameters in vectors, then each row. */
void HO_CAT(tfcc_hyb_qd8_rows_, TFCC_HO_ISA)(const float *x, size_t len, size_t rows, int8_t *q,
                                             float *scale, int32_t *zp, int32_t off) {
  size_t per_block = 4096 / len;
  per_block = per_block < 1 ? 1 : per_block > HO_W ? HO_W : per_block;
  for (size_t r0 = 0; r0 < rows; r0 += per_block) {
    const size_t nb = rows - r0 < per_block ? rows - r0 : per_block;
    float lo[HO_W] = {0}, hi[HO_W] = {0}, inv[HO_W], sc[HO_W];
    int32_t z[HO_W];
    ho_v vlo, vhi;
#if HO_W == 16 && defined(__AVX512F__)
    if (len >= HO_W) { /* the 16 rows' trees at once (rows past nb: row r0 again, unused) */
      __m512 pa[16], pb[16];
      if (len == HO_W) { /* one vector per row: the part's merges would meet it with itself */
        /* the rows straight from x into both trees (loaded by the trees' first shuffles; a
           copy loop here became two memcpy calls, a third of the time of rows of 16) */
        const float *xb = x + r0 * len;
        for (size_t r = 0; r < 16; r++) pa[r] = _mm512_loadu_ps(xb + (r < nb ? r : 0) * len);
        vlo = (ho_v)ho_tree16_avx512(pa, 0);
        vhi = (ho_v)ho_tree16_avx512(pa, 1);
      } else {
        for (size_t r = 0; r < nb; r++) {
          ho_v a, b;
          if (len < 5 * HO_W)
            HO_CAT(ho_minmax_short_, TFCC_HO_ISA)(x + (r0 + r) * len, len, &a, &b);
          else
            HO_CAT(ho_minmax_part_, TFCC_HO_ISA)(x + (r0 + r) * len, len, &a, &b);
          pa[r] = (__m512)a, pb[r] = (__m512)b;
        }
        for (size_t r = nb; r < 16; r++) pa[r] = pa[0], pb[r] = pb[0];
        vlo = (ho_v)ho_tree16_avx512(pa, 0);
        vhi = (ho_v)ho_tree16_avx512(pb, 1);
      }
    } else
#elif HO_W == 8 && defined(__AVX2__)
    if (len >= HO_W) { /* the 8 rows' trees at once (rows past nb: row r0 again, unused) */
      __m256 pa[8], pb[8];
      for (size_t r = 0; r < nb; r++) {
        ho_v a, b;
        if (len < 5 * HO_W)
          HO_CAT(ho_minmax_short_, TFCC_HO_ISA)(x + (r0 + r) * len, len, &a, &b);
        else
          HO_CAT(ho_minmax_part_, TFCC_HO_ISA)(x + (r0 + r) * len, len, &a, &b);
        pa[r] = (__m256)a, pb[r] = (__m256)b;
      }
      for (size_t r = nb; r < 8; r++) pa[r] = pa[0], pb[r] = pb[0];
      vlo = (ho_v)ho_tree8_avx2(pa, 0);
      vhi = (ho_v)ho_tree8_avx2(pb, 1);
    } else
#endif
    {
      for (size_t r = 0; r < nb; r++)
        HO_CAT(ho_minmax_, TFCC_HO_ISA)(x + (r0 + r) * len, len, &lo[r], &hi[r]);
      memcpy(&vlo, lo, sizeof vlo);
      memcpy(&vhi, hi, sizeof vhi);
    }
    /* the block's parameters stay in vectors: the element's bounds -128 - z and 127 - z
       (integers, so their conversions are exact) for all its rows at once, the scales and
       stored zero points written as vectors, each row's lanes broadcast from them */
    ho_v pinv, psc;
    ho_i pz;
    HO_CAT(ho_qd8_params_, TFCC_HO_ISA)(vlo, vhi, &pinv, &pz, &psc);
    const ho_i pzo = pz + off;
    const ho_v pflo = __builtin_convertvector(((ho_i){0} - 128) - pz, ho_v);
    const ho_v pfhi = __builtin_convertvector(((ho_i){0} + 127) - pz, ho_v);
    if (nb == HO_W) {
      memcpy(scale + r0, &psc, sizeof psc);
      memcpy(zp + r0, &pzo, sizeof pzo);
    } else {
      int32_t zo[HO_W];
      memcpy(sc, &psc, sizeof sc);
      memcpy(zo, &pzo, sizeof zo);
      memcpy(scale + r0, sc, nb * sizeof(float));
      memcpy(zp + r0, zo, nb * sizeof(int32_t));
    }
    for (size_t r = 0; r < nb; r++) /* a row holding a NaN: a NaN scale (quantize.h) */
      if (HO_CAT(ho_any_nan_, TFCC_HO_ISA)(x + (r0 + r) * len, len)) scale[r0 + r] = NAN;
    if (len < HO_W) {
      memcpy(inv, &pinv, sizeof inv);
      memcpy(z, &pz, sizeof z);
      for (size_t r = 0; r < nb; r++) {
        const float *xr = x + (r0 + r) * len;
        uint8_t *qr = (uint8_t *)q + (r0 + r) * len;
        const float flo = (float)(-128 - z[r]), fhi = (float)(127 - z[r]);
        for (size_t i = 0; i < len; i++)
          qr[i] = HO_CAT(ho_qd8_1_, TFCC_HO_ISA)(xr[i], inv[r], flo, fhi, z[r] + off);
      }
      continue;
    }
#if HO_W == 16 && defined(__AVX512BW__) && defined(__AVX512VL__)
    /* rows whose every value's x * inv converts within int32 (see ho_qd8_vec_sat_avx512):
       max(|lo|, |hi|) * inv <= 2^30, false for NaN parameters; off 0 or 128 (an xor) */
    const __m512 amax = _mm512_max_ps(_mm512_abs_ps((__m512)vlo), _mm512_abs_ps((__m512)vhi));
    const __mmask16 sat_ok = off == 0 || off == 128
                                 ? _mm512_cmp_ps_mask(_mm512_mul_ps(amax, (__m512)pinv),
                                                      _mm512_set1_ps(1073741824.0f), _CMP_LE_OQ)
                                 : 0;
    const __m128i vxor = _mm_set1_epi8(off ? (char)0x80 : 0);
#endif
    for (size_t r = 0; r < nb; r++) {
      const float *xr = x + (r0 + r) * len;
      uint8_t *qr = (uint8_t *)q + (r0 + r) * len;
#if HO_W == 16 && defined(__AVX512BW__) && defined(__AVX512VL__)
      if (sat_ok >> r & 1u) {
        const __m512 vinv = (__m512)HO_CAT(ho_lane_, TFCC_HO_ISA)(pinv, r);
        const __m256i vz = _mm256_set1_epi16((short)((ho_i)pz)[r]);
        size_t i = 0;
        for (; i + HO_W <= len; i += HO_W) ho_qd8_vec_sat_avx512(xr + i, qr + i, vinv, vz, vxor);
        if (i < len) ho_qd8_vec_sat_avx512(xr + len - HO_W, qr + len - HO_W, vinv, vz, vxor);
        continue;
      }
#endif
      const ho_v vinv = HO_CAT(ho_lane_, TFCC_HO_ISA)(pinv, r);
      const ho_v vflo = HO_CAT(ho_lane_, TFCC_HO_ISA)(pflo, r);
      const ho_v vfhi = HO_CAT(ho_lane_, TFCC_HO_ISA)(pfhi, r);
      const ho_i vzp = (ho_i)HO_CAT(ho_lane_, TFCC_HO_ISA)((ho_v)pzo, r);
      size_t i = 0;
      for (; i + HO_W <= len; i += HO_W)
        HO_CAT(ho_qd8_vec_, TFCC_HO_ISA)(xr + i, qr + i, vinv, vflo, vfhi, vzp);
      if (i < len)
        HO_CAT(ho_qd8_vec_, TFCC_HO_ISA)(xr + len - HO_W, qr + len - HO_W, vinv, vflo, vfhi, vzp);
    }
  }
}
