/* Portable body of the q16-gemm micro-kernel, requantization and weight widening (gemm.h),
 * included by the per-ISA files after their primitives header (q16v_<isa>.h) with
 * TFCC_Q16_GEMM_FN, TFCC_Q16_GEMM_REQ_FN, TFCC_Q16_GEMM_WIDEN_FN, Q16_MR (rows) and Q16_NRV
 * (vectors of Q16V_N channels per row) defined. The primitives:
 *   q16v                Q16V_N int32 sums (one per output channel)
 *   q16w                Q16V_N pairs of weights as int16 (one pair per channel)
 *   q16x                one pair of inputs, in every lane
 *   q16v_zero(), q16v_ldw(p) (2 * Q16V_N int16 at p), q16v_st(p, v) (Q16V_N int32)
 *   q16x_pair(p)        the pair (p[0], p[1]); q16x_one(p): the pair (p[0], 0), reading p[0] only
 *   q16v_madd(acc, x, w)  lane i: acc[i] + x.0 * w[2i] + x.1 * w[2i + 1], in int32
 *   q16v_ld32(p)        Q16V_N int32 at p
 *   q16v_st16(p, v, n)  lanes i < n (1..Q16V_N) of v, each within int16, as int16 at p
 *   q16v_rqi(s, r, n0), q16v_rqr(s, r, n0)  lane i: q16_rq_lane(s[i], r, n0 + i) below, for r's
 *                       integer and real modes; or Q16V_RQ_LANES defined: this body's lane loop
 * TFCC_Q16_GEMM_FUSED_FN and TFCC_Q16_GEMM_REQ32_FN (gemm.h) are built from them.
 * The tile's sums stay in Q16_MR x Q16_NRV vectors of int32 for at most TFCC_Q16_GEMM_FLUSH
 * pairs, then go into the int64 sums (gemm.h: no int32 sum can overflow). Every loop over the
 * tile is unrolled, so that the sums stay in registers. */
#include <math.h>
#include <string.h>

#include "kernels/q16-gemm/gemm.h"
#include "kernels/simd/q16rqi.h"

#if defined(__GNUC__) && !defined(__clang__)
/* GCC 12's out-of-SSA coalescing gives every sum of the tile a register copy per step (24 of
 * the avx512 loop's 44 instructions), and with int16 weights the copies cost a quarter of the
 * speed (198 -> 144 multiply-adds per ns on a 9 x 256 tile): off for this body. */
#pragma GCC optimize("no-tree-coalesce-vars")
#endif

#define Q16_NR (Q16_NRV * Q16V_N)
#define Q16_UNROLL _Pragma("GCC unroll 16")

/* The tile's int32 sums into acc (stored by the first flush, added by the later ones), then
 * zero. */
static inline __attribute__((always_inline)) void q16_flush(q16v c[Q16_MR][Q16_NRV], int64_t *acc,
                                                            bool add) {
  Q16_UNROLL for (int m = 0; m < Q16_MR; m++) Q16_UNROLL for (int v = 0; v < Q16_NRV; v++) {
    int32_t t[Q16V_N];
    q16v_st(t, c[m][v]);
    int64_t *s = acc + m * Q16_NR + v * Q16V_N;
    if (add)
      for (int i = 0; i < Q16V_N; i++) s[i] += t[i];
    else
      for (int i = 0; i < Q16V_N; i++) s[i] = t[i];
    c[m][v] = q16v_zero();
  }
}

/* One pair of every row (LOAD(m): its q16x) against the next Q16_NR pairs of weights. */
#define Q16_STEP(LOAD) \
  do { \
    q16w wv[Q16_NRV]; \
    Q16_UNROLL for (int v = 0; v < Q16_NRV; v++) wv[v] = q16v_ldw(w + 2 * v * Q16V_N); \
    Q16_UNROLL for (int m = 0; m < Q16_MR; m++) { \
      const q16x xb = LOAD; \
      Q16_UNROLL for (int v = 0; v < Q16_NRV; v++) c[m][v] = q16v_madd(c[m][v], xb, wv[v]); \
    } \
    w += 2 * Q16_NR; \
  } while (0)

