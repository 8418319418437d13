/* XNNPACK-order float32 FULLY_CONNECTED, BATCH_MATMUL and GELU (tflite_f32.h) written once over the
 * f32v primitives (kernels/simd/f32v.h); each ISA's tflite_f32-<isa>.c includes its primitives
 * header, defines TFCC_XF_ISA and includes this body (after tflite_f32_body.h).
 *
 * Lanes only run output units (FULLY_CONNECTED), output columns (BATCH_MATMUL) or elements
 * (GELU) side by side: every lane's sum is formed in exactly the scalar order (the same
 * products, rounded one at a time, added in the same sequence), so every width gives the bits
 * of the portable loops in tflite_f32.c / kernels/ref. Products and sums are separate primitives
 * (never fused). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/tflite-f32/tflite_f32.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* separately rounded products and sums, as XNNPACK's wasm SIMD */
#endif

#define XV_FN(name) XF_CAT(XF_CAT(name, _), TFCC_XF_ISA)
/* Vectors side by side in one block (two where a block is narrower than an FC panel). */
#define XV_NV (F32V_N >= TFCC_XNN_FC_PANEL ? 1 : 2)

static inline __attribute__((always_inline)) f32v XV_FN(xv_ld)(const float *p, int32_t n) {
  if (n >= F32V_N) return f32v_ld(p);
  return n > 0 ? f32v_ld_n(p, (size_t)n) : f32v_zero();
}

static inline __attribute__((always_inline)) void XV_FN(xv_st)(float *p, f32v v, int32_t n) {
  if (n >= F32V_N)
    f32v_st(p, v);
  else if (n > 0)
    f32v_st_n(p, v, (size_t)n);
}
#define XV_LD XV_FN(xv_ld)
#define XV_ST XV_FN(xv_st)

/* ---------------------------------------------------------------- FULLY_CONNECTED */

/* Default kernel, mr batch rows at once against XV_NV vectors of a panel (w: the panel at the
 * block's first unit, rows TFCC_XNN_FC_PANEL floats apart): acc = bias, then acc + x[k] * w[k]
 * for k in order. */
static inline __attribute__((always_inline)) void XV_FN(xv_fc_rows)(int mr, const float *x,
                                                                    size_t xs, int32_t K,
                                                                    const float *w, const f32v *bv,
                                                                    f32v vlo, f32v vhi, float *y,
                                                                    size_t ys, int32_t nu) {
  f32v acc[4][XV_NV];
  for (int r = 0; r < mr; r++)
    for (int v = 0; v < XV_NV; v++) acc[r][v] = bv[v];
  for (int32_t k = 0; k < K; k++) {
    const float *wk = w + (size_t)k * TFCC_XNN_FC_PANEL;
    f32v wv[XV_NV];
    for (int v = 0; v < XV_NV; v++) wv[v] = f32v_ld(wk + v * F32V_N);
    for (int r = 0; r < mr; r++) {
      const f32v xv = f32v_set(x[(size_t)r * xs + (size_t)k]);
      for (int v = 0; v < XV_NV; v++) acc[r][v] = f32v_add(acc[r][v], f32v_mul(xv, wv[v]));
    }
  }
  for (int r = 0; r < mr; r++)
    for (int v = 0; v < XV_NV; v++)
      XV_ST(y + (size_t)r * ys + (size_t)v * F32V_N, f32v_clamp(acc[r][v], vlo, vhi),
            nu - v * F32V_N);
}

/* Default kernel, one batch row against ng <= 4 consecutive blocks at once (independent sums,
 * so that the adds' latency overlaps; each lane's sum still bias, then + x[k] * w[k] for k in
 * order: the bits of xv_fc_rows). wp: the packed weights, u0: the first block's first unit. */
static inline __attribute__((always_inline)) void XV_FN(xv_fc_row_blocks)(
    int ng, const float *x, int32_t K, const float *wp, size_t Kz, int32_t u0, const float *bias,
    f32v vlo, f32v vhi, float *y, int32_t ub) {
  enum { BW = XV_NV * F32V_N };
  f32v acc[4][XV_NV];
  const float *w[4];
  for (int g = 0; g < ng; g++) {
    const int32_t u = u0 + g * BW;
    w[g] = wp + (size_t)(u / TFCC_XNN_FC_PANEL) * TFCC_XNN_FC_PANEL * Kz +
           (size_t)(u % TFCC_XNN_FC_PANEL);
    for (int v = 0; v < XV_NV; v++)
      acc[g][v] = bias ? XV_LD(bias + u + v * F32V_N, ub - u - v * F32V_N) : f32v_zero();
  }
  for (int32_t k = 0; k < K; k++) {
    const f32v xv = f32v_set(x[k]);
    for (int g = 0; g < ng; g++)
      for (int v = 0; v < XV_NV; v++)
        acc[g][v] = f32v_add(
            acc[g][v], f32v_mul(xv, f32v_ld(w[g] + (size_t)k * TFCC_XNN_FC_PANEL + v * F32V_N)));
  }
  for (int g = 0; g < ng; g++)
    for (int v = 0; v < XV_NV; v++) {
      const int32_t u = u0 + g * BW + v * F32V_N;
      XV_ST(y + u, f32v_clamp(acc[g][v], vlo, vhi), ub - u);
    }
}

