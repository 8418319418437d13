/* Eigen-order float32 FULLY_CONNECTED (fc_eigen.h) written once over the f32v primitives
 * (kernels/simd/f32v.h); each ISA's file includes its primitives header, defines
 * TFCC_FC_EIGEN_FN and includes this body.
 *
 * The units are taken F32V_N at a time (a panel): the panel's weights are transposed into the
 * scratch ([k][F32V_N], zero past the last unit), then every batch reads them, each lane one
 * unit. Lane u's sum is the reference's (tfcc_fc_f32_eigen) operation for operation: a product
 * x[k] * w[u][k] rounded, then added to the running sum, in the same order and the same
 * grouping; only the units run side by side. Four batches of a group run together (eight
 * independent sums, even and odd k of each); the batches past the last group run together, in
 * order, one sum each. Products and sums are separate primitives (never fused). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/hybrid/fc_eigen.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* separately rounded products and sums, as the reference */
#endif

#define FE_CAT2(a, b) a##b
#define FE_CAT(a, b) FE_CAT2(a, b)
#define FE_BLOCK FE_CAT(TFCC_FC_EIGEN_FN, _block)
#define FE_ROWS FE_CAT(TFCC_FC_EIGEN_FN, _rows)
#define FE_GEMV_COLS FE_CAT(TFCC_FC_EIGEN_FN, _gemv_cols)
/* columns of one batch's GEMV side by side: enough independent sums to hide the add's latency
   (a one-lane build has no lanes to spread over) */
#define FE_GEMV_MAXC (F32V_N == 1 ? 8 : 4)

/* The partial sums of nb batches (x: the first batch's row at the block's first k, rows xs
 * apart) over one depth block of len, wp: the panel at the block's first k. group: the
 * even / odd split of a 4-batch group over len rounded down to 8. */
static inline __attribute__((always_inline)) void FE_BLOCK(int nb, bool group, const float *x,
                                                           size_t xs, const float *wp, size_t ws,
                                                           int32_t len, f32v *part) {
  f32v s0[4], s1[4];
  for (int b = 0; b < nb; b++) s0[b] = s1[b] = f32v_zero();
  int32_t k = 0;
  if (group) {
    const int32_t kp = len & ~7;
    for (; k < kp; k += 2) {
      const f32v w0 = f32v_ld(wp + (size_t)k * ws);
      const f32v w1 = f32v_ld(wp + (size_t)(k + 1) * ws);
      for (int b = 0; b < nb; b++) {
        const float *xb = x + (size_t)b * xs;
        const f32v p0 = f32v_mul(f32v_set(xb[k]), w0);
        const f32v p1 = f32v_mul(f32v_set(xb[k + 1]), w1);
        s0[b] = f32v_add(s0[b], p0);
        s1[b] = f32v_add(s1[b], p1);
      }
    }
    for (int b = 0; b < nb; b++) s0[b] = f32v_add(s0[b], s1[b]);
  }
  for (; k < len; k++) {
    const f32v wv = f32v_ld(wp + (size_t)k * ws);
    for (int b = 0; b < nb; b++) {
      const f32v p = f32v_mul(f32v_set(x[(size_t)b * xs + (size_t)k]), wv);
      s0[b] = f32v_add(s0[b], p);
    }
  }
  for (int b = 0; b < nb; b++) part[b] = s0[b];
}

/* nb batches from row b0 against the panel of nu units from u0: the depth blocks joined left
 * to right, + bias, clamp, stored. */
