/* Shared operator logic of the 2-D pooling operators; the contract is in pool_common.h. */
#include "ops/pool_common.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "base/threadpool.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/tflite-f32/xnn_avgpool.h"
#include "kernels/pool/pool.h"
#include "kernels/ref/pool.h"
#include "kernels/ref/quant_util.h"
#include "ops/conv_common.h"
#include "ops/f32_fast.h"
#include "ops/hybrid.h"
#include "ops/work_estimate.h"

typedef struct pool_params {
  tfcc_pool_kind kind;
  tfcc_pool_options o; /* the node's options */
  tfcc_window_opts w;  /* its window: padding (SAME, VALID, or fuse_pad's explicit), strides */
  int32_t qmin, qmax;  /* quantized activation range (from the output's quantization) */
  const char *name;
  bool xnn; /* float AVERAGE_POOL_2D in XNNPACK's order (a hybrid subgraph) */
  tfcc_xnn_avgpool_order xnn_order; /* over 9 taps: LiteRT's multipass order or the older one */
  atomic_bool logged;               /* KERNEL_FALLBACK noted */
} pool_params;

static const char *kind_name(tfcc_pool_kind k) {
  return k == TFCC_POOL_AVG ? "AVERAGE_POOL_2D" : k == TFCC_POOL_MAX ? "MAX_POOL_2D" : "L2_POOL_2D";
}

tfcc_status tfcc_pool_init(tfcc_init_ctx *ctx, tfcc_pool_kind kind) {
  const tfcc_pool_options *po = &ctx->node->opts.pool;
  tfcc_window_opts w;
  tfcc_status st = tfcc_window_opts_set(&w, po->padding, po->stride_w, po->stride_h, 1, 1,
                                        po->activation, po->pad, ctx->err);
  if (st != TFCC_OK) return st;
  if (po->filter_w <= 0 || po->filter_h <= 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "filter %dx%d must be positive",
                        (int)po->filter_h, (int)po->filter_w);
  int32_t qmin = 0, qmax = 0;
  const tfcc_ir_tensor *out = tfcc_conv_ir_output(ctx, 0);
  if (out && (out->dtype == TFCC_UINT8 || out->dtype == TFCC_INT8 || out->dtype == TFCC_INT16) &&
      (st = tfcc_conv_act_range(out->dtype, po->activation, &out->quant, &qmin, &qmax, ctx->err)) !=
          TFCC_OK)
    return st;
  pool_params *p = calloc(1, sizeof(*p));
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for pool params");
  p->kind = kind;
  p->name = kind_name(kind);
  p->o = *po;
  p->w = w;
  p->qmin = qmin;
  p->qmax = qmax;
  /* in a subgraph with hybrid nodes, LiteRT's XNNPACK delegate runs the float average pooling
     before them, and so does the classic interpreter's (REFERENCE mode: it leaves only the
     hybrid nodes to the builtin kernels); windows over 9 taps in their XNNPACK's multipass
     order (the older one of the classic interpreter differs) */
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0);
  p->xnn = kind == TFCC_POOL_AVG && in && in->dtype == TFCC_FLOAT32 &&
           (tfcc_hybrid_xnn_float(ctx) || tfcc_hybrid_ref_delegated_float(ctx));
  p->xnn_order = ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE ? TFCC_XNN_AVGPOOL_9P8X
                                                                  : TFCC_XNN_AVGPOOL_9P;
  ctx->params = p;
  return TFCC_OK;
}

static tfcc_status pool_geom(const tfcc_op_ctx *ctx, tfcc_conv_geom *g) {
  const pool_params *p = ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  if (in->rank != 4)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input rank %d, expected 4", (int)in->rank);
  g->batches = in->dims[0];
  g->in_h = in->dims[1];
  g->in_w = in->dims[2];
  g->in_c = g->out_c = in->dims[3];
  g->filter_h = p->o.filter_h;
  g->filter_w = p->o.filter_w;
  g->filter_in_c = 1;
  tfcc_conv_geom_strides(g, &p->w); /* dilation 1 */
  /* SAME / VALID as TFLite's; explicit (fuse_pad): VALID over the padded input, the leading
     padding in pad_h / pad_w, the trailing in out_h / out_w; the kernels clip the window to
     the image either way */
  tfcc_status st = tfcc_conv_window(&p->w, g, ctx->err);
  if (st != TFCC_OK) return st;
  int64_t n;
  if (!tfcc_conv_count(4, in->dims, &n))
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input too large");
  return TFCC_OK;
}