/* nr2 kernel (4x2c4), mr batch rows at once (a k's weights loaded once for all of them): per
 * row four partial sums by k % 4, the bias in the first, (s0 + s2) + (s1 + s3). */
static inline __attribute__((always_inline)) void XV_FN(xv_fc_nr2_rows)(
    int mr, const float *x, size_t xs, int32_t K, const float *w, const f32v *bv, f32v vlo,
    f32v vhi, float *y, size_t ys, int32_t nu) {
  f32v l[4][4][XV_NV]; /* [k % 4][row][vector] */
  for (int r = 0; r < mr; r++)
    for (int v = 0; v < XV_NV; v++) {
      l[0][r][v] = bv[v];
      l[1][r][v] = l[2][r][v] = l[3][r][v] = f32v_zero();
    }
  int32_t k = 0;
  for (; k + 4 <= K; k += 4)
    for (int j = 0; j < 4; j++) {
      const float *wk = w + (size_t)(k + j) * TFCC_XNN_FC_PANEL;
      f32v wv[XV_NV];
      for (int v = 0; v < XV_NV; v++) wv[v] = f32v_ld(wk + v * F32V_N);
      for (int r = 0; r < mr; r++) {
        const f32v xv = f32v_set(x[(size_t)r * xs + (size_t)(k + j)]);
        for (int v = 0; v < XV_NV; v++) l[j][r][v] = f32v_add(l[j][r][v], f32v_mul(xv, wv[v]));
      }
    }
  for (int j = 0; k < K; k++, j++) { /* the last K % 4 into sums 0, 1, 2 */
    const float *wk = w + (size_t)k * TFCC_XNN_FC_PANEL;
    f32v wv[XV_NV];
    for (int v = 0; v < XV_NV; v++) wv[v] = f32v_ld(wk + v * F32V_N);
    for (int r = 0; r < mr; r++) {
      const f32v xv = f32v_set(x[(size_t)r * xs + (size_t)k]);
      for (int v = 0; v < XV_NV; v++) l[j][r][v] = f32v_add(l[j][r][v], f32v_mul(xv, wv[v]));
    }
  }
  for (int r = 0; r < mr; r++)
    for (int v = 0; v < XV_NV; v++) {
      const f32v s02 = f32v_add(l[0][r][v], l[2][r][v]), s13 = f32v_add(l[1][r][v], l[3][r][v]);
      XV_ST(y + (size_t)r * ys + (size_t)v * F32V_N, f32v_clamp(f32v_add(s02, s13), vlo, vhi),
            nu - v * F32V_N);
    }
}

#if F32V_N >= 8
/* The nr2 kernel on a narrow last block (fewer units than a block's lanes, exact10): lanes hold
 * (unit, k % 4) pairs, F32V_N / 4 units a vector, so that four consecutive k of a row are one
 * f32v_ld_x4 and every lane does useful work. Lane (u, j) sums x[k] * w[k][u] for k % 4 == j in
 * k order onto the bias (j 0) or 0, exactly xv_fc_nr2_rows' partial sums l[j]; the last K % 4
 * k read x and w padded with zeros, and adding that +0 leaves a sum of j >= 1 as it was (those
 * start at +0 and are never -0). Then per unit (l0 + l2) + (l1 + l3), clamped as f32v_clamp.
 * wt: the block's weights as [k / 4][nv vectors][unit][k % 4] (xv_fc_nr2_tail_pack). */
#define XV_TU (F32V_N / 4)  /* units a vector */
#define XV_TAIL_NV 4        /* vectors at most: 4 * XV_TU units */
#define XV_TAIL_FLOATS 8192 /* the stack copy of the block's weights, at most */
#define XV_TAIL_MIN_ROWS 8  /* rows below which the copy costs more than it saves */
/* Per row, the old kernel spends 4 * (1 + 2 * XV_NV) vector operations on four k of the block
 * (a broadcast, then a product and a sum a vector, each k), this one 1 + 2 * nv; its scalar
 * reduction costs about 7 a unit. Taken where the saving over K is twice that (AVX-512, 64 -> 36:
 * the 4-unit tail from 28 k; 16 -> 12 (12 units, 16 k): the old kernel). */
#define XV_TAIL_PAYS(K, nv, nu) \
  ((int64_t)(K) / 4 * (4 * (1 + 2 * XV_NV) - 1 - 2 * (nv)) >= 14 * (int64_t)(nu))

