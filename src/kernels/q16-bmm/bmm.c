/* Quantized BATCH_MATMUL driver on the q16-gemm micro-kernels (bmm.h): a task is one output
 * matrix's panel of NR columns over a chunk of its rows; it packs the panel (split in two for an
 * int16 rhs), then runs the micro-kernel tile by tile and requantizes. */
#include "kernels/q16-bmm/bmm.h"

#include <string.h>

#include "kernels/ref/quant_util.h"

/* lhs rows copied as int16 at a time (adj_x, int8): a multiple of every variant's MR. */
enum { Q16_BMM_ROWS = 48 };
/* One thread's scratch at most. */
#define Q16_BMM_SCRATCH_MAX ((size_t)64 << 20)

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static int q16_bmm_planes(tfcc_q16_bmm_type t) { return t == TFCC_Q16_BMM_I16 ? 2 : 1; }

/* the lhs is read as int16 rows in place (int16, adj_x false), else copied */
static bool q16_bmm_copies_lhs(const tfcc_bmm_dims *d, tfcc_q16_bmm_type t) {
  return d->adj_x || t == TFCC_Q16_BMM_I8;
}

typedef struct q16_bmm_layout {
  size_t panel_elems; /* int16 of one plane of a panel */
  size_t panel_bytes, rows_bytes, per_thread;
  /* the whole lhs as int16 rows (a copied lhs, when it fits: converted once per run, before the
   * tasks) at the start of the scratch; 0: each task copies its row blocks per panel */
  size_t lhs_bytes;
} q16_bmm_layout;

static size_t q16_bmm_lhs_matrices(const tfcc_bmm_dims *d) {
  size_t nl = 1;
  for (int32_t i = 0; i < d->nbd; i++) nl *= (size_t)d->lhs_b[i];
  return nl;
}

static bool q16_bmm_layout_of(const tfcc_q16_gemm_kernel *k, const tfcc_bmm_dims *d,
                              tfcc_q16_bmm_type t, size_t lhs_max, q16_bmm_layout *l) {
  if (!k || d->k <= 0 || d->m < 0 || d->n < 0) return false;
  const uint64_t kp = ((uint64_t)d->k + 1) / 2;
  const uint64_t elems = kp * (uint64_t)k->nr * 2;
  const uint64_t panels = (uint64_t)q16_bmm_planes(t) * elems * sizeof(int16_t);
  const bool copies = q16_bmm_copies_lhs(d, t);
  const uint64_t lhs_all =
      copies ? (uint64_t)q16_bmm_lhs_matrices(d) * (uint64_t)d->m * (uint64_t)d->k * sizeof(int16_t)
             : 0;
  const bool whole = copies && lhs_all + 64 <= lhs_max;
  const uint64_t rows =
      copies && !whole ? (uint64_t)Q16_BMM_ROWS * (uint64_t)d->k * sizeof(int16_t) : 0;
  if (panels + rows + 128 > Q16_BMM_SCRATCH_MAX) return false;
  l->panel_elems = (size_t)elems;
  l->panel_bytes = align64((size_t)panels);
  l->rows_bytes = align64((size_t)rows);
  l->per_thread = l->panel_bytes + l->rows_bytes;
  l->lhs_bytes = whole ? align64((size_t)lhs_all) : 0;
  return true;
}

bool tfcc_q16_bmm_fits(const tfcc_bmm_dims *d, const tfcc_bmm_quant *q, tfcc_q16_bmm_type t) {
  if (d->k <= 0 || d->m <= 0 || d->n <= 0) return false;
  if (t == TFCC_Q16_BMM_I8)
    return q->lhs_offset >= -255 && q->lhs_offset <= 255 && q->rhs_offset >= -255 &&
           q->rhs_offset <= 255;
  /* int16 outputs: the micro-kernel's operands need no offset; the q16-gemm requantization
   * takes total shifts 15 - shift of 1..62 (the reference's tfcc_mbqm64 is undefined past 64, and
   * at 63 / 64 overflows for sums near its 2^47 bound) */
  if (q->lhs_offset || q->rhs_offset || q->act_min < -32768 || q->act_max > 32767) return false;
  for (int32_t c = 0; c < (q->col_shift ? d->n : 1); c++) {
    const int32_t ts = 15 - (q->col_shift ? q->col_shift[c] : q->shift);
    if (ts < 1 || ts > 62) return false;
  }
  return true;
}