tfcc_status tfcc_pool_prepare(tfcc_op_ctx *ctx) {
  const pool_params *p = ctx->params;
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "pool not initialised");
  if (ctx->n_in < 1 || !ctx->in[0] || ctx->n_out < 1 || !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s needs one input and one output",
                        p->name);
  const tfcc_tensor *in = ctx->in[0];
  tfcc_status st = tfcc_conv_expect_dtype(ctx->out[0], "output", in->dtype, ctx->err);
  if (st != TFCC_OK) return st;
  bool ok = in->dtype == TFCC_FLOAT32 ||
            (p->kind != TFCC_POOL_L2 &&
             (in->dtype == TFCC_UINT8 || in->dtype == TFCC_INT8 || in->dtype == TFCC_INT16));
  if (!ok)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: input dtype %s unsupported", p->name,
                        tfcc_dtype_name(in->dtype));
  if (in->dtype != TFCC_FLOAT32 && p->qmin == 0 && p->qmax == 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: output quantization missing",
                        p->name);
  tfcc_conv_geom g;
  st = pool_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  ctx->scratch_bytes = 0;
  if (p->kind != TFCC_POOL_L2 && !tfcc_pool_fast_ok(&g, p->kind == TFCC_POOL_AVG, in->dtype))
    tfcc_f32_log_fallback_once(&((pool_params *)p)->logged, ctx, p->name,
                               in->dtype == TFCC_INT16 ? "int16 average window over 511 taps"
                                                       : "average window over 65535 taps");
  return tfcc_conv_geom_set_output(ctx->out[0], &g, ctx->err);
}

/* XNNPACK's float average pooling over the pool: one output row (b, oy) a task. */
typedef struct xnn_avgpool_job {
  const tfcc_conv_geom *g;
  const float *in;
  float *out;
  float lo, hi;
  tfcc_xnn_avgpool_order order;
} xnn_avgpool_job;

/* The older XNNPACK (REFERENCE mode) runs an average pooling whose window is the whole input,
 * unpadded, as global average pooling (f32-gavgpool 7p7x); LiteRT's keeps its pooling order. */
static bool xnn_avgpool_global_old(const pool_params *p, const tfcc_conv_geom *g) {
  return p->xnn_order == TFCC_XNN_AVGPOOL_9P8X && g->filter_h == g->in_h &&
         g->filter_w == g->in_w && g->out_h == 1 && g->out_w == 1 && g->pad_h == 0 && g->pad_w == 0;
}

static void xnn_avgpool_task(void *ctx, size_t t, int thread) {
  (void)thread;
  const xnn_avgpool_job *j = ctx;
  tfcc_xnn_avgpool_f32_rows(j->g, j->in, j->lo, j->hi, j->order, j->out, (int32_t)t,
                            (int32_t)t + 1);
}

