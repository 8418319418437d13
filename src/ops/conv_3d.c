/* CONV_3D and CONV_3D_TRANSPOSE, float32 (TFLite conv3d.cc, conv3d_transpose.cc): NDHWC
 * activations, Conv3DOptions (padding SAME/VALID, strides, dilations, fused activation).
 * CONV_3D: inputs (input [n, d, h, w, in_c], filter [fd, fh, fw, in_c, out_c], optional bias
 * [out_c]). CONV_3D_TRANSPOSE: inputs (output_shape int32 [5], known at prepare; filter
 * [fd, fh, fw, out_c, in_c]; input; optional bias), padding computed from the output size as
 * TFLite's ComputePadding3DValues. Reference loops in kernels/ref/conv3d.c. */
#include <string.h>

#include "kernels/ref/conv3d.h"
#include "kernels/ref/quant_util.h"
#include "ops/op.h"
#include "ops/work_estimate.h"

static bool is_transpose(const tfcc_op_ctx *ctx) {
  return ctx->node && ctx->node->builtin == TFCC_OP_CONV_3D_TRANSPOSE;
}

#define CHECK_(cond, code, ...) \
  do { \
    if (!(cond)) { \
      tfcc_err_set(ctx->err, (code), __VA_ARGS__); \
      return tfcc_err_prefix(ctx->err, "%s", is_transpose(ctx) ? "CONV_3D_TRANSPOSE" : "CONV_3D"); \
    } \
  } while (0)

/* TFLite's ComputeOutSize and ComputePaddingWithOffset (the "before" padding). */
static int64_t out_size(int32_t pad, int64_t in, int64_t k, int64_t stride, int64_t dil) {
  const int64_t eff = (k - 1) * dil + 1; /* int64: a file's dilation of 1.7e9 passes int32 */
  return pad == TFCC_PAD_SAME ? (in + stride - 1) / stride : (in - eff + stride) / stride;
}
/* Whether the window positions of an axis ((out - 1) * stride + (k - 1) * dil + 1, the kernels'
 * int32 index arithmetic) and its forward output fit int32 (as tfcc_conv_geom_fits for 2-D). */
static bool axis_fits(int64_t k, int64_t stride, int64_t dil, int64_t out) {
  return out > 0 && out <= INT32_MAX && (out - 1) * stride + (k - 1) * dil + 1 <= INT32_MAX;
}
static int32_t pad_before(int32_t stride, int32_t dil, int32_t in, int32_t k, int32_t out) {
  const int64_t total = (int64_t)(out - 1) * stride + (int64_t)(k - 1) * dil + 1 - in;
  return total > 0 ? (int32_t)(total / 2) : 0;
}