size_t tfcc_q16_bmm_scratch(const tfcc_q16_gemm_kernel *k, const tfcc_bmm_dims *d,
                            tfcc_q16_bmm_type t, int threads, size_t lhs_max) {
  q16_bmm_layout l;
  if (threads <= 0 || !q16_bmm_layout_of(k, d, t, lhs_max, &l)) return 0;
  if ((size_t)threads > (SIZE_MAX - l.lhs_bytes) / l.per_thread) return 0;
  return l.lhs_bytes + (size_t)threads * l.per_thread;
}

typedef struct q16_bmm_job {
  const tfcc_q16_gemm_kernel *k;
  const tfcc_bmm_dims *d;
  const tfcc_bmm_quant *q;
  tfcc_q16_bmm_type t;
  const void *lhs, *rhs;
  void *out;
  uint8_t *mem;         /* the threads' parts */
  const int16_t *lhs16; /* the whole lhs as int16 rows, or NULL */
  tfcc_q16_bmm_req8_fn req8;
  q16_bmm_layout l;
  size_t n_panels, n_mchunks, m_chunk; /* tasks: batch, panel, chunk of rows */
} q16_bmm_job;

/* v into the panels at i: split (int16 rhs) as 256 * h + l, l the signed low byte, else as is */
#define Q16_BMM_PUT(SPLIT, i, v) \
  do { \
    const int32_t v_ = (v); \
    if (SPLIT) { \
      const int32_t h_ = (v_ + 128) >> 8; \
      w1[i] = (int16_t)h_; \
      w0[i] = (int16_t)(v_ - 256 * h_); \
    } else { \
      w0[i] = (int16_t)v_; \
    } \
  } while (0)

/* The panel of columns [n0, n0 + nc) of the rhs matrix src ([K][N], adj_y: [N][K]), values + off:
 * [pair][NR][2] int16, zero past nc and past K, into w0 (and w1, split). */
#define Q16_BMM_PACK_FN(NAME, T, SPLIT) \
  static void NAME(const q16_bmm_job *j, const T *src, int32_t off, size_t n0, size_t nc, \
                   int16_t *w0, int16_t *w1) { \
    const size_t NR = (size_t)j->k->nr, K = (size_t)j->d->k, N = (size_t)j->d->n; \
    const size_t full = K / 2, step = 2 * NR; \
    if (nc < NR) { /* an odd K's last pair: its second weight meets q16x_one's zero */ \
      memset(w0, 0, j->l.panel_elems * sizeof(int16_t)); \
      if (SPLIT) memset(w1, 0, j->l.panel_elems * sizeof(int16_t)); \
    } \
    if (!j->d->adj_y) { \
      for (size_t p = 0; p < full; p++) { \
        const T *r0 = src + 2 * p * N + n0, *r1 = r0 + N; \
        const size_t o = p * step; \
        for (size_t n = 0; n < nc; n++) { \
          Q16_BMM_PUT(SPLIT, o + 2 * n, (int32_t)r0[n] + off); \
          Q16_BMM_PUT(SPLIT, o + 2 * n + 1, (int32_t)r1[n] + off); \
        } \
      } \
      if (K & 1) { \
        const T *r0 = src + (K - 1) * N + n0; \
        for (size_t n = 0; n < nc; n++) \
          Q16_BMM_PUT(SPLIT, full *step + 2 * n, (int32_t)r0[n] + off); \
      } \
    } else { \
      for (size_t n = 0; n < nc; n++) { \
        const T *s = src + (n0 + n) * K; \
        for (size_t p = 0; p < full; p++) { \
          Q16_BMM_PUT(SPLIT, p *step + 2 * n, (int32_t)s[2 * p] + off); \
          Q16_BMM_PUT(SPLIT, p *step + 2 * n + 1, (int32_t)s[2 * p + 1] + off); \
        } \
        if (K & 1) Q16_BMM_PUT(SPLIT, full *step + 2 * n, (int32_t)s[K - 1] + off); \
      } \
    } \
  }
Q16_BMM_PACK_FN(q16_bmm_pack_i16, int16_t, 1)
Q16_BMM_PACK_FN(q16_bmm_pack_i8, int8_t, 0)

/* Rows [m, m + cnt) of the lhs matrix src ([M][K], adj_x: [K][M]) + off as int16 rows of K. */
#define Q16_BMM_ROWS_FN(NAME, T) \
  static void NAME(const tfcc_bmm_dims *d, const T *src, int32_t off, size_t m, size_t cnt, \
                   int16_t *dst) { \
    const size_t K = (size_t)d->k, M = (size_t)d->m; \
    if (!d->adj_x) { \
      for (size_t i = 0; i < cnt; i++) { \
        const T *s = src + (m + i) * K; \
        int16_t *o = dst + i * K; \
        for (size_t p = 0; p < K; p++) o[p] = (int16_t)((int32_t)s[p] + off); \
      } \
      return; \
    } \
    for (size_t p = 0; p < K; p++) { \
      const T *s = src + p * M + m; \
      for (size_t i = 0; i < cnt; i++) dst[i * K + p] = (int16_t)((int32_t)s[i] + off); \
    } \
  }