tfcc_status tfcc_pool_eval(tfcc_op_ctx *ctx) {
  const pool_params *p = ctx->params;
  tfcc_conv_geom g;
  tfcc_status st = pool_geom(ctx, &g);
  if (st != TFCC_OK) return st;
  /* an empty output (a zero width or channel count): nothing to compute, however many batches
   * and rows the loops would walk (a [33554688, 47, 0, 0] input ran for minutes) */
  if (ctx->out[0]->bytes == 0) return TFCC_OK;
  const void *in = ctx->in[0]->data;
  void *out = ctx->out[0]->data;
  float lo, hi;
  tfcc_act_range_f32(p->o.activation, &lo, &hi);
  const int32_t ql = p->qmin, qh = p->qmax;
  const tfcc_dtype dt = ctx->in[0]->dtype;
  if (p->xnn && dt == TFCC_FLOAT32 && xnn_avgpool_global_old(p, &g)) {
    tfcc_xnn_gavgpool_f32_old(in, (size_t)g.batches, (size_t)g.in_h * (size_t)g.in_w,
                              (size_t)g.in_c, lo, hi, out);
    return TFCC_OK;
  }
  if (p->xnn && dt == TFCC_FLOAT32 && tfcc_xnn_avgpool_fits(&g)) {
    xnn_avgpool_job j = {&g, in, out, lo, hi, p->xnn_order};
    const int32_t rows = g.batches * g.out_h;
    if (rows > 0 && g.out_w > 0) tfcc_threadpool_run(ctx->pool, (size_t)rows, xnn_avgpool_task, &j);
    return TFCC_OK;
  }
  if (p->kind != TFCC_POOL_L2 && tfcc_pool_fast_ok(&g, p->kind == TFCC_POOL_AVG, dt)) {
    const tfcc_pool_job j = {&g, p->kind == TFCC_POOL_AVG, dt, in, out, lo, hi, ql, qh};
    tfcc_pool_run(ctx->pool, ctx->ks->pool, &j);
    return TFCC_OK;
  }
  if (dt == TFCC_FLOAT32) {
    if (p->kind == TFCC_POOL_AVG)
      tfcc_avgpool_f32(&g, in, lo, hi, out);
    else if (p->kind == TFCC_POOL_MAX)
      tfcc_maxpool_f32(&g, in, lo, hi, out);
    else
      tfcc_l2pool_f32(&g, in, lo, hi, out);
    return TFCC_OK;
  }
  /* prepare admits no quantized L2 pool */
  return tfcc_pool_q(p->kind == TFCC_POOL_AVG, dt, &g, in, ql, qh, out)
             ? TFCC_OK
             : tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "input dtype unsupported");
}

/* The taps eval walks (tfcc_op_info.macs): per output element, the window clipped to the image,
 * or the whole window in XNNPACK's order (its taps in the padding read the zero row). A window
 * as wide as the image over every pixel is quadratic in the input: a 512 x 512 SAME pooling
 * with a 512 x 512 filter is 6.9e10 taps. */
int64_t tfcc_pool_macs(const tfcc_op_ctx *ctx) {
  const pool_params *p = ctx->params;
  if (!p || ctx->n_in < 1 || !ctx->in[0]) return 0;
  tfcc_conv_geom g;
  tfcc_op_quiet q;
  if (pool_geom(tfcc_op_quiet_ctx(ctx, &q), &g) != TFCC_OK) return 0;
  const bool whole = p->xnn && ctx->in[0]->dtype == TFCC_FLOAT32 &&
                     !xnn_avgpool_global_old(p, &g) && tfcc_xnn_avgpool_fits(&g);
  const int64_t fh = whole || g.filter_h < g.in_h ? g.filter_h : g.in_h;
  const int64_t fw = whole || g.filter_w < g.in_w ? g.filter_w : g.in_w;
  int64_t n = tfcc_work_mul(tfcc_work_mul(g.batches, g.out_h), tfcc_work_mul(g.out_w, g.out_c));
  return tfcc_work_mul(n, tfcc_work_mul(fh, fw));
}

const char *tfcc_pool_kernel_name(const tfcc_op_ctx *ctx) {
  const pool_params *p = ctx->params;
  if (!p || p->kind == TFCC_POOL_L2 || ctx->n_in < 1 || !ctx->in[0]) return "ref";
  tfcc_conv_geom g;
  tfcc_op_quiet q;
  if (pool_geom(tfcc_op_quiet_ctx(ctx, &q), &g) != TFCC_OK) return "ref";
  if (p->xnn && ctx->in[0]->dtype == TFCC_FLOAT32 && xnn_avgpool_global_old(p, &g))
    return "xnn-gavgpool-old";
  if (p->xnn && ctx->in[0]->dtype == TFCC_FLOAT32 && tfcc_xnn_avgpool_fits(&g))
    return "xnn-avgpool";
  return tfcc_pool_fast_ok(&g, p->kind == TFCC_POOL_AVG, ctx->in[0]->dtype) ? ctx->ks->pool->name
                                                                            : "ref";
}
