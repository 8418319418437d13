/* The fused expand + depthwise strip walk (expand_dw_strips.h). */
#include "kernels/expand_dw_strips.h"

#include <string.h>

#include "base/threadpool.h"

static int32_t eff_kh(const tfcc_conv_geom *g) { return (g->filter_h - 1) * g->dil_h + 1; }

int32_t tfcc_xdw_strip_rows(const tfcc_conv_geom *g, size_t row_bytes, size_t budget) {
  const int32_t kh = eff_kh(g), s = g->stride_h;
  size_t rows = row_bytes ? budget / row_bytes : 1;
  if (rows < (size_t)kh) rows = (size_t)kh;
  int32_t r = (int32_t)((rows - (size_t)kh) / (size_t)s) + 1;
  if (r > g->out_h) r = g->out_h;
  return r < 1 ? 1 : r;
}

size_t tfcc_xdw_window_bytes(const tfcc_conv_geom *g, size_t row_bytes, int32_t strip) {
  size_t rows = (size_t)(strip - 1) * (size_t)g->stride_h + (size_t)eff_kh(g);
  if (rows > (size_t)g->in_h) rows = (size_t)g->in_h; /* never more than the image */
  return (rows * row_bytes + 63) & ~(size_t)63;
}

/* Output rows [oy_a, oy_b) of image b through the window at the start of thread. */
static void image_rows(const tfcc_xdw_walk *w, int32_t b, int32_t oy_a, int32_t oy_b,
                       uint8_t *thread) {
  const tfcc_conv_geom *g = w->g;
  const int32_t s = g->stride_h, kh = eff_kh(g);
  const size_t rowb = w->row_bytes;
  uint8_t *buf = thread;
  int32_t have_lo = 0, have_hi = 0; /* image rows in the window, from slot 0 */
  for (int32_t oy0 = oy_a; oy0 < oy_b; oy0 += w->strip) {
    const int32_t oy1 = oy0 + w->strip < oy_b ? oy0 + w->strip : oy_b;
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
      w->expand(w->ctx, b, from, need_hi, buf + (size_t)(from - need_lo) * rowb, thread);
    have_lo = need_lo;
    have_hi = need_hi;
    /* the strip's depthwise over the window: input row 0 is image row need_lo */
    tfcc_conv_geom win = *g;
    win.batches = 1;
    win.in_h = need_hi - need_lo;
    win.out_h = oy1 - oy0;
    win.pad_h = g->pad_h - oy0 * s + need_lo;
    w->dw(w->ctx, b, oy0, &win, buf, thread);
  }
}

typedef struct walk_job {
  const tfcc_xdw_walk *w;
  int32_t rows, rows_per_task;
} walk_job;

static void walk_task(void *ctx, size_t task, int thread) {
  const walk_job *j = ctx;
  const tfcc_conv_geom *g = j->w->g;
  uint8_t *part = j->w->scratch + (size_t)thread * j->w->thread_bytes;
  int32_t r = (int32_t)task * j->rows_per_task;
  const int32_t r1 = r + j->rows_per_task < j->rows ? r + j->rows_per_task : j->rows;
  while (r < r1) { /* one image's rows at a time */
    const int32_t b = r / g->out_h, oy = r % g->out_h;
    const int32_t n = r1 - r < g->out_h - oy ? r1 - r : g->out_h - oy;
    image_rows(j->w, b, oy, oy + n, part);
    r += n;
  }
}

/* Whole-image mode (expand_pool): the depthwise over image rows [0, out_h) as the window of
 * image rows [need_lo, need_hi) at the start of scratch, output rows split over the tasks. */
typedef struct whole_job {
  const tfcc_xdw_walk *w;
  int32_t b, need_lo, need_hi, rows_per_task;
} whole_job;

static void whole_dw_task(void *ctx, size_t task, int thread) {
  const whole_job *j = ctx;
  const tfcc_conv_geom *g = j->w->g;
  const int32_t oy0 = (int32_t)task * j->rows_per_task;
  const int32_t oy1 = oy0 + j->rows_per_task < g->out_h ? oy0 + j->rows_per_task : g->out_h;
  if (oy0 >= oy1) return;
  tfcc_conv_geom win = *g;
  win.batches = 1;
  win.in_h = j->need_hi - j->need_lo;
  win.out_h = oy1 - oy0;
  win.pad_h = g->pad_h - oy0 * g->stride_h + j->need_lo;
  j->w->dw(j->w->ctx, j->b, oy0, &win, j->w->scratch,
           j->w->scratch + (size_t)thread * j->w->thread_bytes);
}

static void whole_images(struct tfcc_threadpool *pool, const tfcc_xdw_walk *w, int threads) {
  const tfcc_conv_geom *g = w->g;
  whole_job j = {w, 0, 0, 0, 0};
  j.need_lo = -g->pad_h;
  j.need_hi = (g->out_h - 1) * g->stride_h - g->pad_h + eff_kh(g);
  if (j.need_lo < 0) j.need_lo = 0;
  if (j.need_hi > g->in_h) j.need_hi = g->in_h;
  if (j.need_hi < j.need_lo) j.need_hi = j.need_lo;
  /* chunks of max(1, out_h / (4 x threads)) rows (rounded down: 14 rows at 2 threads are 14
   * chunks, 7 each, not 7 chunks of 2, 4 and 3): a thread that a busy machine stops
   * mid-region leaves its unstarted chunks to the others (the pool's stealing) */
  j.rows_per_task = g->out_h / (4 * threads);
  if (j.rows_per_task < 1) j.rows_per_task = 1;
  const int32_t tasks = (g->out_h + j.rows_per_task - 1) / j.rows_per_task;
  for (int32_t b = 0; b < g->batches; b++) {
    j.b = b;
    if (j.need_hi > j.need_lo) w->expand_pool(w->ctx, pool, b, j.need_lo, j.need_hi, w->scratch);
    tfcc_threadpool_run(pool, (size_t)tasks, whole_dw_task, &j);
  }
}

void tfcc_xdw_walk_run(struct tfcc_threadpool *pool, const tfcc_xdw_walk *w, double macs) {
  walk_job j = {w, w->g->batches * w->g->out_h, 0};
  int threads = tfcc_threadpool_size(pool);
  if (macs < 256.0 * 1024.0) { /* small layers: waking workers costs more than it saves */
    threads = 1;
    pool = NULL;
  }
  if (threads > 1 && w->expand_pool && w->strip >= w->g->out_h && w->g->out_h > 1) {
    whole_images(pool, w, threads);
    return;
  }
  int32_t tasks = threads > 1 ? threads : 1;
  if (tasks > j.rows) tasks = j.rows;
  j.rows_per_task = (j.rows + tasks - 1) / tasks;
  tasks = (j.rows + j.rows_per_task - 1) / j.rows_per_task;
  tfcc_threadpool_run(pool, (size_t)tasks, walk_task, &j);
}
