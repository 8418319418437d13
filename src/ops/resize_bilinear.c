/* RESIZE_BILINEAR: inputs (input NHWC, size int32 [2] known); ResizeBilinearOptions fields
 * 2 align_corners, 3 half_pixel_centers. float32, uint8, int8, int16 (see kernels/ref/resize.h
 * for which TFLite kernel each dtype matches). */
#include "ops/resize_common.h"
#include "ops/shape_ops_util.h"

#include <stdlib.h>

#include "kernels/f32-resize/resize.h"
#include "kernels/q8-resize/bilinear_u8.h"
#include "kernels/q8-resize/resize.h"
#include "kernels/ref/resize.h"
#include "ops/conv_common.h"
#include "ops/hybrid.h"
#include "ops/xnn_delegate.h"

#define OP "RESIZE_BILINEAR"

/* Whether TFLite's XNNPACK delegate runs this node: taken by its partitioner
 * (ops/xnn_delegate.h) with the same input/output quantization (XNNPACK resizes without
 * requantizing; with different ones the delegate fails as a whole and the model loads in
 * REFERENCE arithmetic, runtime/model.c). */
typedef struct rb_params {
  bool half; /* half_pixel_centers as run: TFLITE mode clears it beside align_corners where the
                XNNPACK delegate takes the node (LiteRT.js resizes such a node with aligned
                corners; conformance xnn_resize_bilinear_align_and_half_*); TFLite's builtin
                kernel refuses the pair, and so does REFERENCE mode */
  bool xnn;
  bool xnn_f32; /* float32 where TFLite's XNNPACK delegate takes the node (rb_xnn_f32): XNNPACK's
                   f32 lerps (tfcc_f32_resize_bilinear_xnn, tfcc_xnn_resize_bilinear_f32's bits) */
} rb_params;

/* whether a float32 node runs XNNPACK's arithmetic. TFLITE mode, any model: LiteRT's
 * delegate takes a rank-4 float resize whose size is a constant of the file (a size tfcc
 * folded at load is computed by the graph to TFLite, whose delegate then leaves the node to
 * the builtin kernel: conformance float_resize_bilinear_computed_size); before exact53 only in
 * models with hybrid nodes, so an int16x8 twin's float RESIZE_BILINEAR output (DeepLab's) was
 * up to 3.8e-6 off LiteRT. REFERENCE mode: in a hybrid subgraph the classic interpreter
 * delegates; elsewhere the builtin kernel's bits. */
static bool rb_xnn_f32(const tfcc_init_ctx *ctx, const tfcc_ir_tensor *in, const tfcc_ir_tensor *sz,
                       const tfcc_ir_tensor *out) {
  if (!in || !out || !sz || in->dtype != TFCC_FLOAT32 || out->dtype != TFCC_FLOAT32 ||
      in->rank != 4 || !sz->data)
    return false;
  if (ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE) return !sz->folded;
  return tfcc_hybrid_ref_delegated_float(ctx) &&
         !(ctx->node->opts.resize.align_corners && ctx->node->opts.resize.half_pixel_centers);
}

static tfcc_status rb_init(tfcc_init_ctx *ctx) {
  rb_params *p = calloc(1, sizeof *p);
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, 0), *sz = tfcc_conv_ir_input(ctx, 1);
  const tfcc_ir_tensor *out = tfcc_conv_ir_output(ctx, 0);
  const bool align = ctx->node->opts.resize.align_corners;
  bool half = ctx->node->opts.resize.half_pixel_centers;
  if (align && half && ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE && in && out && sz &&
      sz->data && in->rank == 4 && in->dtype == out->dtype &&
      (in->dtype == TFCC_FLOAT32 || in->dtype == TFCC_UINT8 || in->dtype == TFCC_INT8))
    half = false;
  p->half = half;
  p->xnn_f32 = rb_xnn_f32(ctx, in, sz, out);
  if (ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE &&
      tfcc_xnn_takes_resize_bilinear(in, sz, out, align, half) &&
      in->quant.scale[0] == out->quant.scale[0] &&
      in->quant.zero_point[0] == out->quant.zero_point[0])
    p->xnn = true;
  ctx->params = p;
  return TFCC_OK;
}

/* The XNNPACK-arithmetic 8-bit path (vectorised q8-resize kernels). */
static bool rb_xnn(const tfcc_op_ctx *ctx) {
  const rb_params *p = ctx->params;
  return p && p->xnn && (ctx->in[0]->dtype == TFCC_UINT8 || ctx->in[0]->dtype == TFCC_INT8);
}