Q16_BMM_ROWS_FN(q16_bmm_rows_i16, int16_t)
Q16_BMM_ROWS_FN(q16_bmm_rows_i8, int8_t)

/* r for columns [n0, n0 + nc) (the others zero): tfcc_requant64's terms with a zero bias, the
 * reference's int16 output (tfcc_bmm_i16: the int64 sum clamped to +-2^47, tfcc_mbqm64, + offset,
 * the activation clamp); total shifts 1..62 (tfcc_q16_bmm_fits). */
static void q16_bmm_req_init(const tfcc_bmm_quant *q, size_t n0, int nc, tfcc_q16_gemm_req *r) {
  memset(r, 0, sizeof *r);
  r->offset = q->output_offset, r->act_min = q->act_min, r->act_max = q->act_max;
  for (int n = 0; n < nc; n++) {
    const int32_t qm = q->col_mult ? q->col_mult[n0 + (size_t)n] : q->mult;
    const int32_t sh = q->col_shift ? q->col_shift[n0 + (size_t)n] : q->shift;
    const int ts = 15 - sh;
    r->mult[n] = qm < 0x7FFF0000 ? (qm + (1 << 15)) >> 16 : 0x7FFF;
    r->round[n] = (int64_t)1 << (ts - 1);
    r->shift[n] = ts;
  }
}

static void q16_bmm_task(void *ctx, size_t task, int thread) {
  const q16_bmm_job *j = ctx;
  const tfcc_bmm_dims *d = j->d;
  const tfcc_bmm_quant *q = j->q;
  const tfcc_q16_gemm_kernel *k = j->k;
  const size_t mr = (size_t)k->mr, nr = (size_t)k->nr;
  const size_t M = (size_t)d->m, N = (size_t)d->n, K = (size_t)d->k;
  const size_t mc = task % j->n_mchunks, pi = task / j->n_mchunks % j->n_panels;
  const int64_t ob = (int64_t)(task / j->n_mchunks / j->n_panels);
  const size_t m0 = mc * j->m_chunk, m1 = m0 + j->m_chunk < M ? m0 + j->m_chunk : M;
  const size_t n0 = pi * nr, nc = N - n0 < nr ? N - n0 : nr;
  size_t loff, roff;
  tfcc_bmm_batch_offsets(d, ob, &loff, &roff);
  uint8_t *mem = j->mem + (size_t)thread * j->l.per_thread;
  int16_t *w0 = (int16_t *)(void *)mem, *w1 = w0 + j->l.panel_elems;
  int16_t *rows = (int16_t *)(void *)(mem + j->l.panel_bytes);
  const bool i8 = j->t == TFCC_Q16_BMM_I8, split = j->t == TFCC_Q16_BMM_I16;
  if (split)
    q16_bmm_pack_i16(j, (const int16_t *)j->rhs + roff, 0, n0, nc, w0, w1);
  else
    q16_bmm_pack_i8(j, (const int8_t *)j->rhs + roff, i8 ? q->rhs_offset : 0, n0, nc, w0, NULL);
  tfcc_q16_gemm_req r;
  if (!i8) q16_bmm_req_init(q, n0, (int)nc, &r);
  const bool copies = q16_bmm_copies_lhs(d, j->t);
  int64_t acc[TFCC_Q16_GEMM_MAX_MR * TFCC_Q16_GEMM_MAX_NR];
  int64_t acc_h[TFCC_Q16_GEMM_MAX_MR * TFCC_Q16_GEMM_MAX_NR];
  const int16_t *a[TFCC_Q16_GEMM_MAX_MR];
  for (size_t mb = m0; mb < m1; mb += Q16_BMM_ROWS) {
    const size_t mbe = mb + Q16_BMM_ROWS < m1 ? mb + Q16_BMM_ROWS : m1;
    if (copies && !j->lhs16 && i8)
      q16_bmm_rows_i8(d, (const int8_t *)j->lhs + loff, q->lhs_offset, mb, mbe - mb, rows);
    else if (copies && !j->lhs16)
      q16_bmm_rows_i16(d, (const int16_t *)j->lhs + loff, 0, mb, mbe - mb, rows);
    for (size_t m = mb; m < mbe; m += mr) {
      const size_t cnt = mbe - m < mr ? mbe - m : mr;
      for (size_t i = 0; i < mr; i++) { /* past the end: the last row again (not stored) */
        const size_t row = m + (i < cnt ? i : cnt - 1);
        a[i] = j->lhs16 ? j->lhs16 + loff + row * K
               : copies ? rows + (row - mb) * K
                        : (const int16_t *)j->lhs + loff + row * K;
      }
      k->fn(1, K, a, w0, acc);
      if (split) {
        k->fn(1, K, a, w1, acc_h);
        for (size_t i = 0; i < cnt * nr; i++) acc[i] += acc_h[i] * 256;
      }
      const size_t ob_off = ((size_t)ob * M + m) * N + n0;
      if (!i8) {
        k->req(cnt, nc, acc, &r, (int16_t *)j->out + ob_off, N);
        continue;
      }
      j->req8(cnt, nc, acc, nr, q, (int8_t *)j->out + ob_off, N);
    }
  }
}

