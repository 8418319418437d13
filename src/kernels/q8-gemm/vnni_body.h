/* The VNNI q8 GEMM micro-kernel (u8 x s8 dot products of 4 depth bytes into int32 lanes),
 * written once over the i32v primitives for q8-gemm-6x16-avxvnni (ymm) and
 * q8-gemm-14x32-avx512vnni (zmm), and q8-gemm-6x16-avx2 (below): MR rows x NR = 2 * I32V_N columns, two accumulators a row.
 * Per group of 4 depth bytes: two panel loads, a dword broadcast from each row, two dot
 * products a row (wrapping int32 sums: no saturation). The accumulators start at bias + row
 * term; the epilogue stores two rows at a time (requant_body.h's store_pair, or where the
 * kernel has them the fixed-point and hybrid stages of requant-avx512.h). A partial tile runs
 * the smallest instance of the same code that holds it (rows beyond its ROWS fold away).
 *
 * Each ISA file includes its i32v_*.h and the output stage, then defines and includes this:
 *   Q8G_DOT(acc, u, s)     acc plus the dot products of the u8 lanes of u and s8 lanes of s
 *   Q8G_TILES(X)           X(rows, next) for each instance, MR (at most 14) first, then
 *                          smaller ones; next: the height of the following one (0 after the
 *                          last, which must be 1): a tile of mr rows runs the first with
 *                          mr > next
 *   Q8G_PREFETCH           1: the depth loop prefetches what the driver names (tfcc_q8_out.pf,
 *                          one or two lines per group into L2; pf_ahead: the two lines of its
 *                          own panel pf_ahead bytes ahead into L1); 0: it ignores them
 *   Q8G_FULL_EPILOGUE      1: o->hyb and o->mult are served (store_pair_hybrid,
 *                          store_pair_fixed); 0: the driver asks only for store_pair
 *   Q8G_FN_S, Q8G_FN_U     the entry points: rows int8 (weights u8), rows uint8 (weights s8)
 *   Q8G_TAIL               0: kc is a multiple of 4 (no depth tail step; without it gcc keeps
 *                          the 6x16 AVX2 kernel's 12 accumulators in registers); default 1
 *   Q8G_LDW(p, half), Q8G_W_STEP
 *                          the panel vector of columns half * I32V_N .. of the depth step at
 *                          byte p, and the panel bytes of a step; default: aligned loads of
 *                          the 4-byte groups (8 * I32V_N bytes a step)
 *
 * q8-gemm-6x16-avx2 uses it too, with vpmaddwd plus vpaddd as Q8G_DOT on int16 rows (a depth
 * pair per 4 bytes: see there). */
#include "kernels/q8-gemm/ukernels.h"

#ifndef Q8G_TAIL
#define Q8G_TAIL 1
#endif
#ifndef Q8G_LDW
#define Q8G_LDW(p, half) i32v_lda((p) + (half)*4 * I32V_N)
#define Q8G_W_STEP (8 * I32V_N)
#endif

#define NR (2 * I32V_N)

/* SIGNED: rows are int8 (the s8 operand), weights u8; else rows u8, weights s8. */
#define DOT(acc, xv, wv) (SIGNED ? Q8G_DOT((acc), (wv), (xv)) : Q8G_DOT((acc), (xv), (wv)))

