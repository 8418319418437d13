/* Fused hybrid expand 1x1 + XNNPACK-order float depthwise driver (contract in expand_dw.h). */
#include "kernels/hybrid/expand_dw.h"

#include "kernels/expand_dw_strips.h"

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* One thread's part: [window][q: pixels x cin bytes][zp][scale][GEMM scratch], pixels the
 * window's rows x in_w (the most one expand call makes). */
typedef struct hxdw_part {
  size_t window, pixels, q, zp, scale, gemm;
} hxdw_part;

static hxdw_part part_layout(const tfcc_hyb_expand_dw *k, const tfcc_conv_geom *g, int32_t cin) {
  hxdw_part p;
  p.window = tfcc_xdw_window_bytes(g, tfcc_xdw_f32_row_bytes(g), tfcc_xdw_f32_strip_rows(g));
  p.pixels = p.window / tfcc_xdw_f32_row_bytes(g) * (size_t)g->in_w;
  p.q = align64(p.pixels * (size_t)cin);
  p.zp = align64(p.pixels * sizeof(int32_t));
  p.scale = align64(p.pixels * sizeof(float));
  p.gemm = align64(tfcc_q8_hybrid_scratch_bytes(NULL, k->packed, 1));
  return p;
}

static size_t part_bytes(const hxdw_part *p) {
  return p->window + p->q + p->zp + p->scale + p->gemm;
}

size_t tfcc_hyb_expand_dw_scratch_bytes(const tfcc_hyb_expand_dw *k, const tfcc_conv_geom *g,
                                        int32_t cin, int threads) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->in_c <= 0 || g->in_w <= 0 || cin <= 0)
    return 0;
  const hxdw_part p = part_layout(k, g, cin);
  return part_bytes(&p) * (size_t)(threads > 1 ? threads : 1);
}

typedef struct hxdw_job {
  const tfcc_hyb_expand_dw *k;
  const tfcc_conv_geom *g;
  int32_t cin;
  hxdw_part part;
  const float *x;
  float *out;
} hxdw_job;

/* the strip walk's halves (kernels/expand_dw_strips.h): the expand as the unfused node runs it
   (ops/hybrid.c, conv_per_pixel): qd8 of each pixel into the GEMM's uint8 bytes, then the
   hybrid GEMM into the window */
static void expand_rows(void *ctx, int32_t b, int32_t from, int32_t to, uint8_t *dst,
                        uint8_t *thread) {
  const hxdw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const size_t pixels = (size_t)(to - from) * (size_t)g->in_w, cin = (size_t)j->cin;
  uint8_t *q = thread + j->part.window;
  int32_t *zp = (int32_t *)(void *)(q + j->part.q);
  float *scale = (float *)(void *)((uint8_t *)zp + j->part.zp);
  void *gemm = (uint8_t *)scale + j->part.scale;
  const float *x = j->x + ((size_t)b * (size_t)g->in_h + (size_t)from) * (size_t)g->in_w * cin;
  j->k->qd8_rows(x, cin, pixels, (int8_t *)q, scale, zp, 128);
  tfcc_q8_hybrid h = j->k->stage;
  h.c = (float *)(void *)dst;
  h.c_stride = (size_t)g->in_c;
  h.zp = zp;
  h.scale = scale;
  h.rows_per_group = 1;
  tfcc_q8_gemm_hybrid(NULL, j->k->packed, &h, (int32_t)pixels, q, cin, gemm);
}

static void dw_rows(void *ctx, int32_t b, int32_t oy0, const tfcc_conv_geom *w,
                    const uint8_t *window, uint8_t *thread) {
  (void)thread;
  const hxdw_job *j = ctx;
  const tfcc_hyb_expand_dw *k = j->k;
  const tfcc_conv_geom *g = j->g;
  float *o =
      j->out + ((size_t)b * (size_t)g->out_h + (size_t)oy0) * (size_t)g->out_w * (size_t)g->in_c;
  const float *in = (const float *)(const void *)window;
  if (k->dw)
    k->dw(w, in, k->dw_filter, k->dw_bias, k->lo, k->hi, o, 0, w->out_h);
  else
    tfcc_xnn_dwconv_f32_rows(w, in, k->dw_filter, k->dw_bias, k->lo, k->hi, o, 0, w->out_h);
}

void tfcc_hyb_expand_dw_run(struct tfcc_threadpool *pool, const tfcc_hyb_expand_dw *k,
                            const tfcc_conv_geom *g, int32_t cin, const float *x, float *out,
                            void *scratch) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->in_c <= 0 || cin <= 0) return;
  hxdw_job j = {k, g, cin, part_layout(k, g, cin), x, out};
  const int32_t strip = tfcc_xdw_f32_strip_rows(g);
  /* strips only (no expand_pool): the pass fuses the hybrid pair where the expanded image
   * spans many windows (MobileNetV2's first pair, 112x112) */
  const tfcc_xdw_walk w = {
      g,   tfcc_xdw_f32_row_bytes(g), strip, scratch, part_bytes(&j.part), expand_rows, dw_rows, &j,
      NULL};
  const double macs =
      (double)g->batches * g->in_h * g->in_w * g->in_c * cin +
      (double)g->batches * g->out_h * g->out_w * g->in_c * g->filter_h * g->filter_w;
  tfcc_xdw_walk_run(pool, &w, macs);
}