static void XV_FN(xv_fc_nr2_tail_pack)(const float *w, int32_t K, int nv, int32_t nu, float *wt) {
  const int32_t K4 = (K + 3) / 4;
  for (int32_t k4 = 0; k4 < K4; k4++)
    for (int v = 0; v < nv; v++)
      for (int ul = 0; ul < XV_TU; ul++)
        for (int j = 0; j < 4; j++) {
          const int32_t k = k4 * 4 + j, u = v * XV_TU + ul;
          *wt++ = k < K && u < nu ? w[(size_t)k * TFCC_XNN_FC_PANEL + (size_t)u] : 0.f;
        }
}

static inline __attribute__((always_inline)) void XV_FN(xv_fc_nr2_tail_rows)(
    int mr, int nv, const float *x, size_t xs, int32_t K, const float *wt, const f32v *bv, float lo,
    float hi, float *y, size_t ys, int32_t nu) {
  f32v acc[4][XV_TAIL_NV];
  for (int r = 0; r < mr; r++)
    for (int v = 0; v < nv; v++) acc[r][v] = bv[v];
  const int32_t K4 = K & ~3;
  for (int32_t k = 0; k < K4; k += 4) {
    const float *wk = wt + (size_t)(k / 4) * (size_t)nv * F32V_N;
    f32v wv[XV_TAIL_NV];
    for (int v = 0; v < nv; v++) wv[v] = f32v_ld(wk + v * F32V_N);
    for (int r = 0; r < mr; r++) {
      const f32v xv = f32v_ld_x4(x + (size_t)r * xs + (size_t)k);
      for (int v = 0; v < nv; v++) acc[r][v] = f32v_add(acc[r][v], f32v_mul(xv, wv[v]));
    }
  }
  if (K4 < K) { /* the last K % 4 k, x padded with zeros (never 0 * inf) */
    const float *wk = wt + (size_t)(K4 / 4) * (size_t)nv * F32V_N;
    f32v wv[XV_TAIL_NV];
    for (int v = 0; v < nv; v++) wv[v] = f32v_ld(wk + v * F32V_N);
    for (int r = 0; r < mr; r++) {
      float xr[4] = {0.f, 0.f, 0.f, 0.f};
      for (int32_t k = K4; k < K; k++) xr[k - K4] = x[(size_t)r * xs + (size_t)k];
      const f32v xv = f32v_ld_x4(xr);
      for (int v = 0; v < nv; v++) acc[r][v] = f32v_add(acc[r][v], f32v_mul(xv, wv[v]));
    }
  }
  for (int r = 0; r < mr; r++)
    for (int v = 0; v < nv; v++) {
      float t[F32V_N];
      f32v_st(t, acc[r][v]);
      for (int ul = 0; ul < XV_TU && v * XV_TU + ul < nu; ul++) {
        const float *l = t + 4 * ul;
        const float s02 = l[0] + l[2], s13 = l[1] + l[3];
        float s = s02 + s13;
        s = lo > s ? lo : s; /* f32v_clamp: NaN passes */
        y[(size_t)r * ys + (size_t)(v * XV_TU + ul)] = hi < s ? hi : s;
      }
    }
}

/* rows [0, batches) of the last block (nu units, nv vectors of wt) */
static inline __attribute__((always_inline)) void XV_FN(xv_fc_nr2_tail)(
    int nv, const float *x, int32_t batches, int32_t K, const float *wt, const float *bias,
    float lo, float hi, float *y, size_t ys, int32_t nu) {
  /* 4 rows a step where the sums fit the registers */
  enum { MR = F32V_N >= 16 ? 4 : 2 };
  const int mr = nv <= 2 ? 4 : MR;
  float bt[XV_TAIL_NV * F32V_N];
  for (int i = 0; i < nv * F32V_N; i++) bt[i] = 0.f;
  for (int32_t u = 0; u < nu; u++) bt[u * 4] = bias ? bias[u] : 0.f; /* lane (u, 0) */
  f32v bv[XV_TAIL_NV];
  for (int v = 0; v < nv; v++) bv[v] = f32v_ld(bt + v * F32V_N);
  const size_t Kz = (size_t)K;
  int32_t b = 0;
  if (mr == 4)
    for (; b + 4 <= batches; b += 4) XV_FN(xv_fc_nr2_tail_rows)
  (4, nv, x + (size_t)b * Kz, Kz, K, wt, bv, lo, hi, y + (size_t)b * ys, ys, nu);
  for (; b + 2 <= batches; b += 2) XV_FN(xv_fc_nr2_tail_rows)
  (2, nv, x + (size_t)b * Kz, Kz, K, wt, bv, lo, hi, y + (size_t)b * ys, ys, nu);
  for (; b < batches; b++) XV_FN(xv_fc_nr2_tail_rows)
  (1, nv, x + (size_t)b * Kz, Kz, K, wt, bv, lo, hi, y + (size_t)b * ys, ys, nu);
}

