/* MediaPipe's custom operators over tfcc's public custom-operator API (see mediapipe_ops.h).
 *
 * Options are the raw bytes MediaPipe's converter stores in custom_options: a copy of
 * TensorFlow Lite's C parameter structs, int32 fields in the host's byte order
 *   pooling (MaxPoolingWithArgmax2D, MaxUnpooling2D): TfLitePoolParams
 *     {padding, stride_width, stride_height, filter_width, filter_height, activation, ...}
 *   Convolution2DTransposeBias: TfLiteTransposeConvParams {padding, stride_width, stride_height}
 * with padding 1 = SAME, 2 = VALID and activation 0 = none, 1 = RELU, 2 = RELU_N1_TO_1,
 * 3 = RELU6 (as TFLite's builtin_op_data.h numbers them). Only the leading fields are read. */
#include "mediapipe_ops.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PAD_SAME = 1, PAD_VALID = 2 };
/* Largest stride or filter size accepted (keeps index arithmetic within int32 for any tensor
 * tfcc can hold). */
#define LIMIT 65536

enum { ACT_NONE = 0, ACT_RELU = 1, ACT_RELU_N1_TO_1 = 2, ACT_RELU6 = 3 };

typedef struct pool_opts {
  int32_t padding, stride_w, stride_h, filter_w, filter_h, activation;
} pool_opts;

typedef struct tconv_opts {
  int32_t padding, stride_w, stride_h;
} tconv_opts;

/* The first n int32 fields of the options, or an error naming the operator's need. */
static tfcc_status read_ints(tfcc_custom_ctx *ctx, int32_t *v, size_t n, const char *what) {
  if (!ctx->options || ctx->options_size < n * sizeof(int32_t))
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL,
                                "custom_options: %zu bytes, %s needs at least %zu (%s)",
                                ctx->options_size, ctx->op_name, n * sizeof(int32_t), what);
  memcpy(v, ctx->options, n * sizeof(int32_t));
  return TFCC_OK;
}

static tfcc_status pool_init(tfcc_custom_ctx *ctx) {
  int32_t v[6];
  tfcc_status st = read_ints(ctx, v, 6, "TfLitePoolParams");
  if (st != TFCC_OK) return st;
  pool_opts o = {v[0], v[1], v[2], v[3], v[4], v[5]};
  if (o.padding != PAD_SAME && o.padding != PAD_VALID)
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL,
                                "padding %d is neither SAME (1) nor VALID (2)", (int)o.padding);
  if (o.stride_w < 1 || o.stride_h < 1 || o.filter_w < 1 || o.filter_h < 1 || o.stride_w > LIMIT ||
      o.stride_h > LIMIT || o.filter_w > LIMIT || o.filter_h > LIMIT)
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL,
                                "stride %dx%d, filter %dx%d: each must be in 1..65536",
                                (int)o.stride_h, (int)o.stride_w, (int)o.filter_h, (int)o.filter_w);
  if (o.activation < ACT_NONE || o.activation > ACT_RELU6)
    return tfcc_custom_op_error(ctx, TFCC_ERR_UNSUPPORTED, "fused activation %d is not supported",
                                (int)o.activation);
  pool_opts *p = malloc(sizeof *p);
  if (!p) return tfcc_custom_op_error(ctx, TFCC_ERR_NO_MEMORY, "out of memory");
  *p = o;
  ctx->node_data = p;
  return TFCC_OK;
}

static tfcc_status tconv_init(tfcc_custom_ctx *ctx) {
  int32_t v[3];
  tfcc_status st = read_ints(ctx, v, 3, "TfLiteTransposeConvParams");
  if (st != TFCC_OK) return st;
  tconv_opts o = {v[0], v[1], v[2]};
  if (o.padding != PAD_SAME && o.padding != PAD_VALID)
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL,
                                "padding %d is neither SAME (1) nor VALID (2)", (int)o.padding);
  if (o.stride_w < 1 || o.stride_h < 1 || o.stride_w > LIMIT || o.stride_h > LIMIT)
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL,
                                "stride %dx%d: each must be in 1..65536", (int)o.stride_h,
                                (int)o.stride_w);
  tconv_opts *p = malloc(sizeof *p);
  if (!p) return tfcc_custom_op_error(ctx, TFCC_ERR_NO_MEMORY, "out of memory");
  *p = o;
  ctx->node_data = p;
  return TFCC_OK;
}

static void free_opts(void *op_user, void *node_data) {
  (void)op_user;
  free(node_data);
}