static inline __attribute__((always_inline)) void FE_ROWS(int nb, bool group, const tfcc_fc_dims *d,
                                                          const float *in, const float *wp,
                                                          size_t ws, int32_t kc, f32v bv, f32v vlo,
                                                          f32v vhi, int32_t b0, int32_t u0,
                                                          int32_t nu, float *out) {
  const size_t K = (size_t)d->accum, U = (size_t)d->units;
  f32v tot[4], part[4];
  const float *x = in + (size_t)b0 * K;
  FE_BLOCK(nb, group, x, K, wp, ws, d->accum < kc ? d->accum : kc, tot);
  for (int32_t k0 = kc; k0 < d->accum; k0 += kc) { /* later depth blocks, left to right */
    const int32_t k1 = d->accum - k0 < kc ? d->accum : k0 + kc;
    FE_BLOCK(nb, group, x + k0, K, wp + (size_t)k0 * ws, ws, k1 - k0, part);
    for (int b = 0; b < nb; b++) tot[b] = f32v_add(tot[b], part[b]);
  }
  for (int b = 0; b < nb; b++) {
    /* the reference's acc + (bias or 0), then v < lo ? lo : v, v > hi ? hi : v */
    const f32v v = f32v_clamp(f32v_add(tot[b], bv), vlo, vhi);
    float *o = out + (size_t)(b0 + b) * U + (size_t)u0;
    if (nu == F32V_N)
      f32v_st(o, v);
    else
      f32v_st_n(o, v, (size_t)nu);
  }
}

/* one batch in the GEMV order on the packed panels: nc columns of F32V_N units from u0
 * side by side (nc independent sums, each lane one unit's sum over the whole depth in order from
 * 0, one product then one add a k), + bias, clamp, stored. A column lies inside one packed
 * panel (F32V_N divides TFCC_FC_EIGEN_MAX_LANES), zero past the last unit. */
static inline __attribute__((always_inline)) void FE_GEMV_COLS(int nc, const float *x, int32_t K,
                                                               const float *wp, const float *bias,
                                                               f32v vlo, f32v vhi, int32_t u0,
                                                               int32_t U, float *out) {
  const float *pw[8];
  f32v acc[8];
  for (int c = 0; c < nc; c++) {
    const int32_t u = u0 + c * F32V_N;
    pw[c] = wp + (size_t)(u / TFCC_FC_EIGEN_MAX_LANES) * TFCC_FC_EIGEN_MAX_LANES * (size_t)K +
            (size_t)(u % TFCC_FC_EIGEN_MAX_LANES);
    acc[c] = f32v_zero();
  }
  for (int32_t k = 0; k < K; k++) {
    const f32v xv = f32v_set(x[k]);
    for (int c = 0; c < nc; c++) {
      const f32v p = f32v_mul(xv, f32v_ld(pw[c] + (size_t)k * TFCC_FC_EIGEN_MAX_LANES));
      acc[c] = f32v_add(acc[c], p);
    }
  }
  for (int c = 0; c < nc; c++) {
    const int32_t u = u0 + c * F32V_N, nu = U - u < F32V_N ? U - u : F32V_N;
    f32v bv = f32v_zero();
    if (bias) bv = nu == F32V_N ? f32v_ld(bias + u) : f32v_ld_n(bias + u, (size_t)nu);
    const f32v v = f32v_clamp(f32v_add(acc[c], bv), vlo, vhi);
    if (nu == F32V_N)
      f32v_st(out + u, v);
    else
      f32v_st_n(out + u, v, (size_t)nu);
  }
}

