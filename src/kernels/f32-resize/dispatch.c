/* f32 bilinear resize dispatch table, coordinate tables and row-parallel driver. */
#include "kernels/f32-resize/resize.h"
#include "kernels/dispatch_table.h"

#include "base/threadpool.h"

#define RS_ROW(name, fn, sfx, level) \
  { name "-" #sfx, level, fn##_##sfx, fn##_xnn_##sfx }
static const tfcc_f32_resize_kernel kernels[] = {
    TFCC_KERNEL_ROWS(RS_ROW, "f32-resize", tfcc_f32_resize)};
TFCC_DISPATCH_TABLE_FNS(tfcc_f32_resize, tfcc_f32_resize_kernel)

size_t tfcc_f32_resize_scratch_bytes(const tfcc_resize_shape *s) {
  return sizeof(tfcc_f32_resize_tab) *
         ((size_t)(s->out_w > 0 ? s->out_w : 0) + (size_t)(s->out_h > 0 ? s->out_h : 0));
}

typedef struct rs_job {
  const tfcc_f32_resize_kernel *k;
  const tfcc_resize_shape *s;
  const float *in;
  float *out;
  const tfcc_f32_resize_tab *xt, *yt;
} rs_job;

static void rs_range(void *ctx, size_t r0, size_t r1) {
  const rs_job *j = ctx;
  j->k->fn(j->s, j->in, j->out, j->xt, j->yt, (int32_t)r0, (int32_t)r1);
}

/* rows tasks of task over the pool (one thread below 64 Ki outputs) */
static void rs_run(struct tfcc_threadpool *pool, const tfcc_resize_shape *s, rs_job *j,
                   int32_t rows, tfcc_range_fn task) {
  int threads = tfcc_threadpool_size(pool);
  if ((double)s->batch * s->out_h * s->out_w * s->depth < 64.0 * 1024.0) threads = 1;
  tfcc_threadpool_run_split(threads > 1 ? pool : NULL, (size_t)rows,
                            threads > 1 ? 4 * (size_t)threads : 1, task, j);
}

void tfcc_f32_resize_bilinear(struct tfcc_threadpool *pool, const tfcc_f32_resize_kernel *k,
                              const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                              const float *in, float *out, void *scratch) {
  if (s->batch <= 0 || s->out_h <= 0 || s->out_w <= 0 || s->depth <= 0) return;
  rs_job j = {k, s, in, out, NULL, NULL};
  int32_t rows;
  if (tfcc_ref_resize_f32_is_2x(s, align_corners, half_pixel)) {
    rows = s->batch * s->in_h;
  } else {
    tfcc_f32_resize_tab *xt = scratch, *yt = xt + s->out_w;
    float hs, ws, v;
    tfcc_ref_resize_scales_f32(s, align_corners, &hs, &ws);
    for (int32_t x = 0; x < s->out_w; x++) {
      tfcc_ref_resize_interp_f32(x, ws, half_pixel, s->in_w, &v, &xt[x].lo, &xt[x].hi);
      xt[x].frac = v - (float)xt[x].lo;
    }
    for (int32_t y = 0; y < s->out_h; y++) {
      tfcc_ref_resize_interp_f32(y, hs, half_pixel, s->in_h, &v, &yt[y].lo, &yt[y].hi);
      yt[y].frac = v - (float)yt[y].lo;
    }
    j.xt = xt;
    j.yt = yt;
    rows = s->batch * s->out_h;
  }
  rs_run(pool, s, &j, rows, rs_range);
}

/* rs_range with the kernel's XNNPACK-order function */
static void rs_range_xnn(void *ctx, size_t r0, size_t r1) {
  const rs_job *j = ctx;
  j->k->fn_xnn(j->s, j->in, j->out, j->xt, j->yt, (int32_t)r0, (int32_t)r1);
}

void tfcc_f32_resize_bilinear_xnn(struct tfcc_threadpool *pool, const tfcc_f32_resize_kernel *k,
                                  const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                  const float *in, float *out, void *scratch) {
  if (s->batch <= 0 || s->out_h <= 0 || s->out_w <= 0 || s->depth <= 0) return;
  tfcc_f32_resize_tab *xt = scratch, *yt = xt + s->out_w;
  for (int32_t x = 0; x < s->out_w; x++)
    xt[x].frac = tfcc_xnn_resize_coord_f32(x, s->in_w, s->out_w, align_corners, half_pixel,
                                           &xt[x].lo, &xt[x].hi) -
                 (float)xt[x].lo;
  for (int32_t y = 0; y < s->out_h; y++)
    yt[y].frac = tfcc_xnn_resize_coord_f32(y, s->in_h, s->out_h, align_corners, half_pixel,
                                           &yt[y].lo, &yt[y].hi) -
                 (float)yt[y].lo;
  rs_job j = {k, s, in, out, xt, yt};
  rs_run(pool, s, &j, s->batch * s->out_h, rs_range_xnn);
}