/* The vectors of a last block of nu units the lane-pair kernel takes at K, else 0. */
static inline int XV_FN(xv_fc_nr2_tail_nv)(int32_t K, int32_t nu) {
  const int nv = (int)((nu + XV_TU - 1) / XV_TU);
  return nu > 0 && nu < XV_NV * F32V_N && nv <= XV_TAIL_NV && K > 0 && XV_TAIL_PAYS(K, nv, nu) ? nv
                                                                                               : 0;
}

/* The last block through the lane-pair kernel where it pays (true: done). wt: its layout
 * packed at init (tfcc_xnn_fc_tail_pack, exact11), or NULL: copied onto the stack here where
 * the rows repay the copy. */
static bool XV_FN(xv_fc_nr2_tail_try)(const float *x, int32_t batches, int32_t K, const float *w,
                                      const float *wt, const float *bias, float lo, float hi,
                                      float *y, size_t ys, int32_t nu) {
  const int nv = XV_FN(xv_fc_nr2_tail_nv)(K, nu);
  if (!nv) return false;
  float buf[XV_TAIL_FLOATS];
  if (!wt) {
    if (batches < XV_TAIL_MIN_ROWS || (size_t)(K + 3) / 4 * (size_t)nv * F32V_N > XV_TAIL_FLOATS)
      return false;
    XV_FN(xv_fc_nr2_tail_pack)(w, K, nv, nu, buf);
    wt = buf;
  }
  switch (nv) {
    case 1: XV_FN(xv_fc_nr2_tail)(1, x, batches, K, wt, bias, lo, hi, y, ys, nu); break;
    case 2: XV_FN(xv_fc_nr2_tail)(2, x, batches, K, wt, bias, lo, hi, y, ys, nu); break;
    case 3: XV_FN(xv_fc_nr2_tail)(3, x, batches, K, wt, bias, lo, hi, y, ys, nu); break;
    default: XV_FN(xv_fc_nr2_tail)(4, x, batches, K, wt, bias, lo, hi, y, ys, nu); break;
  }
  return true;
}
#endif

/* The last block's layout for xv_fc_nr2_tail_try, packed once: its floats, 0 where
 * this variant's kernel does not take it at this shape. */
size_t XV_FN(tfcc_xnn_fc_tail_floats)(int32_t units, int32_t accum) {
#if F32V_N >= 8
  if (units <= 0 || !tfcc_xnn_fc_uses_nr2(units)) return 0;
  const int nv = XV_FN(xv_fc_nr2_tail_nv)(accum, units % (XV_NV * F32V_N));
  return nv ? (size_t)(accum + 3) / 4 * (size_t)nv * F32V_N : 0;
#else
  (void)units, (void)accum;
  return 0;
#endif
}

void XV_FN(tfcc_xnn_fc_tail_pack)(const float *wp, int32_t units, int32_t accum, float *wt) {
#if F32V_N >= 8
  const int32_t nu = units % (XV_NV * F32V_N), u0 = units - nu;
  const int nv = XV_FN(xv_fc_nr2_tail_nv)(accum, nu);
  if (!nv) return;
  const float *w = wp + (size_t)(u0 / TFCC_XNN_FC_PANEL) * TFCC_XNN_FC_PANEL * (size_t)accum +
                   (size_t)(u0 % TFCC_XNN_FC_PANEL);
  XV_FN(xv_fc_nr2_tail_pack)(w, accum, nv, nu, wt);
#else
  (void)wp, (void)units, (void)accum, (void)wt;
#endif
}
#ifdef XV_TU
#undef XV_TU
#endif