static tfcc_status geom(tfcc_op_ctx *ctx, tfcc_conv3d_geom *g, const tfcc_tensor **bias) {
  memset(g, 0, sizeof *g);
  const bool tr = is_transpose(ctx);
  const tfcc_conv3d_options *o = &ctx->node->opts.conv3d;
  const int want = tr ? 3 : 2;
  CHECK_(ctx->n_in >= want && ctx->n_in <= want + 1 && ctx->n_out == 1, TFCC_ERR_INVALID_MODEL,
         "%d inputs, expected %d or %d", (int)ctx->n_in, want, want + 1);
  const tfcc_tensor *in = ctx->in[tr ? 2 : 0], *f = ctx->in[tr ? 1 : 1];
  *bias = ctx->n_in > want ? ctx->in[want] : NULL;
  CHECK_(in && f, TFCC_ERR_INVALID_MODEL, "input and filter are required");
  CHECK_(in->dtype == TFCC_FLOAT32 && f->dtype == TFCC_FLOAT32 &&
             ctx->out[0]->dtype == TFCC_FLOAT32 && (!*bias || (*bias)->dtype == TFCC_FLOAT32),
         TFCC_ERR_UNSUPPORTED, "only float32 (input %s, filter %s)", tfcc_dtype_name(in->dtype),
         tfcc_dtype_name(f->dtype));
  CHECK_(in->rank == 5 && f->rank == 5, TFCC_ERR_SHAPE,
         "input and filter must have rank 5 (got %d, %d)", (int)in->rank, (int)f->rank);
  g->batches = in->dims[0];
  g->in_d = in->dims[1];
  g->in_h = in->dims[2];
  g->in_w = in->dims[3];
  g->in_c = in->dims[4];
  g->f_d = f->dims[0];
  g->f_h = f->dims[1];
  g->f_w = f->dims[2];
  g->out_c = tr ? f->dims[3] : f->dims[4];
  CHECK_((tr ? f->dims[4] : f->dims[3]) == g->in_c, TFCC_ERR_SHAPE,
         "filter input channels %d, input has %d", (int)(tr ? f->dims[4] : f->dims[3]),
         (int)g->in_c);
  CHECK_(g->f_d > 0 && g->f_h > 0 && g->f_w > 0, TFCC_ERR_SHAPE, "empty filter");
  CHECK_(!*bias || tfcc_tensor_elements(*bias) == g->out_c, TFCC_ERR_SHAPE,
         "bias must have %d elements", (int)g->out_c);
  g->stride_d = o->stride_d;
  g->stride_h = o->stride_h;
  g->stride_w = o->stride_w;
  g->dil_d = o->dilation_d;
  g->dil_h = o->dilation_h;
  g->dil_w = o->dilation_w;
  CHECK_(g->stride_d > 0 && g->stride_h > 0 && g->stride_w > 0 && g->dil_d > 0 && g->dil_h > 0 &&
             g->dil_w > 0,
         TFCC_ERR_INVALID_MODEL, "strides and dilations must be positive");
  if (!tr) {
    const int64_t od = out_size(o->padding, g->in_d, g->f_d, g->stride_d, g->dil_d);
    const int64_t oh = out_size(o->padding, g->in_h, g->f_h, g->stride_h, g->dil_h);
    const int64_t ow = out_size(o->padding, g->in_w, g->f_w, g->stride_w, g->dil_w);
    CHECK_(od > 0 && oh > 0 && ow > 0, TFCC_ERR_SHAPE, "filter larger than the input");
    CHECK_(axis_fits(g->f_d, g->stride_d, g->dil_d, od) &&
               axis_fits(g->f_h, g->stride_h, g->dil_h, oh) &&
               axis_fits(g->f_w, g->stride_w, g->dil_w, ow),
           TFCC_ERR_UNSUPPORTED,
           "window positions (output %lld x %lld x %lld, strides %d, %d, %d, dilations %d, %d, "
           "%d) pass int32",
           (long long)od, (long long)oh, (long long)ow, (int)g->stride_d, (int)g->stride_h,
           (int)g->stride_w, (int)g->dil_d, (int)g->dil_h, (int)g->dil_w);
    g->out_d = (int32_t)od;
    g->out_h = (int32_t)oh;
    g->out_w = (int32_t)ow;
    g->pad_d = pad_before(g->stride_d, g->dil_d, g->in_d, g->f_d, g->out_d);
    g->pad_h = pad_before(g->stride_h, g->dil_h, g->in_h, g->f_h, g->out_h);
    g->pad_w = pad_before(g->stride_w, g->dil_w, g->in_w, g->f_w, g->out_w);
    return TFCC_OK;
  }
  const tfcc_tensor *os = ctx->in[0];
  CHECK_(os && os->dtype == TFCC_INT32 && tfcc_tensor_elements(os) == 5, TFCC_ERR_SHAPE,
         "output_shape must be an int32 [5]");
  CHECK_(os->data && (os->is_const || os->known), TFCC_ERR_UNSUPPORTED,
         "output_shape must be known at prepare (constant)");
  const int32_t *s = os->data;
  CHECK_(s[0] == g->batches && s[4] == g->out_c && s[1] > 0 && s[2] > 0 && s[3] > 0, TFCC_ERR_SHAPE,
         "output_shape [%d, %d, %d, %d, %d] does not match batch %d and %d output channels",
         (int)s[0], (int)s[1], (int)s[2], (int)s[3], (int)s[4], (int)g->batches, (int)g->out_c);
  g->out_d = s[1];
  g->out_h = s[2];
  g->out_w = s[3];
  /* padding from the output size (the "input" of the forward convolution) */
  const int64_t fd64 = out_size(o->padding, g->out_d, g->f_d, g->stride_d, g->dil_d);
  const int64_t fh64 = out_size(o->padding, g->out_h, g->f_h, g->stride_h, g->dil_h);
  const int64_t fw64 = out_size(o->padding, g->out_w, g->f_w, g->stride_w, g->dil_w);
  CHECK_((fd64 <= 0 || axis_fits(g->f_d, g->stride_d, g->dil_d, fd64)) &&
             (fh64 <= 0 || axis_fits(g->f_h, g->stride_h, g->dil_h, fh64)) &&
             (fw64 <= 0 || axis_fits(g->f_w, g->stride_w, g->dil_w, fw64)),
         TFCC_ERR_UNSUPPORTED,
         "window positions (strides %d, %d, %d, dilations %d, %d, %d) pass int32", (int)g->stride_d,
         (int)g->stride_h, (int)g->stride_w, (int)g->dil_d, (int)g->dil_h, (int)g->dil_w);
  const int32_t fd = (int32_t)fd64, fh = (int32_t)fh64, fw = (int32_t)fw64;
  g->pad_d = pad_before(g->stride_d, g->dil_d, g->out_d, g->f_d, fd);
  g->pad_h = pad_before(g->stride_h, g->dil_h, g->out_h, g->f_h, fh);
  g->pad_w = pad_before(g->stride_w, g->dil_w, g->out_w, g->f_w, fw);
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  CHECK_(ctx->node, TFCC_ERR_STATE, "no options");
  tfcc_conv3d_geom g;
  const tfcc_tensor *bias;
  tfcc_status st = geom(ctx, &g, &bias);
  if (st != TFCC_OK) return st;
  const int32_t dims[5] = {g.batches, g.out_d, g.out_h, g.out_w, g.out_c};
  return tfcc_tensor_set_shape(ctx->out[0], 5, dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  tfcc_conv3d_geom g;
  const tfcc_tensor *bias;
  tfcc_status st = geom(ctx, &g, &bias);
  if (st != TFCC_OK) return st;
  float lo, hi;
  tfcc_act_range_f32(ctx->node->opts.conv3d.activation, &lo, &hi);
  const float *b = bias ? bias->data : NULL;
  if (is_transpose(ctx))
    tfcc_conv3d_transpose_f32(&g, ctx->in[2]->data, ctx->in[1]->data, b, lo, hi, ctx->out[0]->data);
  else
    tfcc_conv3d_f32(&g, ctx->in[0]->data, ctx->in[1]->data, b, lo, hi, ctx->out[0]->data);
  return TFCC_OK;
}

static int64_t macs(const tfcc_op_ctx *ctx) {
  tfcc_conv3d_geom g;
  const tfcc_tensor *bias;
  tfcc_op_quiet q;
  if (!ctx->node || geom(tfcc_op_quiet_ctx(ctx, &q), &g, &bias) != TFCC_OK) return 0;
  const int64_t k =
      tfcc_work_mul(tfcc_work_mul3(g.f_d, g.f_h, g.f_w), tfcc_work_mul(g.in_c, g.out_c));
  const int64_t k_b = tfcc_work_mul(k, g.batches);
  return is_transpose(ctx) ? tfcc_work_mul(k_b, tfcc_work_mul3(g.in_d, g.in_h, g.in_w))
                           : tfcc_work_mul(k_b, tfcc_work_mul3(g.out_d, g.out_h, g.out_w));
}

const tfcc_op_def tfcc_op_conv_3d = {
    .name = "CONV_3D", .prepare = prepare, .eval = eval, .macs = macs};
const tfcc_op_def tfcc_op_conv_3d_transpose = {
    .name = "CONV_3D_TRANSPOSE", .prepare = prepare, .eval = eval, .macs = macs};