TFCC_Q16_BMM_REQ8_DECL(tfcc_q16_bmm_req8_scalar) {
  for (size_t i = 0; i < rows; i++) {
    const int64_t *s = acc + i * acc_stride;
    int8_t *o = out + i * out_stride;
    for (size_t n = 0; n < nc; n++) {
      const int32_t a32 = (int32_t)(uint32_t)(uint64_t)s[n]; /* TFLite's int32 wraps */
      const int32_t v = (int32_t)((int64_t)tfcc_mbqm(a32, q->mult, q->shift) + q->output_offset);
      o[n] = (int8_t)tfcc_clamp_i32(v, q->act_min, q->act_max);
    }
  }
}

tfcc_q16_bmm_req8_fn tfcc_q16_bmm_req8_for(const tfcc_q16_gemm_kernel *k) {
#if defined(__x86_64__) || defined(__i386__)
  if (k->isa == TFCC_ISA_AVX512) return tfcc_q16_bmm_req8_avx512;
  if (k->isa == TFCC_ISA_AVX2) return tfcc_q16_bmm_req8_avx2;
#endif
  (void)k;
  return tfcc_q16_bmm_req8_scalar;
}

void tfcc_q16_bmm(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k, const tfcc_bmm_dims *d,
                  const tfcc_bmm_quant *q, tfcc_q16_bmm_type t, size_t lhs_max, const void *lhs,
                  const void *rhs, void *out, void *scratch) {
  q16_bmm_job j = {.k = k, .d = d, .q = q, .t = t, .lhs = lhs, .rhs = rhs, .out = out};
  j.req8 = q->shift >= -31 && q->shift <= 31 && q->mult != INT32_MIN ? tfcc_q16_bmm_req8_for(k)
                                                                     : tfcc_q16_bmm_req8_scalar;
  if (!q16_bmm_layout_of(k, d, t, lhs_max, &j.l) || d->m <= 0 || d->n <= 0) return;
  j.mem = (uint8_t *)scratch + j.l.lhs_bytes;
  if (j.l.lhs_bytes) { /* each lhs matrix as int16 [M][K] rows, at its own element offset */
    int16_t *dst = scratch;
    const size_t mk = (size_t)d->m * (size_t)d->k;
    for (size_t b = 0, nl = q16_bmm_lhs_matrices(d); b < nl; b++) {
      if (t == TFCC_Q16_BMM_I8)
        q16_bmm_rows_i8(d, (const int8_t *)lhs + b * mk, q->lhs_offset, 0, (size_t)d->m,
                        dst + b * mk);
      else
        q16_bmm_rows_i16(d, (const int16_t *)lhs + b * mk, 0, 0, (size_t)d->m, dst + b * mk);
    }
    j.lhs16 = dst;
  }
  size_t nb = 1;
  for (int32_t i = 0; i < d->nbd; i++) nb *= (size_t)d->out_b[i];
  const size_t mr = (size_t)k->mr, tiles = ((size_t)d->m + mr - 1) / mr;
  j.n_panels = ((size_t)d->n + (size_t)k->nr - 1) / (size_t)k->nr;
  /* chunks of rows where the matrices and panels give fewer than 4 tasks a thread (each chunk
   * packs its panel again) */
  const int threads = tfcc_threadpool_size(pool);
  size_t n_mchunks = 1;
  if (threads > 1 && nb * j.n_panels < 4 * (size_t)threads) {
    n_mchunks = (4 * (size_t)threads + nb * j.n_panels - 1) / (nb * j.n_panels);
    if (n_mchunks > tiles) n_mchunks = tiles;
  }
  j.m_chunk = (tiles + n_mchunks - 1) / n_mchunks * mr;
  j.n_mchunks = ((size_t)d->m + j.m_chunk - 1) / j.m_chunk;
  tfcc_threadpool_run(pool, nb * j.n_panels * j.n_mchunks, q16_bmm_task, &j);
}