void XV_FN(tfcc_xnn_fc_f32)(const float *x, int32_t batches, int32_t accum, const float *wp,
                            const float *wt, const float *bias, int32_t units, float lo, float hi,
                            float *out, int32_t ua, int32_t ub) {
#if F32V_N < 8
  (void)wt;
#endif
  const bool nr2 = tfcc_xnn_fc_uses_nr2(units); /* the layer's width picks the kernel */
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi);
  const size_t K = accum > 0 ? (size_t)accum : 0, U = (size_t)units;
  if (ub > units) ub = units;
  if (!nr2 && batches == 1) { /* one row (the recurrent steps): 4 blocks side by side */
    const int32_t bw = XV_NV * F32V_N;
    int32_t u0 = ua;
    for (; u0 + 3 * bw < ub; u0 += 4 * bw)
      XV_FN(xv_fc_row_blocks)(4, x, accum, wp, K, u0, bias, vlo, vhi, out, ub);
    if (u0 < ub) {
      const int ng = (int)((ub - u0 + bw - 1) / bw);
      switch (ng) {
        case 3: XV_FN(xv_fc_row_blocks)(3, x, accum, wp, K, u0, bias, vlo, vhi, out, ub); break;
        case 2: XV_FN(xv_fc_row_blocks)(2, x, accum, wp, K, u0, bias, vlo, vhi, out, ub); break;
        default: XV_FN(xv_fc_row_blocks)(1, x, accum, wp, K, u0, bias, vlo, vhi, out, ub); break;
      }
    }
    return;
  }
  /* ua is a multiple of the panel, hence of every block width: no block straddles ub */
  for (int32_t u0 = ua; u0 < ub; u0 += XV_NV * F32V_N) {
    const int32_t nu = ub - u0; /* units left from u0 (stores stop at the block's width) */
    /* the panel holding u0, at u0's column */
    const float *w = wp + (size_t)(u0 / TFCC_XNN_FC_PANEL) * TFCC_XNN_FC_PANEL * K +
                     (size_t)(u0 % TFCC_XNN_FC_PANEL);
    f32v bv[XV_NV];
    for (int v = 0; v < XV_NV; v++)
      bv[v] = bias ? XV_LD(bias + u0 + v * F32V_N, nu - v * F32V_N) : f32v_zero();
    int32_t b = 0;
    if (nr2) {
#if F32V_N >= 8
      if (nu < XV_NV * F32V_N &&
          XV_FN(xv_fc_nr2_tail_try)(x, batches, accum, w, wt, bias ? bias + u0 : NULL, lo, hi,
                                    out + u0, U, nu))
        continue;
#endif
      /* 4 rows a step (2 where a block is two vectors: 16 sums either way) */
      enum { NR2_MR = XV_NV == 1 ? 4 : 2 };
      for (; b + NR2_MR <= batches; b += NR2_MR) XV_FN(xv_fc_nr2_rows)
      (NR2_MR, x + (size_t)b * K, K, accum, w, bv, vlo, vhi, out + (size_t)b * U + u0, U, nu);
      for (; b < batches; b++) XV_FN(xv_fc_nr2_rows)
      (1, x + (size_t)b * K, K, accum, w, bv, vlo, vhi, out + (size_t)b * U + u0, U, nu);
      continue;
    }
    for (; b + 4 <= batches; b += 4) XV_FN(xv_fc_rows)
    (4, x + (size_t)b * K, K, accum, w, bv, vlo, vhi, out + (size_t)b * U + u0, U, nu);
    switch (batches - b) {
      case 3:
        XV_FN(xv_fc_rows)
        (3, x + (size_t)b * K, K, accum, w, bv, vlo, vhi, out + (size_t)b * U + u0, U, nu);
        break;
      case 2:
        XV_FN(xv_fc_rows)
        (2, x + (size_t)b * K, K, accum, w, bv, vlo, vhi, out + (size_t)b * U + u0, U, nu);
        break;
      case 1:
        XV_FN(xv_fc_rows)
        (1, x + (size_t)b * K, K, accum, w, bv, vlo, vhi, out + (size_t)b * U + u0, U, nu);
        break;
      default: break;
    }
  }
}

/* One batch row on fc_row_pack's blocks of XV_ROW units (tflite_f32.h): the block's 4 x XV_NV
 * vectors side by side, each sum bias (or 0), then + x[k] * w[k] for k in order (the bits of
 * xv_fc_row_blocks), the block's weights for one k contiguous. The one-lane build keeps fc's
 * panels and its one-row path (which reads 8 neighbouring units of one panel row a k already;
 * on [k][8] blocks GCC vectorises the loop over k with transposes instead: 25% slower). */
#if F32V_N == 1
float *XV_FN(tfcc_xnn_fc_row_pack)(const float *w, int32_t units, int32_t accum) {
  return tfcc_xnn_fc_pack(w, units, accum);
}
int32_t XV_FN(tfcc_xnn_fc_row_block)(void) { return TFCC_XNN_FC_PANEL; }

void XV_FN(tfcc_xnn_fc_row_f32)(const float *x, int32_t accum, const float *wp, const float *bias,
                                int32_t units, float lo, float hi, float *out) {
  XV_FN(tfcc_xnn_fc_f32)(x, 1, accum, wp, NULL, bias, units, lo, hi, out, 0, units);
}
#else
#define XV_ROW (4 * XV_NV * F32V_N)
float *XV_FN(tfcc_xnn_fc_row_pack)(const float *w, int32_t units, int32_t accum) {
  return tfcc_xnn_fc_pack_blocks(w, units, accum, XV_ROW);
}
int32_t XV_FN(tfcc_xnn_fc_row_block)(void) { return XV_ROW; }

/* nv of the block's vectors (the last block: only those holding units) */
static inline __attribute__((always_inline)) void XV_FN(xv_fc_row_block)(
    int nv, const float *x, size_t K, const float *w, const float *bias, int32_t units, int32_t u0,
    f32v vlo, f32v vhi, float *out) {
  f32v acc[4 * XV_NV];
  for (int v = 0; v < nv; v++)
    acc[v] = bias ? XV_LD(bias + u0 + v * F32V_N, units - u0 - v * F32V_N) : f32v_zero();
  for (size_t k = 0; k < K; k++) {
    const f32v xv = f32v_set(x[k]);
    const float *wk = w + k * XV_ROW;
    for (int v = 0; v < nv; v++) acc[v] = f32v_add(acc[v], f32v_mul(xv, f32v_ld(wk + v * F32V_N)));
  }
  for (int v = 0; v < nv; v++)
    XV_ST(out + u0 + v * F32V_N, f32v_clamp(acc[v], vlo, vhi), units - u0 - v * F32V_N);
}