static tfcc_status rb_prepare(tfcc_op_ctx *ctx) {
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16, -1};
  const rb_params *p = ctx->params;
  tfcc_status st =
      tfcc_resize_prepare_common(ctx, OP, ok, ctx->node->opts.resize.align_corners,
                                 p ? p->half : ctx->node->opts.resize.half_pixel_centers);
  if (st) return st;
  ctx->scratch_bytes = 0;
  tfcc_resize_shape s;
  tfcc_resize_shape_of(ctx, &s);
  if (rb_xnn(ctx)) ctx->scratch_bytes = tfcc_q8_resize_scratch_bytes(&s);
  if (ctx->in[0]->dtype == TFCC_FLOAT32)
    ctx->scratch_bytes = tfcc_f32_resize_scratch_bytes(&s);
  else if (ctx->in[0]->dtype == TFCC_UINT8 && !rb_xnn(ctx))
    ctx->scratch_bytes = tfcc_q8_resize_bilinear_u8_scratch_bytes(&s);
  return TFCC_OK;
}

static tfcc_status rb_eval(tfcc_op_ctx *ctx) {
  tfcc_resize_shape s;
  tfcc_resize_shape_of(ctx, &s);
  const bool align = ctx->node->opts.resize.align_corners;
  const bool half = ctx->params ? ((const rb_params *)ctx->params)->half
                                : ctx->node->opts.resize.half_pixel_centers;
  const void *in = ctx->in[0]->data;
  void *out = ctx->out[0]->data;
  if (rb_xnn(ctx)) {
    TFCC_OP_CHECK(ctx, ctx->scratch && ctx->scratch_bytes >= tfcc_q8_resize_scratch_bytes(&s),
                  TFCC_ERR_STATE, OP ": scratch missing");
    tfcc_q8_resize_bilinear(ctx->pool, ctx->ks->q8_resize, &s, align, half,
                            ctx->in[0]->dtype == TFCC_INT8, in, out, ctx->scratch);
    return TFCC_OK;
  }
  if (ctx->in[0]->dtype == TFCC_FLOAT32) {
    TFCC_OP_CHECK(ctx, ctx->scratch && ctx->scratch_bytes >= tfcc_f32_resize_scratch_bytes(&s),
                  TFCC_ERR_STATE, OP ": scratch missing");
    if (ctx->params && ((const rb_params *)ctx->params)->xnn_f32)
      tfcc_f32_resize_bilinear_xnn(ctx->pool, ctx->ks->f32_resize, &s, align, half, in, out,
                                   ctx->scratch);
    else
      tfcc_f32_resize_bilinear(ctx->pool, ctx->ks->f32_resize, &s, align, half, in, out,
                               ctx->scratch);
    return TFCC_OK;
  }
  if (ctx->in[0]->dtype == TFCC_UINT8) {
    /* TFLite's builtin float arithmetic (align_corners, or different input/output
     * quantization): tfcc_ref_resize_bilinear_u8 is this kernel's twin */
    const size_t need = tfcc_q8_resize_bilinear_u8_scratch_bytes(&s);
    TFCC_OP_CHECK(ctx, need == 0 || (ctx->scratch && ctx->scratch_bytes >= need), TFCC_ERR_STATE,
                  OP ": scratch missing");
    tfcc_q8_resize_bilinear_u8_float(&s, align, half, in, out, ctx->scratch);
    return TFCC_OK;
  }
  switch (ctx->in[0]->dtype) {
    case TFCC_INT8: tfcc_ref_resize_bilinear_i8(&s, align, half, in, out); break;
    case TFCC_INT16: tfcc_ref_resize_bilinear_i16(&s, align, half, in, out); break;
    default:
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, OP ": dtype %s",
                          tfcc_dtype_name(ctx->in[0]->dtype));
  }
  return TFCC_OK;
}

static const char *rb_kernel(const tfcc_op_ctx *ctx) {
  if (ctx->n_in < 1 || !ctx->in[0]) return "ref";
  if (ctx->in[0]->dtype == TFCC_FLOAT32)
    return ctx->params && ((const rb_params *)ctx->params)->xnn_f32 ? "xnn-f32-ibilinear"
                                                                    : ctx->ks->f32_resize->name;
  if (rb_xnn(ctx)) return ctx->ks->q8_resize->name;
  return ctx->in[0]->dtype == TFCC_UINT8 ? "q8-resize-u8-float" : "ref";
}

const tfcc_op_def tfcc_op_resize_bilinear = {
    .name = OP, .init = rb_init, .prepare = rb_prepare, .eval = rb_eval, .kernel = rb_kernel};
