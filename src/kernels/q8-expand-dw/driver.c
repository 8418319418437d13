/* Fused 8-bit expand 1x1 + depthwise driver (contract in expand_dw.h). */
#include <string.h>

#include "kernels/q8-expand-dw/expand_dw.h"
#include "base/threadpool.h"

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

static int32_t eff_kh(const tfcc_conv_geom *g) { return (g->filter_h - 1) * g->dil_h + 1; }

/* Output rows per strip: as many as keep the window within its budget (at least one). */
static int32_t strip_rows(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g) {
  const size_t row_bytes = (size_t)g->in_w * (size_t)g->in_c;
  const size_t budget = k->window_bytes ? k->window_bytes : TFCC_Q8_EXPAND_DW_WINDOW_BYTES;
  const int32_t kh = eff_kh(g), s = g->stride_h;
  size_t rows = row_bytes ? budget / row_bytes : 1;
  if (rows < (size_t)kh) rows = (size_t)kh;
  int32_t r = (int32_t)((rows - (size_t)kh) / (size_t)s) + 1;
  if (r > g->out_h) r = g->out_h;
  return r < 1 ? 1 : r;
}

static size_t window_bytes(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g) {
  size_t rows = (size_t)(strip_rows(k, g) - 1) * (size_t)g->stride_h + (size_t)eff_kh(g);
  if (rows > (size_t)g->in_h) rows = (size_t)g->in_h; /* never more than the image */
  return align64(rows * (size_t)g->in_w * (size_t)g->in_c);
}

/* One thread's part: the window, the GEMM's scratch, the depthwise's. */
static size_t thread_bytes(const tfcc_q8_expand_dw *k, const tfcc_conv_geom *g) {
  return window_bytes(k, g) + align64(tfcc_q8_scratch_bytes(NULL, k->expand, 1)) +
         align64(tfcc_q8_dw_scratch_bytes(k->dw, g, 1));
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
  uint8_t *scratch;
  size_t thread_bytes, window_bytes, gemm_bytes;
  int32_t rows, rows_per_task, strip;
} xdw_job;

/* Output rows [oy_a, oy_b) of image b through the window buf. */
static void image_rows(const xdw_job *j, int32_t b, int32_t oy_a, int32_t oy_b, uint8_t *buf) {
  const tfcc_q8_expand_dw *k = j->k;
  const tfcc_conv_geom *g = j->g;
  const int32_t s = g->stride_h, kh = eff_kh(g), C = g->in_c, xc = k->expand->kdim;
  const size_t rowb = (size_t)g->in_w * (size_t)C, xrow = (size_t)g->in_w * (size_t)xc;
  const uint8_t *img = j->x + (size_t)b * (size_t)g->in_h * xrow;
  uint8_t *gemm_scratch = buf + j->window_bytes, *dw_scratch = gemm_scratch + j->gemm_bytes;
  int32_t have_lo = 0, have_hi = 0; /* image rows in the window, from slot 0 */
  for (int32_t oy0 = oy_a; oy0 < oy_b; oy0 += j->strip) {
    const int32_t oy1 = oy0 + j->strip < oy_b ? oy0 + j->strip : oy_b;
    int32_t need_lo = oy0 * s - g->pad_h, need_hi = (oy1 - 1) * s - g->pad_h + kh;
    if (need_lo < 0) need_lo = 0;
    if (need_hi > g->in_h) need_hi = g->in_h;
    if (need_hi < need_lo) need_hi = need_lo; /* every tap in the padding */
    /* rows the previous strip already expanded move to the window's front */
    int32_t from = need_lo;
    if (need_lo >= have_lo && need_lo < have_hi) {
      const int32_t keep_hi = have_hi < need_hi ? have_hi : need_hi;
      if (need_lo > have_lo)
        memmove(buf, buf + (size_t)(need_lo - have_lo) * rowb, (size_t)(keep_hi - need_lo) * rowb);
      from = keep_hi;
    }
    if (need_hi > from)
      tfcc_q8_gemm(NULL, k->expand, k->expand_r, (need_hi - from) * g->in_w,
                   img + (size_t)from * xrow, (size_t)xc, buf + (size_t)(from - need_lo) * rowb,
                   (size_t)C, gemm_scratch);
    have_lo = need_lo;
    have_hi = need_hi;
    /* the strip's depthwise over the window: input row 0 is image row need_lo */
    tfcc_conv_geom w = *g;
    w.batches = 1;
    w.in_h = need_hi - need_lo;
    w.out_h = oy1 - oy0;
    w.pad_h = g->pad_h - oy0 * s + need_lo;
    uint8_t *o =
        j->out + ((size_t)b * (size_t)g->out_h + (size_t)oy0) * (size_t)g->out_w * (size_t)C;
    tfcc_q8_dwconv(NULL, &w, k->dw, k->dw_r, buf, o, dw_scratch);
  }
}

static void xdw_task(void *ctx, size_t task, int thread) {
  const xdw_job *j = ctx;
  uint8_t *buf = j->scratch + (size_t)thread * j->thread_bytes;
  int32_t r = (int32_t)task * j->rows_per_task;
  const int32_t r1 = r + j->rows_per_task < j->rows ? r + j->rows_per_task : j->rows;
  while (r < r1) { /* one image's rows at a time */
    const int32_t b = r / j->g->out_h, oy = r % j->g->out_h;
    const int32_t n = r1 - r < j->g->out_h - oy ? r1 - r : j->g->out_h - oy;
    image_rows(j, b, oy, oy + n, buf);
    r += n;
  }
}

void tfcc_q8_expand_dw_run(struct tfcc_threadpool *pool, const tfcc_q8_expand_dw *k,
                           const tfcc_conv_geom *g, const void *x, void *out, void *scratch) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->in_c <= 0 || g->in_w <= 0) return;
  xdw_job j = {k,
               g,
               x,
               out,
               scratch,
               thread_bytes(k, g),
               window_bytes(k, g),
               align64(tfcc_q8_scratch_bytes(NULL, k->expand, 1)),
               g->batches * g->out_h,
               0,
               strip_rows(k, g)};
  int threads = tfcc_threadpool_size(pool);
  /* small layers: waking workers costs more than it saves */
  const double macs = (double)g->batches * g->in_h * g->in_w * g->in_c * k->expand->kdim +
                      (double)j.rows * g->out_w * g->in_c * g->filter_h * g->filter_w;
  if (macs < 256.0 * 1024.0) {
    threads = 1;
    pool = NULL;
  }
  /* one contiguous run of output rows per thread: each run recomputes its halo rows once */
  int32_t tasks = threads > 1 ? threads : 1;
  if (tasks > j.rows) tasks = j.rows;
  j.rows_per_task = (j.rows + tasks - 1) / tasks;
  tasks = (j.rows + j.rows_per_task - 1) / j.rows_per_task;
  tfcc_threadpool_run(pool, (size_t)tasks, xdw_task, &j);
}