void XV_FN(tfcc_xnn_fc_row_f32)(const float *x, int32_t accum, const float *wp, const float *bias,
                                int32_t units, float lo, float hi, float *out) {
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi);
  const size_t K = accum > 0 ? (size_t)accum : 0;
  int32_t u0 = 0;
  for (; u0 + XV_ROW <= units; u0 += XV_ROW) /* block u0 / XV_ROW at wp + u0 * K */
    XV_FN(xv_fc_row_block)(4 * XV_NV, x, K, wp + (size_t)u0 * K, bias, units, u0, vlo, vhi, out);
  if (u0 < units) {
    const float *w = wp + (size_t)u0 * K;
    switch ((units - u0 + XV_NV * F32V_N - 1) / (XV_NV * F32V_N)) { /* FC blocks holding units */
      case 4: XV_FN(xv_fc_row_block)(4 * XV_NV, x, K, w, bias, units, u0, vlo, vhi, out); break;
      case 3: XV_FN(xv_fc_row_block)(3 * XV_NV, x, K, w, bias, units, u0, vlo, vhi, out); break;
      case 2: XV_FN(xv_fc_row_block)(2 * XV_NV, x, K, w, bias, units, u0, vlo, vhi, out); break;
      default: XV_FN(xv_fc_row_block)(XV_NV, x, K, w, bias, units, u0, vlo, vhi, out); break;
    }
  }
}
#undef XV_ROW
#endif

/* ---------------------------------------------------------------- BATCH_MATMUL */

/* mr rows of lhs (a: row i's element p at a[i * as + p * ap]) against XV_NV vectors of rhs
 * columns (r: row p at r + p * rs), every output 0 + a * r for p in order. */
static inline __attribute__((always_inline)) void XV_FN(xv_bmm_rows)(int mr, const float *a,
                                                                     size_t as, size_t ap,
                                                                     const float *r, size_t rs,
                                                                     int32_t K, float *y, size_t ys,
                                                                     int32_t nc) {
  f32v acc[4][XV_NV];
  for (int i = 0; i < mr; i++)
    for (int v = 0; v < XV_NV; v++) acc[i][v] = f32v_zero();
  for (int32_t p = 0; p < K; p++) {
    const float *rp = r + (size_t)p * rs;
    f32v rv[XV_NV];
    for (int v = 0; v < XV_NV; v++) rv[v] = XV_LD(rp + v * F32V_N, nc - v * F32V_N);
    for (int i = 0; i < mr; i++) {
      const f32v av = f32v_set(a[(size_t)i * as + (size_t)p * ap]);
      for (int v = 0; v < XV_NV; v++) acc[i][v] = f32v_add(acc[i][v], f32v_mul(av, rv[v]));
    }
  }
  for (int i = 0; i < mr; i++)
    for (int v = 0; v < XV_NV; v++)
      XV_ST(y + (size_t)i * ys + (size_t)v * F32V_N, acc[i][v], nc - v * F32V_N);
}

void XV_FN(tfcc_xnn_bmm_f32)(const float *a, size_t as, size_t ap, const float *r, size_t rs,
                             int32_t M, int32_t K, int32_t N, float *y, size_t ys) {
  for (int32_t j0 = 0; j0 < N; j0 += XV_NV * F32V_N) {
    const int32_t nc = N - j0;
    int32_t i = 0;
    for (; i + 4 <= M; i += 4) XV_FN(xv_bmm_rows)
    (4, a + (size_t)i * as, as, ap, r + j0, rs, K, y + (size_t)i * ys + j0, ys, nc);
    switch (M - i) {
      case 3:
        XV_FN(xv_bmm_rows)
        (3, a + (size_t)i * as, as, ap, r + j0, rs, K, y + (size_t)i * ys + j0, ys, nc);
        break;
      case 2:
        XV_FN(xv_bmm_rows)
        (2, a + (size_t)i * as, as, ap, r + j0, rs, K, y + (size_t)i * ys + j0, ys, nc);
        break;
      case 1:
        XV_FN(xv_bmm_rows)
        (1, a + (size_t)i * as, as, ap, r + j0, rs, K, y + (size_t)i * ys + j0, ys, nc);
        break;
      default: break;
    }
  }
}

/* ---------------------------------------------------------------- Eigen's GEBP */

/* mr rows (a: row i at a + i * as) by XV_NV vectors of r's columns (row p at r + p * N, nc
 * columns left): eigen_row's sums (eigen_f32.c) lane by lane. Per panel of kc k: c, and with
 * gebp e, over the part peeled by 8: c + a[p] * r[p], e + a[p + 1] * r[p + 1] a pair at a time,
 * then c + e, then c + a[p] * r[p] for the panel's last k in order; the panels' sums added onto
 * 0 in turn (held in y between panels); then + bias[j] (bias NULL: none), clamped. */