/* Checks count, rank 4 and float32 of the node's tensors. */
static tfcc_status check_io(tfcc_custom_ctx *ctx, int n_in, int n_out) {
  if (ctx->input_count != n_in || ctx->output_count != n_out)
    return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL,
                                "%d inputs and %d outputs, needs %d and %d", (int)ctx->input_count,
                                (int)ctx->output_count, n_in, n_out);
  for (int k = 0; k < n_in; k++) {
    const tfcc_custom_tensor *t = ctx->inputs[k];
    if (!t) return tfcc_custom_op_error(ctx, TFCC_ERR_INVALID_MODEL, "input %d is omitted", k);
    if (t->dtype != TFCC_FLOAT32)
      return tfcc_custom_op_error(ctx, TFCC_ERR_DTYPE, "input %d is %s, needs float32", k,
                                  tfcc_dtype_name(t->dtype));
  }
  for (int k = 0; k < n_out; k++)
    if (ctx->outputs[k]->dtype != TFCC_FLOAT32)
      return tfcc_custom_op_error(ctx, TFCC_ERR_DTYPE, "output %d is %s, needs float32", k,
                                  tfcc_dtype_name(ctx->outputs[k]->dtype));
  return TFCC_OK;
}

static tfcc_status need_rank(tfcc_custom_ctx *ctx, int k, int rank) {
  if (ctx->inputs[k]->rank != rank)
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "input %d has rank %d, needs %d", k,
                                (int)ctx->inputs[k]->rank, rank);
  return TFCC_OK;
}

static void set_nhwc(tfcc_custom_tensor *t, int32_t n, int32_t h, int32_t w, int32_t c) {
  t->rank = 4;
  t->dims[0] = n;
  t->dims[1] = h;
  t->dims[2] = w;
  t->dims[3] = c;
}

/* TFLite's ComputePadding (dilation 1): the leading padding for out positions over in. */
static int32_t leading_pad(int32_t stride, int32_t in, int32_t filter, int32_t out) {
  int64_t p = ((int64_t)(out - 1) * stride + filter - in) / 2;
  return p > 0 ? (int32_t)p : 0;
}

/* ---------------------------------------------------------------- MaxPoolingWithArgmax2D */

static tfcc_status argmax_pool_prepare(tfcc_custom_ctx *ctx) {
  const pool_opts *o = ctx->node_data;
  tfcc_status st = check_io(ctx, 1, 2);
  if (st == TFCC_OK) st = need_rank(ctx, 0, 4);
  if (st != TFCC_OK) return st;
  const int32_t *d = ctx->inputs[0]->dims;
  /* TensorFlow's GetWindowedOutputSize */
  int32_t oh = o->padding == PAD_SAME ? (d[1] + o->stride_h - 1) / o->stride_h
                                      : (d[1] - o->filter_h + o->stride_h) / o->stride_h;
  int32_t ow = o->padding == PAD_SAME ? (d[2] + o->stride_w - 1) / o->stride_w
                                      : (d[2] - o->filter_w + o->stride_w) / o->stride_w;
  if (oh < 0) oh = 0;
  if (ow < 0) ow = 0;
  set_nhwc(ctx->outputs[0], d[0], oh, ow, d[3]);
  set_nhwc(ctx->outputs[1], d[0], oh, ow, d[3]);
  return TFCC_OK;
}

static void act_range(int32_t act, float *lo, float *hi) {
  *lo = -FLT_MAX;
  *hi = FLT_MAX;
  if (act == ACT_RELU) *lo = 0.f;
  if (act == ACT_RELU6) *lo = 0.f, *hi = 6.f;
  if (act == ACT_RELU_N1_TO_1) *lo = -1.f, *hi = 1.f;
}

static tfcc_status argmax_pool_eval(tfcc_custom_ctx *ctx) {
  const pool_opts *o = ctx->node_data;
  const tfcc_custom_tensor *in = ctx->inputs[0];
  tfcc_custom_tensor *out = ctx->outputs[0], *idx = ctx->outputs[1];
  const int32_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  const int32_t oh = out->dims[1], ow = out->dims[2];
  const int32_t pad_h = leading_pad(o->stride_h, h, o->filter_h, oh);
  const int32_t pad_w = leading_pad(o->stride_w, w, o->filter_w, ow);
  float lo, hi;
  act_range(o->activation, &lo, &hi);
  const float *x = in->data;
  float *y = out->data, *yi = idx->data;
  for (int32_t b = 0; b < n; b++)
    for (int32_t oy = 0; oy < oh; oy++)
      for (int32_t ox = 0; ox < ow; ox++) {
        const int32_t y0 = oy * o->stride_h - pad_h, x0 = ox * o->stride_w - pad_w;
        const int32_t fy0 = y0 < 0 ? -y0 : 0, fx0 = x0 < 0 ? -x0 : 0;
        const int32_t fy1 = o->filter_h < h - y0 ? o->filter_h : h - y0;
        const int32_t fx1 = o->filter_w < w - x0 ? o->filter_w : w - x0;
        const size_t at = (((size_t)b * oh + oy) * ow + ox) * c;
        for (int32_t ch = 0; ch < c; ch++) {
          float m = -FLT_MAX;
          int32_t my = 0, mx = 0;
          for (int32_t fy = fy0; fy < fy1; fy++)
            for (int32_t fx = fx0; fx < fx1; fx++) {
              const float v = x[(((size_t)b * h + y0 + fy) * w + x0 + fx) * c + ch];
              if (v > m) m = v, my = fy, mx = fx; /* the first maximum in row-major window order */
            }
          y[at + ch] = m < lo ? lo : m > hi ? hi : m;
          /* the position in the window, as a float (MediaPipe adds 0.1 so that truncation back to
           * an integer is exact) */
          yi[at + ch] = (float)(my * o->filter_w + mx) + 0.1f;
        }
      }
  return TFCC_OK;
}