TFCC_FC_EIGEN_DECL(TFCC_FC_EIGEN_FN) {
  const int32_t K = d->accum, U = u_end < d->units ? u_end : d->units, B = d->batches;
  if (B <= 0 || u_begin >= U) return;
  if (K <= 0) { /* an empty sum: the bias, clamped */
    for (int32_t b = 0; b < B; b++)
      for (int32_t u = u_begin; u < U; u++) {
        float v = 0.0f + (bias ? bias[u] : 0.0f); /* the reference's total + bias */
        v = v < act_min ? act_min : v;
        out[(size_t)b * (size_t)d->units + (size_t)u] = v > act_max ? act_max : v;
      }
    return;
  }
  /* GEMV order: one depth block of K, every batch outside the 4-batch groups */
  const int32_t kc = gemv ? K : tfcc_fc_eigen_kc(K), groups = gemv ? 0 : B - B % 4;
  if (u_begin % TFCC_FC_EIGEN_MAX_LANES) wp = NULL; /* a panel's lanes straddle two packed ones */
  const f32v vlo = f32v_set(act_min), vhi = f32v_set(act_max);
  if (gemv && B == 1 && wp) { /* several columns at once: independent sums */
    for (int32_t u0 = u_begin; u0 < U; u0 += FE_GEMV_MAXC * F32V_N) {
      const int32_t left = (U - u0 + F32V_N - 1) / F32V_N;
      switch (left < FE_GEMV_MAXC ? left : FE_GEMV_MAXC) {
        case 8: FE_GEMV_COLS(8, in, K, wp, bias, vlo, vhi, u0, U, out); break;
        case 7: FE_GEMV_COLS(7, in, K, wp, bias, vlo, vhi, u0, U, out); break;
        case 6: FE_GEMV_COLS(6, in, K, wp, bias, vlo, vhi, u0, U, out); break;
        case 5: FE_GEMV_COLS(5, in, K, wp, bias, vlo, vhi, u0, U, out); break;
        case 4: FE_GEMV_COLS(4, in, K, wp, bias, vlo, vhi, u0, U, out); break;
        case 3: FE_GEMV_COLS(3, in, K, wp, bias, vlo, vhi, u0, U, out); break;
        case 2: FE_GEMV_COLS(2, in, K, wp, bias, vlo, vhi, u0, U, out); break;
        default: FE_GEMV_COLS(1, in, K, wp, bias, vlo, vhi, u0, U, out); break;
      }
    }
    return;
  }
  for (int32_t u0 = u_begin; u0 < U; u0 += F32V_N) {
    const int32_t nu = U - u0 < F32V_N ? U - u0 : F32V_N;
    const float *pw = scratch; /* the panel as [k][lanes], ws floats a k */
    size_t ws = F32V_N;
    if (wp) { /* packed once: u0 % 16 + F32V_N <= 16 (F32V_N divides 16) */
      pw = wp + (size_t)(u0 / TFCC_FC_EIGEN_MAX_LANES) * TFCC_FC_EIGEN_MAX_LANES * (size_t)K +
           (size_t)(u0 % TFCC_FC_EIGEN_MAX_LANES);
      ws = TFCC_FC_EIGEN_MAX_LANES;
    } else {
      for (int32_t j = 0; j < F32V_N; j++) { /* the panel, transposed */
        float *col = scratch + j;
        if (j < nu) {
          const float *wr = w + (size_t)(u0 + j) * (size_t)K;
          for (int32_t k = 0; k < K; k++) col[(size_t)k * F32V_N] = wr[k];
        } else {
          for (int32_t k = 0; k < K; k++) col[(size_t)k * F32V_N] = 0.0f;
        }
      }
    }
    f32v bv = f32v_zero();
    if (bias) bv = nu == F32V_N ? f32v_ld(bias + u0) : f32v_ld_n(bias + u0, (size_t)nu);
    for (int32_t b0 = 0; b0 < groups; b0 += 4)
      FE_ROWS(4, true, d, in, pw, ws, kc, bv, vlo, vhi, b0, u0, nu, out);
    for (int32_t b0 = groups; b0 < B; b0 += 4) /* the batches past the groups (GEMV: all) */
      switch (B - b0 < 4 ? B - b0 : 4) {
        case 4: FE_ROWS(4, false, d, in, pw, ws, kc, bv, vlo, vhi, b0, u0, nu, out); break;
        case 3: FE_ROWS(3, false, d, in, pw, ws, kc, bv, vlo, vhi, b0, u0, nu, out); break;
        case 2: FE_ROWS(2, false, d, in, pw, ws, kc, bv, vlo, vhi, b0, u0, nu, out); break;
        default: FE_ROWS(1, false, d, in, pw, ws, kc, bv, vlo, vhi, b0, u0, nu, out); break;
      }
  }
}