static inline __attribute__((always_inline)) void XV_FN(xv_eigen_rows)(
    int mr, const float *a, size_t as, const float *r, size_t N, int32_t K, int32_t kc, int gebp,
    const f32v *bv, f32v vlo, f32v vhi, float *y, int32_t nc) {
  int32_t k0 = 0;
  do {
    const int32_t k1 = K - k0 < kc ? K : k0 + kc;
    const int32_t peel = gebp ? k0 + ((k1 - k0) & ~7) : k0;
    f32v c[4][XV_NV], e[4][XV_NV];
    for (int i = 0; i < mr; i++)
      for (int v = 0; v < XV_NV; v++) c[i][v] = e[i][v] = f32v_zero();
    int32_t p = k0;
    for (; p < peel; p += 2) {
      const float *r0 = r + (size_t)p * N, *r1 = r0 + N;
      f32v w0[XV_NV], w1[XV_NV];
      for (int v = 0; v < XV_NV; v++) {
        w0[v] = XV_LD(r0 + v * F32V_N, nc - v * F32V_N);
        w1[v] = XV_LD(r1 + v * F32V_N, nc - v * F32V_N);
      }
      for (int i = 0; i < mr; i++) {
        const f32v a0 = f32v_set(a[(size_t)i * as + (size_t)p]);
        const f32v a1 = f32v_set(a[(size_t)i * as + (size_t)p + 1]);
        for (int v = 0; v < XV_NV; v++) {
          c[i][v] = f32v_add(c[i][v], f32v_mul(a0, w0[v]));
          e[i][v] = f32v_add(e[i][v], f32v_mul(a1, w1[v]));
        }
      }
    }
    if (gebp)
      for (int i = 0; i < mr; i++)
        for (int v = 0; v < XV_NV; v++) c[i][v] = f32v_add(c[i][v], e[i][v]);
    for (; p < k1; p++) {
      const float *r0 = r + (size_t)p * N;
      f32v w0[XV_NV];
      for (int v = 0; v < XV_NV; v++) w0[v] = XV_LD(r0 + v * F32V_N, nc - v * F32V_N);
      for (int i = 0; i < mr; i++) {
        const f32v a0 = f32v_set(a[(size_t)i * as + (size_t)p]);
        for (int v = 0; v < XV_NV; v++) c[i][v] = f32v_add(c[i][v], f32v_mul(a0, w0[v]));
      }
    }
    for (int i = 0; i < mr; i++)
      for (int v = 0; v < XV_NV; v++) {
        float *yv = y + (size_t)i * N + v * F32V_N;
        f32v t = f32v_add(k0 == 0 ? f32v_zero() : XV_LD(yv, nc - v * F32V_N), c[i][v]);
        if (k1 >= K) t = f32v_clamp(bv ? f32v_add(t, bv[v]) : t, vlo, vhi);
        XV_ST(yv, t, nc - v * F32V_N);
      }
    k0 = k1;
  } while (k0 < K);
}

void XV_FN(tfcc_eigen_gemm_f32)(const float *a, size_t as, const float *r, int32_t M, int32_t K,
                                int32_t N, int32_t kc, int32_t m4, const float *bias, float lo,
                                float hi, float *y) {
  const size_t Nz = N > 0 ? (size_t)N : 0;
  const f32v vlo = f32v_set(lo), vhi = f32v_set(hi);
  if (kc < 1) kc = 1;
  for (int32_t j0 = 0; j0 < N; j0 += XV_NV * F32V_N) {
    const int32_t nc = N - j0;
    f32v bv[XV_NV];
    for (int v = 0; v < XV_NV; v++)
      bv[v] = bias ? XV_LD(bias + j0 + v * F32V_N, nc - v * F32V_N) : f32v_zero();
    const f32v *b = bias ? bv : NULL;
    int32_t i = 0;
    for (; i + 4 <= M; i += 4) /* a group of 4 rows is all below m4 or all above */
      XV_FN(xv_eigen_rows)
    (4, a + (size_t)i * as, as, r + j0, Nz, K, kc, i < m4, b, vlo, vhi,
     y + (size_t)i * Nz + (size_t)j0, nc);
    for (; i < M; i++) XV_FN(xv_eigen_rows)
    (1, a + (size_t)i * as, as, r + j0, Nz, K, kc, i < m4, b, vlo, vhi,
     y + (size_t)i * Nz + (size_t)j0, nc);
  }
}

/* ---------------------------------------------------------------- GELU */