/* ---------------------------------------------------------------- MaxUnpooling2D */

static tfcc_status unpool_prepare(tfcc_custom_ctx *ctx) {
  const pool_opts *o = ctx->node_data;
  tfcc_status st = check_io(ctx, 2, 1);
  if (st == TFCC_OK) st = need_rank(ctx, 0, 4);
  if (st == TFCC_OK) st = need_rank(ctx, 1, 4);
  if (st != TFCC_OK) return st;
  const int32_t *d = ctx->inputs[0]->dims, *di = ctx->inputs[1]->dims;
  for (int k = 0; k < 4; k++)
    if (d[k] != di[k])
      return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE,
                                  "indices (input 1) dimension %d is %d, values have %d", k,
                                  (int)di[k], (int)d[k]);
  /* MediaPipe's output: the input scaled by the filter size (not the stride) */
  if ((int64_t)d[1] * o->filter_h > INT32_MAX || (int64_t)d[2] * o->filter_w > INT32_MAX)
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "output of %dx%d x filter %dx%d is too large",
                                (int)d[1], (int)d[2], (int)o->filter_h, (int)o->filter_w);
  set_nhwc(ctx->outputs[0], d[0], d[1] * o->filter_h, d[2] * o->filter_w, d[3]);
  return TFCC_OK;
}

static tfcc_status unpool_eval(tfcc_custom_ctx *ctx) {
  const pool_opts *o = ctx->node_data;
  const tfcc_custom_tensor *in = ctx->inputs[0], *ind = ctx->inputs[1];
  tfcc_custom_tensor *out = ctx->outputs[0];
  const int32_t n = in->dims[0], h = in->dims[1], w = in->dims[2], c = in->dims[3];
  const int32_t oh = out->dims[1], ow = out->dims[2];
  const int32_t pad_h = leading_pad(o->stride_h, oh, o->filter_h, h);
  const int32_t pad_w = leading_pad(o->stride_w, ow, o->filter_w, w);
  const float *x = in->data, *xi = ind->data;
  float *y = out->data;
  memset(y, 0, out->bytes);
  for (int32_t b = 0; b < n; b++)
    for (int32_t iy = 0; iy < h; iy++)
      for (int32_t ix = 0; ix < w; ix++)
        for (int32_t ch = 0; ch < c; ch++) {
          const size_t at = (((size_t)b * h + iy) * w + ix) * c + ch;
          const float fi = xi[at];
          /* truncated to an integer as MediaPipe does; one that is not a number or out of int32
           * range writes nothing (C leaves that conversion undefined), nor does a position
           * outside the output */
          if (!(fi > -2147483648.f && fi < 2147483648.f)) continue;
          const int32_t k = (int32_t)fi;
          const int64_t oy = (int64_t)iy * o->stride_h - pad_h + k / o->filter_w;
          const int64_t ox = (int64_t)ix * o->stride_w - pad_w + k % o->filter_w;
          if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
          y[(((size_t)b * oh + oy) * ow + ox) * c + ch] = x[at];
        }
  return TFCC_OK;
}

/* ---------------------------------------------------------------- Convolution2DTransposeBias */

/* Total padding (SAME) of one dimension, as MediaPipe's kernel computes it. */
static int32_t tconv_pad_total(const tconv_opts *o, int32_t in, int32_t filter, int32_t stride) {
  if (o->padding != PAD_SAME) return 0;
  int32_t p = filter - (in - 1) % stride - 1;
  return p > 0 ? p : 0;
}

