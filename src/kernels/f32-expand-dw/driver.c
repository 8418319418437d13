/* Fused expand 1x1 + depthwise driver (contract in expand_dw.h). */
#include "kernels/f32-expand-dw/expand_dw.h"
#include "kernels/expand_dw_strips.h"

const char *tfcc_f32_expand_dw_name(const tfcc_f32_dwconv_kernel *dw) {
  switch (dw ? dw->isa : TFCC_ISA_GENERIC) {
    case TFCC_ISA_AVX512: return "f32-expand-dw-avx512";
    case TFCC_ISA_AVX2: return "f32-expand-dw-avx2";
    case TFCC_ISA_SSE4: return "f32-expand-dw-sse4";
    case TFCC_ISA_NEON: return "f32-expand-dw-neon";
    case TFCC_ISA_WASMSIMD: return "f32-expand-dw-wasmsimd";
    default: return "f32-expand-dw-scalar";
  }
}

size_t tfcc_f32_expand_dw_scratch_bytes(const tfcc_conv_geom *g, int threads) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->in_c <= 0 || g->in_w <= 0) return 0;
  return tfcc_xdw_window_bytes(g, tfcc_xdw_f32_row_bytes(g), tfcc_xdw_f32_strip_rows(g)) *
         (size_t)(threads > 1 ? threads : 1);
}

typedef struct xdw_job {
  const tfcc_f32_expand_dw *k;
  const tfcc_conv_geom *g;
  const float *x;
  float *out;
} xdw_job;

/* the strip walk's halves (kernels/expand_dw_strips.h) */
static void expand_rows_pool(void *ctx, struct tfcc_threadpool *pool, int32_t b, int32_t from,
                             int32_t to, uint8_t *dst) {
  const xdw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const size_t xrow = (size_t)g->in_w * (size_t)j->k->expand->kdim;
  tfcc_f32_gemm(pool, j->k->expand, (to - from) * g->in_w,
                j->x + ((size_t)b * (size_t)g->in_h + (size_t)from) * xrow,
                (size_t)j->k->expand->kdim, (float *)(void *)dst, (size_t)g->in_c, j->k->expand_lo,
                j->k->expand_hi);
}

static void expand_rows(void *ctx, int32_t b, int32_t from, int32_t to, uint8_t *dst,
                        uint8_t *thread) {
  (void)thread;
  expand_rows_pool(ctx, NULL, b, from, to, dst);
}

static void dw_rows(void *ctx, int32_t b, int32_t oy0, const tfcc_conv_geom *w,
                    const uint8_t *window, uint8_t *thread) {
  (void)thread;
  const xdw_job *j = ctx;
  const tfcc_f32_expand_dw *k = j->k;
  const tfcc_conv_geom *g = j->g;
  float *o =
      j->out + ((size_t)b * (size_t)g->out_h + (size_t)oy0) * (size_t)g->out_w * (size_t)g->in_c;
  k->dw->fn(w, (const float *)(const void *)window, k->dw_filter, k->dw_bias, k->lo, k->hi, o, 0,
            w->out_h);
}

void tfcc_f32_expand_dw_run(struct tfcc_threadpool *pool, const tfcc_f32_expand_dw *k,
                            const tfcc_conv_geom *g, const float *x, float *out, void *scratch) {
  if (g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0 || g->in_c <= 0) return;
  xdw_job j = {k, g, x, out};
  const int32_t strip = tfcc_xdw_f32_strip_rows(g);
  const tfcc_xdw_walk w = {g,
                           tfcc_xdw_f32_row_bytes(g),
                           strip,
                           scratch,
                           tfcc_xdw_window_bytes(g, tfcc_xdw_f32_row_bytes(g), strip),
                           expand_rows,
                           dw_rows,
                           &j,
                           expand_rows_pool};
  const double macs =
      (double)g->batches * g->in_h * g->in_w * g->in_c * k->expand->kdim +
      (double)g->batches * g->out_h * g->out_w * g->in_c * g->filter_h * g->filter_w;
  tfcc_xdw_walk_run(pool, &w, macs);
}