static inline __attribute__((always_inline)) f32v XV_FN(xv_gelu)(f32v x_orig,
                                                                 const tfcc_gelu_rational *c) {
  const f32v m = f32v_set(c->max_abs);
  /* max_abs < x ? max_abs : x, then -max_abs > x ? -max_abs : x (NaN passes) */
  const f32v x = f32v_max(f32v_set(-c->max_abs), f32v_min(m, x_orig));
  const f32v x2 = f32v_mul(x, x);
  f32v p = f32v_set(c->alpha[5]);
  for (int i = 4; i >= 0; i--) p = f32v_add(f32v_mul(x2, p), f32v_set(c->alpha[i]));
  p = f32v_mul(x, p);
  f32v q = f32v_set(c->beta[4]);
  for (int i = 3; i >= 0; i--) q = f32v_add(f32v_mul(x2, q), f32v_set(c->beta[i]));
  q = f32v_add(f32v_mul(x2, q), f32v_set(1.0f));
  const f32v e = f32v_div(p, q);
  const f32v h = f32v_mul(x_orig, f32v_set(0.5f));
  return f32v_mul(h, f32v_add(e, f32v_set(1.0f)));
}

void XV_FN(tfcc_xnn_gelu_f32)(const float *x, float *y, size_t n, const tfcc_gelu_rational *c) {
  size_t i = 0;
  for (; i + F32V_N <= n; i += F32V_N) f32v_st(y + i, XV_FN(xv_gelu)(f32v_ld(x + i), c));
  if (i < n) XV_ST(y + i, XV_FN(xv_gelu)(XV_LD(x + i, (int32_t)(n - i)), c), (int32_t)(n - i));
}

/* ---------------------------------------------------------------- TANH */

/* XNNPACK's f32-vtanh rational_9_8_div without FMA (tfcc_tanh_f32_xnn's steps, in the same
 * order: the same bits). */
static inline __attribute__((always_inline)) f32v XV_FN(xv_tanh)(f32v x_orig) {
  const f32v m = f32v_set(7.8522667885e+00f);
  /* max < x ? max : x, then -max > x ? -max : x (NaN passes) */
  const f32v x = f32v_max(f32v_set(-7.8522667885e+00f), f32v_min(m, x_orig));
  const f32v x2 = f32v_mul(x, x);
  f32v p = f32v_add(f32v_mul(x2, f32v_set(1.4248920266e-08f)), f32v_set(2.1235626264e-05f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(3.5330520477e-03f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(1.3412411511e-01f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(1.0f));
  p = f32v_mul(x, p);
  f32v q = f32v_add(f32v_mul(x2, f32v_set(8.1365948290e-07f)), f32v_set(3.3472978976e-04f));
  q = f32v_add(f32v_mul(x2, q), f32v_set(2.6018999517e-02f));
  q = f32v_add(f32v_mul(x2, q), f32v_set(4.6745735407e-01f));
  q = f32v_add(f32v_mul(x2, q), f32v_set(1.0f));
  return f32v_div(p, q);
}

void XV_FN(tfcc_xnn_tanh_f32)(const float *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + F32V_N <= n; i += F32V_N) f32v_st(y + i, XV_FN(xv_tanh)(f32v_ld(x + i)));
  if (i < n) XV_ST(y + i, XV_FN(xv_tanh)(XV_LD(x + i, (int32_t)(n - i))), (int32_t)(n - i));
}

/* Eigen's fast rational tanh (tfcc_tanh_f32_eigen's steps, kernels/ref/activation.c, in the same
 * order: the same bits): x where |x| < 0.0004, else x clamped to +-7.90531110763549805 (NaN
 * passes), odd numerator to x^13, even denominator to x^6, p / q. */
static inline __attribute__((always_inline)) f32v XV_FN(xv_tanh_eigen)(f32v x_orig) {
  const f32v m = f32v_set(7.90531110763549805f);
  const f32v x = f32v_max(f32v_set(-7.90531110763549805f), f32v_min(m, x_orig));
  const f32v x2 = f32v_mul(x, x);
  f32v p =
      f32v_add(f32v_mul(x2, f32v_set(-2.76076847742355e-16f)), f32v_set(2.00018790482477e-13f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(-8.60467152213735e-11f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(5.12229709037114e-08f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(1.48572235717979e-05f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(6.37261928875436e-04f));
  p = f32v_add(f32v_mul(x2, p), f32v_set(4.89352455891786e-03f));
  p = f32v_mul(x, p);
  f32v q = f32v_add(f32v_mul(x2, f32v_set(1.19825839466702e-06f)), f32v_set(1.18534705686654e-04f));
  q = f32v_add(f32v_mul(x2, q), f32v_set(2.26843463243900e-03f));
  q = f32v_add(f32v_mul(x2, q), f32v_set(4.89352518554385e-03f));
  const f32m tiny = f32v_lt(f32v_abs(x_orig), f32v_set(0.0004f));
  return f32v_sel(tiny, x_orig, f32v_div(p, q));
}

void XV_FN(tfcc_tanh_eigen_f32)(const float *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + F32V_N <= n; i += F32V_N) f32v_st(y + i, XV_FN(xv_tanh_eigen)(f32v_ld(x + i)));
  if (i < n) XV_ST(y + i, XV_FN(xv_tanh_eigen)(XV_LD(x + i, (int32_t)(n - i))), (int32_t)(n - i));
}