static tfcc_status tconv_prepare(tfcc_custom_ctx *ctx) {
  const tconv_opts *o = ctx->node_data;
  tfcc_status st = check_io(ctx, 3, 1);
  if (st == TFCC_OK) st = need_rank(ctx, 0, 4);
  if (st == TFCC_OK) st = need_rank(ctx, 1, 4);
  if (st == TFCC_OK) st = need_rank(ctx, 2, 1);
  if (st != TFCC_OK) return st;
  const int32_t *d = ctx->inputs[0]->dims, *wd = ctx->inputs[1]->dims, *bd = ctx->inputs[2]->dims;
  if (wd[3] != d[3])
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE,
                                "weights (OHWI) have %d input channels, the input %d", (int)wd[3],
                                (int)d[3]);
  if (bd[0] != wd[0])
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE,
                                "bias has %d values, the weights %d output channels", (int)bd[0],
                                (int)wd[0]);
  if (d[1] < 1 || d[2] < 1)
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "input is %dx%d, needs at least 1x1",
                                (int)d[1], (int)d[2]);
  const int64_t oh =
      (int64_t)o->stride_h * (d[1] - 1) + wd[1] - tconv_pad_total(o, d[1], wd[1], o->stride_h);
  const int64_t ow =
      (int64_t)o->stride_w * (d[2] - 1) + wd[2] - tconv_pad_total(o, d[2], wd[2], o->stride_w);
  if (oh > INT32_MAX || ow > INT32_MAX)
    return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "output %lldx%lld is too large", (long long)oh,
                                (long long)ow);
  set_nhwc(ctx->outputs[0], d[0], (int32_t)oh, (int32_t)ow, wd[0]);
  return TFCC_OK;
}

static tfcc_status tconv_eval(tfcc_custom_ctx *ctx) {
  const tconv_opts *o = ctx->node_data;
  const tfcc_custom_tensor *in = ctx->inputs[0], *wt = ctx->inputs[1], *bias = ctx->inputs[2];
  tfcc_custom_tensor *out = ctx->outputs[0];
  const int32_t n = in->dims[0], h = in->dims[1], w = in->dims[2], ic = in->dims[3];
  const int32_t oc = wt->dims[0], fh = wt->dims[1], fw = wt->dims[2];
  const int32_t oh = out->dims[1], ow = out->dims[2];
  const int32_t pad_h = tconv_pad_total(o, h, fh, o->stride_h) / 2;
  const int32_t pad_w = tconv_pad_total(o, w, fw, o->stride_w) / 2;
  const float *x = in->data, *f = wt->data, *bv = bias->data;
  float *y = out->data;
  for (int32_t b = 0; b < n; b++) {
    float *yb = y + (size_t)b * oh * ow * oc;
    for (size_t p = 0; p < (size_t)oh * ow; p++)
      memcpy(yb + p * oc, bv, sizeof(float) * (size_t)oc);
    /* scatter: each input pixel adds its filter-weighted values to the outputs it reaches, in
     * the order MediaPipe's reference loop adds them (input row, column, channel, then filter
     * row, column, output channel) */
    for (int32_t iy = 0; iy < h; iy++)
      for (int32_t ix = 0; ix < w; ix++)
        for (int32_t ci = 0; ci < ic; ci++) {
          const float v = x[(((size_t)b * h + iy) * w + ix) * ic + ci];
          for (int32_t fy = 0; fy < fh; fy++) {
            const int32_t oy = iy * o->stride_h - pad_h + fy;
            if (oy < 0 || oy >= oh) continue;
            for (int32_t fx = 0; fx < fw; fx++) {
              const int32_t ox = ix * o->stride_w - pad_w + fx;
              if (ox < 0 || ox >= ow) continue;
              float *yo = yb + ((size_t)oy * ow + ox) * oc;
              const float *fo = f + ((size_t)fy * fw + fx) * ic + ci; /* [co][fy][fx][ci] */
              const size_t fstride = (size_t)fh * fw * ic;
              for (int32_t co = 0; co < oc; co++) yo[co] += v * fo[co * fstride];
            }
          }
        }
  }
  return TFCC_OK;
}

/* ---------------------------------------------------------------- registration */

tfcc_status mediapipe_ops_register(tfcc_runtime *rt) {
  static const struct {
    const char *name;
    tfcc_custom_fn init, prepare, eval;
  } ops[] = {
      {"MaxPoolingWithArgmax2D", pool_init, argmax_pool_prepare, argmax_pool_eval},
      {"MaxUnpooling2D", pool_init, unpool_prepare, unpool_eval},
      {"Convolution2DTransposeBias", tconv_init, tconv_prepare, tconv_eval},
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    tfcc_custom_op op;
    tfcc_custom_op_default(&op);
    op.name = ops[i].name;
    op.init = ops[i].init;
    op.prepare = ops[i].prepare;
    op.eval = ops[i].eval;
    op.free = free_opts;
    tfcc_status st = tfcc_runtime_register_custom_op(rt, &op);
    if (st != TFCC_OK) return st;
  }
  return TFCC_OK;
}