void TFCC_Q16_GEMM_FN(size_t ks, size_t kc, const int16_t *const *a, const int16_t *w,
                      int64_t *acc) {
  q16v c[Q16_MR][Q16_NRV];
  Q16_UNROLL for (int m = 0; m < Q16_MR; m++) Q16_UNROLL for (int v = 0; v < Q16_NRV; v++) c[m][v] =
      q16v_zero();
  bool flushed = false; /* acc holds sums */
  const size_t full = kc / 2;
  size_t left = TFCC_Q16_GEMM_FLUSH;
  for (size_t t = 0; t < ks; t++, a += Q16_MR) {
    const int16_t *x[Q16_MR];
    Q16_UNROLL for (int m = 0; m < Q16_MR; m++) x[m] = a[m];
    const int16_t *const xend = x[0] + 2 * full;
    while (x[0] != xend) { /* runs of pairs up to the next flush */
      size_t n = (size_t)(xend - x[0]) / 2;
      if (n > left) n = left;
      left -= n;
      const int16_t *const e = x[0] + 2 * n;
      do {
        Q16_STEP(q16x_pair(x[m]));
        Q16_UNROLL for (int m = 0; m < Q16_MR; m++) x[m] += 2;
      } while (x[0] != e);
      if (!left) {
        q16_flush(c, acc, flushed);
        flushed = true, left = TFCC_Q16_GEMM_FLUSH;
      }
    }
    if (kc & 1) {
      Q16_STEP(q16x_one(x[m]));
      if (--left == 0) {
        q16_flush(c, acc, flushed);
        flushed = true, left = TFCC_Q16_GEMM_FLUSH;
      }
    }
  }
  q16_flush(c, acc, flushed);
}

/* d[i] = s[i] for i < n: the int8 pairs of a packed panel as the micro-kernel reads them (a loop
 * the compiler vectorises with the build's sign extension). */
void TFCC_Q16_GEMM_WIDEN_FN(size_t n, const int8_t *s, int16_t *d) {
  for (size_t i = 0; i < n; i++) d[i] = s[i];
}

/* tfcc_requant64 (kernels/ref/conv_acc.h) written out per channel with r's precomputed terms,
 * a loop of Q16_NR lanes that the compiler vectorises (AVX-512: 64-bit multiplies and shifts);
 * the int32 truncations are the reference's. x86 builds first try tfcc_q16rq
 * (kernels/simd/q16_requant_x86.h: sums and biases within +-2^30, r's unused lanes zero). */
void TFCC_Q16_GEMM_REQ_FN(size_t rows, size_t nc, const int64_t *acc, const tfcc_q16_gemm_req *r,
                          int16_t *out, size_t out_stride) {
  const int64_t lim = (int64_t)1 << 47;
  const int32_t off = r->offset, lo = r->act_min, hi = r->act_max;
  for (size_t i = 0; i < rows; i++, acc += Q16_NR, out += out_stride) {
    int16_t t[Q16_NR];
#ifdef TFCC_Q16RQ_W
    /* the x86 vector path where the row's sums and biases allow (q16_requant_x86.h) */
    int16_t *d = nc == Q16_NR ? out : t; /* a whole row straight to out */
    bool fast = true;
    for (int n = 0; fast && n < Q16_NR; n += TFCC_Q16RQ_W)
      fast = tfcc_q16rq(acc + n, r->bias + n, r->mult + n, r->round + n, r->shift + n, off, lo, hi,
                        d + n);
    if (fast) {
      if (d == t) memcpy(out, t, nc * sizeof(int16_t));
      continue;
    }
#endif
    for (int n = 0; n < Q16_NR; n++) {
      int64_t a = acc[n];
      a = a < -lim ? -lim : (a > lim - 1 ? lim - 1 : a);
      a += r->bias[n];
      a = a < -lim ? -lim : (a > lim - 1 ? lim - 1 : a);
      int32_t v = (int32_t)(uint32_t)(uint64_t)((a * r->mult[n] + r->round[n]) >> r->shift[n]);
      v = (int32_t)(uint32_t)(uint64_t)((int64_t)v + off);
      v = v < lo ? lo : (v > hi ? hi : v);
      t[n] = (int16_t)v;
    }
    memcpy(out, t, nc * sizeof(int16_t));
  }
}

/* One channel's requantization of an int32 sum by r (gemm.h: tfcc_q16_gemm_rq) in scalar
 * arithmetic: the vector primitives' definition, and the lanes of the variants without them.
 * The int64 / double operations are the reference functions' (tfcc_requant64, tfcc_fc_i16_out);
 * the int32 additions wrap as their truncations do. */
