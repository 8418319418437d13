/* Fused 8-bit expand 1x1 + depthwise driver (contract in expand_dw.h). */
#include "kernels/q8-expand-dw/expand_dw.h"
#include "base/threadpool.h"
#include "kernels/expand_dw_strips.h"

/* Expanded rows one thread's window holds (whole rows: in_w x C bytes each), sized to stay in
 * L2 next to the depthwise's output rows: f32-expand-dw's 512 KiB of floats in bytes. */
#ifndef TFCC_Q8_EXPAND_DW_WINDOW_BYTES
#define TFCC_Q8_EXPAND_DW_WINDOW_BYTES (128u * 1024u)
#endif

const char *tfcc_q8_expand_dw_name(const tfcc_q8_dw_kernel *dw) {
  switch (dw ? dw->isa : TFCC_ISA_GENERIC) {
    case TFCC_ISA_AVX512: return "q8-expand-dw-avx512";
    case TFCC_ISA_AVX2: return "q8-expand-dw-avx2";
    case TFCC_ISA_SSE4: return "q8-expand-dw-sse4";
    case TFCC_ISA_NEON: return "q8-expand-dw-neon";
    case TFCC_ISA_WASMSIMD: return "q8-expand-dw-wasmsimd";
    default: return "q8-expand-dw-scalar";
  }
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static size_t row_bytes(const tfcc_conv_geom *g) { return (size_t)g->in_w * (size_t)g->in_c; }

static int32_t strip_rows(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g) {
  return tfcc_xdw_strip_rows(g, row_bytes(g),
                             k->window_bytes ? k->window_bytes : TFCC_Q8_EXPAND_DW_WINDOW_BYTES);
}

static size_t window_bytes(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g) {
  return tfcc_xdw_window_bytes(g, row_bytes(g), strip_rows(k, g));
}

/* One thread's part: the window, then one region the GEMM's scratch and the depthwise's share
 * (a thread runs the two halves of a strip one after the other, so neither outlives its half). */
static size_t thread_bytes(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g) {
  const size_t gemm = align64(tfcc_q8_scratch_bytes(NULL, k->expand, 1));
  const size_t dw = align64(tfcc_q8_dw_scratch_bytes(k->dw, g, 1));
  return window_bytes(k, g) + (gemm > dw ? gemm : dw);
}

size_t tfcc_q8_expand_dw_scratch_bytes(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g,
                                       int threads) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->in_c <= 0 || g->in_w <= 0) return 0;
  return thread_bytes(k, g) * (size_t)(threads > 1 ? threads : 1);
}

typedef struct xdw_job {
  const tfcc_q8_expand_dw *k;
  const tfcc_conv_geom *g;
  const uint8_t *x;
  uint8_t *out;
  size_t window_bytes; /* a thread's part: window, then the GEMM's or the depthwise's scratch */
} xdw_job;

/* the strip walk's halves (kernels/expand_dw_strips.h) */
static void expand_rows(void *ctx, int32_t b, int32_t from, int32_t to, uint8_t *dst,
                        uint8_t *thread) {
  const xdw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const int32_t xc = j->k->expand->kdim;
  const size_t xrow = (size_t)g->in_w * (size_t)xc;
  tfcc_q8_gemm(NULL, j->k->expand, j->k->expand_r, (to - from) * g->in_w,
               j->x + ((size_t)b * (size_t)g->in_h + (size_t)from) * xrow, (size_t)xc, dst,
               (size_t)g->in_c, thread + j->window_bytes);
}

/* Whole-image mode (expand_dw_strips.h): the GEMM over the pool, its scratch (all threads')
 * right after the window at the start of scratch, where the threads' parts follow. */
static void expand_rows_pool(void *ctx, struct tfcc_threadpool *pool, int32_t b, int32_t from,
                             int32_t to, uint8_t *dst) {
  const xdw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const int32_t xc = j->k->expand->kdim;
  const size_t xrow = (size_t)g->in_w * (size_t)xc;
  tfcc_q8_gemm(pool, j->k->expand, j->k->expand_r, (to - from) * g->in_w,
               j->x + ((size_t)b * (size_t)g->in_h + (size_t)from) * xrow, (size_t)xc, dst,
               (size_t)g->in_c, dst + j->window_bytes);
}

static void dw_rows(void *ctx, int32_t b, int32_t oy0, const tfcc_conv_geom *w,
                    const uint8_t *window, uint8_t *thread) {
  const xdw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  uint8_t *o =
      j->out + ((size_t)b * (size_t)g->out_h + (size_t)oy0) * (size_t)g->out_w * (size_t)g->in_c;
  tfcc_q8_dwconv(NULL, w, j->k->dw, j->k->dw_r, window, o, thread + j->window_bytes);
}

void tfcc_q8_expand_dw_run(struct tfcc_threadpool *pool, const tfcc_q8_expand_dw *k,
                           const tfcc_conv_geom *g, const void *x, void *out, void *scratch) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->in_c <= 0 || g->in_w <= 0) return;
  xdw_job j = {k, g, x, out, window_bytes(k, g)};
  tfcc_xdw_walk w = {
      g,  row_bytes(g), strip_rows(k, g), scratch, thread_bytes(k, g), expand_rows, dw_rows,
      &j, NULL};
  /* whole-image mode when the pooled GEMM's scratch fits behind the window in the parts */
  const int threads = tfcc_threadpool_size(pool);
  if (threads > 1 && j.window_bytes + tfcc_q8_scratch_bytes(NULL, k->expand, threads) <=
                         w.thread_bytes * (size_t)threads)
    w.expand_pool = expand_rows_pool;
  const double macs =
      (double)g->batches * g->in_h * g->in_w * g->in_c * k->expand->kdim +
      (double)g->batches * g->out_h * g->out_w * g->in_c * g->filter_h * g->filter_w;
  tfcc_xdw_walk_run(pool, &w, macs);
}