/* Rows >= ROWS (a compile-time constant) are not computed: their code folds away. */
#define LD(p) (TAIL ? tfcc_q8_load_tail((p) + k, kc - k) : tfcc_q8_load4((p) + k))
#define ROW(i) \
  if (ROWS > i) { \
    const i32v x = i32v_set(LD(a##i)); \
    c##i##0 = DOT(c##i##0, x, w0); \
    c##i##1 = DOT(c##i##1, x, w1); \
  }
#define STEP \
  do { \
    const i32v w0 = Q8G_LDW(pw, 0), w1 = Q8G_LDW(pw, 1); \
    pw += Q8G_W_STEP; \
    ROW(0) \
    ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7) ROW(8) ROW(9) ROW(10) ROW(11) ROW(12) ROW(13) \
  } while (0)
#define INIT(i) \
  const uint8_t *a##i = ROWS > i ? (const uint8_t *)a[i] : a0; \
  const i32v ra##i = i32v_set(row_add[ROWS > i ? i : 0]); \
  i32v c##i##0 = i32v_add(bias0, ra##i); \
  i32v c##i##1 = i32v_add(bias1, ra##i);
#if Q8G_FULL_EPILOGUE
#define PAIR(i, j) \
  if (ROWS > i && mr > i) { \
    if (o->hyb) \
      store_pair_hybrid(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, o); \
    else if (o->mult && !o->c32) \
      store_pair_fixed(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, o); \
    else \
      store_pair(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, s0, s1, o, SIGNED); \
  }
#else
#define PAIR(i, j) \
  if (ROWS > i && mr > i) \
    store_pair(i, mr, nc, c##i##0, c##i##1, c##j##0, c##j##1, s0, s1, o, SIGNED);
#endif

/* One function per (rows, signedness): ROWS rows computed, mr <= ROWS stored. */
/* a macro list that clang-format 14 rewraps differently on each pass: */
/* clang-format off */
#define DEFINE_TILE(name, rows, is_signed)                                                \
  static void name(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,  \
                   const int32_t *row_add, const tfcc_q8_out *o) {                        \
    enum { ROWS = rows, SIGNED = is_signed };                                             \
    const i32v bias0 = i32v_lda(w), bias1 = i32v_lda((const int32_t *)w + I32V_N);          \
    const uint8_t *a0 = a[0];                                                             \
    const i32v ra0 = i32v_set(row_add[0]);                                                \
    i32v c00 = i32v_add(bias0, ra0), c01 = i32v_add(bias1, ra0);                          \
    INIT(1) INIT(2) INIT(3) INIT(4) INIT(5) INIT(6)                                       \
    INIT(7) INIT(8) INIT(9) INIT(10) INIT(11) INIT(12) INIT(13)                           \
    const uint8_t *pw = (const uint8_t *)w + NR * 8;                                      \
    size_t k = 0;                                                                         \
    {                                                                                     \
      enum { TAIL = 0 };                                                                  \
      const char *pf = Q8G_PREFETCH ? (const char *)o->pf : NULL;                         \
      size_t pf_n = pf ? (size_t)(o->pf_end - o->pf) : 0;                                 \
      const size_t pf_step = o->pf_step, ahead = Q8G_PREFETCH ? o->pf_ahead : 0;          \
      for (; k + 4 <= kc; k += 4) {                                                       \
        if (pf_n && !((k >> 2) & o->pf_skip)) {                                           \
          _mm_prefetch(pf, _MM_HINT_T1);                                                  \
          _mm_prefetch(pf + (pf_n > 64 ? pf_step - 64 : 0), _MM_HINT_T1);                 \
          pf += pf_n > pf_step ? pf_step : pf_n;                                          \
          pf_n = pf_n > pf_step ? pf_n - pf_step : 0;                                     \
        }                                                                                 \
        if (ahead) {                                                                      \
          _mm_prefetch((const char *)pw + ahead, _MM_HINT_T0);                            \
          _mm_prefetch((const char *)pw + ahead + 64, _MM_HINT_T0);                       \
        }                                                                                 \
        STEP;                                                                             \
      }                                                                                   \
    }                                                                                     \
    if (Q8G_TAIL && k < kc) {                                                             \
      enum { TAIL = 1 };                                                                  \
      STEP;                                                                               \
    }                                                                                     \
    const float *scale = (const float *)(const void *)((const uint8_t *)w + NR * 4);      \
    const f32v s0 = f32v_ld(scale), s1 = f32v_ld(scale + I32V_N);                         \
    PAIR(0, 1) PAIR(2, 3) PAIR(4, 5) PAIR(6, 7) PAIR(8, 9) PAIR(10, 11) PAIR(12, 13)      \
  }
/* clang-format on */

#define Q8G_DEFINE(r, next) DEFINE_TILE(tile_s##r, r, 1) DEFINE_TILE(tile_u##r, r, 0)
Q8G_TILES(Q8G_DEFINE)

/* A partial tile (the last rows of M, or a GEMV) runs the smallest instance that holds it
 * (with is_signed constant, each call is a direct one). */
static inline void tile(size_t mr, size_t nc, size_t kc, const void *const *a, const void *w,
                        const int32_t *row_add, const tfcc_q8_out *o, int is_signed) {
#define Q8G_PICK(r, next) \
  if (mr > next) { \
    (is_signed ? tile_s##r : tile_u##r)(mr, nc, kc, a, w, row_add, o); \
    return; \
  }
  Q8G_TILES(Q8G_PICK)
#undef Q8G_PICK
}

TFCC_Q8_GEMM_DECL(Q8G_FN_S) { tile(mr, nc, kc, a, w, row_add, o, 1); }
TFCC_Q8_GEMM_DECL(Q8G_FN_U) { tile(mr, nc, kc, a, w, row_add, o, 0); }
