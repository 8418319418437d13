/* RESIZE_BILINEAR: inputs (input NHWC, size int32 [2] known); ResizeBilinearOptions fields
 * 2 align_corners, 3 half_pixel_centers. float32, uint8, int8, int16 (see kernels/ref/resize.h
 * for which TFLite kernel each dtype matches). */
#include "ops/resize_common.h"
#include "ops/shape_ops_util.h"

#define OP "RESIZE_BILINEAR"

static tfcc_status rb_prepare(tfcc_op_ctx *ctx) {
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16, -1};
  return tfcc_resize_prepare_common(ctx, OP, ok, tfcc_fb_bool(&ctx->node->options, 2, false),
                                    tfcc_fb_bool(&ctx->node->options, 3, false));
}

static tfcc_status rb_eval(tfcc_op_ctx *ctx) {
  tfcc_resize_shape s;
  tfcc_resize_shape_of(ctx, &s);
  const bool align = tfcc_fb_bool(&ctx->node->options, 2, false);
  const bool half = tfcc_fb_bool(&ctx->node->options, 3, false);
  const void *in = ctx->in[0]->data;
  void *out = ctx->out[0]->data;
  switch (ctx->in[0]->dtype) {
    case TFCC_FLOAT32: tfcc_ref_resize_bilinear_f32(&s, align, half, in, out); break;
    case TFCC_UINT8: tfcc_ref_resize_bilinear_u8(&s, align, half, in, out); break;
    case TFCC_INT8: tfcc_ref_resize_bilinear_i8(&s, align, half, in, out); break;
    case TFCC_INT16: tfcc_ref_resize_bilinear_i16(&s, align, half, in, out); break;
    default:
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, OP ": dtype %s",
                          tfcc_dtype_name(ctx->in[0]->dtype));
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_resize_bilinear = {.name = OP, .prepare = rb_prepare, .eval = rb_eval};