static inline int32_t q16_rq_lane(int32_t s, const tfcc_q16_gemm_rq *r, int n) {
  int32_t v;
  if (r->real) {
    const int32_t a = (int32_t)((uint32_t)s + (uint32_t)r->b32[n]);
    double x = round(((double)a + r->bias[n]) * r->rscale[n]);
    x = x > 2147483647.0 ? 2147483647.0 : (x < -2147483648.0 ? -2147483648.0 : x);
    v = (int32_t)x;
  } else {
    v = tfcc_q16rqi_lane(s, r->mult[n], r->bm[n], r->shift[n]); /* kernels/simd/q16rqi.h */
  }
  return tfcc_q16rq_end_lane(v, r->offset, r->act_min, r->act_max);
}

#ifdef Q16V_RQ_LANES
static inline q16v q16v_rq_lanes(q16v s, const tfcc_q16_gemm_rq *r, int n0) {
  int32_t t[Q16V_N];
  q16v_st(t, s);
  for (int i = 0; i < Q16V_N; i++) t[i] = q16_rq_lane(t[i], r, n0 + i);
  return q16v_ld32(t);
}
#define q16v_rqi q16v_rq_lanes
#define q16v_rqr q16v_rq_lanes
#endif

/* Rows m < LIVE of the int32 tile C (NROWS x Q16_NRV vectors), channels n < nc, through RQ
 * into out. */
#define Q16_OUT(C, NROWS, LIVE, RQ) \
  Q16_UNROLL for (int m = 0; m < (NROWS); m++) { \
    if ((size_t)m >= (LIVE)) break; \
    Q16_UNROLL for (int v = 0; v < Q16_NRV; v++) { \
      const size_t n0 = (size_t)v * Q16V_N; \
      if (n0 >= nc) break; \
      q16v_st16(out + (size_t)m * out_stride + n0, RQ(C[m][v], r, (int)n0), \
                nc - n0 < Q16V_N ? (int)(nc - n0) : Q16V_N); \
    } \
  }

/* The micro-kernel without flushes (ks * ((kc + 1) / 2) <= TFCC_Q16_GEMM_FLUSH pairs: every
 * int32 sum exact), its tile requantized from the registers. */
void TFCC_Q16_GEMM_FUSED_FN(size_t ks, size_t kc, const int16_t *const *a, const int16_t *w,
                            const tfcc_q16_gemm_rq *r, size_t rows, size_t nc, int16_t *out,
                            size_t out_stride) {
  q16v c[Q16_MR][Q16_NRV];
  Q16_UNROLL for (int m = 0; m < Q16_MR; m++) Q16_UNROLL for (int v = 0; v < Q16_NRV; v++) c[m][v] =
      q16v_zero();
  const size_t full = kc / 2;
  for (size_t t = 0; t < ks; t++, a += Q16_MR) {
    const int16_t *x[Q16_MR];
    Q16_UNROLL for (int m = 0; m < Q16_MR; m++) x[m] = a[m];
    const int16_t *const xend = x[0] + 2 * full;
    while (x[0] != xend) {
      Q16_STEP(q16x_pair(x[m]));
      Q16_UNROLL for (int m = 0; m < Q16_MR; m++) x[m] += 2;
    }
    if (kc & 1) Q16_STEP(q16x_one(x[m]));
  }
  if (r->real) {
    Q16_OUT(c, Q16_MR, rows, q16v_rqr)
  } else {
    Q16_OUT(c, Q16_MR, rows, q16v_rqi)
  }
}

/* r on an int64 tile whose rows' sums fit int32 (false at the first row that does not). */
bool TFCC_Q16_GEMM_REQ32_FN(size_t rows, size_t nc, const int64_t *acc, const tfcc_q16_gemm_rq *r,
                            int16_t *out, size_t out_stride) {
  for (size_t i = 0; i < rows; i++, acc += Q16_NR, out += out_stride) {
    int32_t t[Q16_NR];
    bool fits = true;
    for (int n = 0; n < Q16_NR; n++) {
      t[n] = (int32_t)(uint32_t)(uint64_t)acc[n];
      fits &= t[n] == acc[n];
    }
    if (!fits) return false;
    q16v c[1][Q16_NRV];
    Q16_UNROLL for (int v = 0; v < Q16_NRV; v++) c[0][v] = q16v_ld32(t + v * Q16V_N);
    if (r->real) {
      Q16_OUT(c, 1, 1, q16v_rqr)
    } else {
      Q16_OUT(c, 1, 1, q16v_rqi)
    }
  }
  return true;
}
