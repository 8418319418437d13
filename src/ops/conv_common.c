#include "ops/conv_common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/quant_util.h"
#include "kernels/ref/xnn_quant.h"

tfcc_status tfcc_conv_out_size(int32_t padding, int32_t in, int32_t filter, int32_t stride,
                               int32_t dilation, int32_t *out, tfcc_err *err) {
  if (stride <= 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "stride %d must be positive", (int)stride);
  if (dilation <= 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "dilation %d must be positive", (int)dilation);
  if (filter <= 0)
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "filter size %d must be positive", (int)filter);
  if (in < 0) return tfcc_err_set(err, TFCC_ERR_SHAPE, "input size %d is negative", (int)in);
  int64_t eff = (int64_t)(filter - 1) * dilation + 1;
  int64_t o;
  if (padding == TFCC_PAD_SAME) {
    o = ((int64_t)in + stride - 1) / stride;
  } else if (padding == TFCC_PAD_VALID) {
    o = ((int64_t)in + stride - eff) / stride; /* C truncation, as TFLite's int division */
    if (o < 0)
      return tfcc_err_set(err, TFCC_ERR_SHAPE,
                          "VALID padding: effective filter size %lld exceeds input size %d",
                          (long long)eff, (int)in);
  } else {
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "padding type %d unknown", (int)padding);
  }
  if (o > INT32_MAX) return tfcc_err_set(err, TFCC_ERR_SHAPE, "output size overflows");
  *out = (int32_t)o;
  return TFCC_OK;
}

int32_t tfcc_conv_pad(int32_t stride, int32_t dilation, int32_t in, int32_t filter, int32_t out) {
  int64_t eff = (int64_t)(filter - 1) * dilation + 1;
  int64_t total = ((int64_t)out - 1) * stride + eff - in;
  if (total < 0) total = 0;
  int64_t p = total / 2;
  return p > INT32_MAX ? INT32_MAX : (int32_t)p;
}

tfcc_status tfcc_conv_window(const tfcc_window_opts *o, struct tfcc_conv_geom *g, tfcc_err *err) {
  const int32_t padding = o->padding;
  if (padding == TFCC_PAD_EXPLICIT) {
    const int32_t *p = o->pad;
    int64_t ih = (int64_t)g->in_h + p[0] + p[1], iw = (int64_t)g->in_w + p[2] + p[3];
    if (ih > INT32_MAX || iw > INT32_MAX)
      return tfcc_err_set(err, TFCC_ERR_SHAPE, "padded input too large");
    tfcc_status st = tfcc_conv_out_size(TFCC_PAD_VALID, (int32_t)ih, g->filter_h, g->stride_h,
                                        g->dil_h, &g->out_h, err);
    if (st == TFCC_OK)
      st = tfcc_conv_out_size(TFCC_PAD_VALID, (int32_t)iw, g->filter_w, g->stride_w, g->dil_w,
                              &g->out_w, err);
    g->pad_h = p[0];
    g->pad_w = p[2];
    return st;
  }
  tfcc_status st =
      tfcc_conv_out_size(padding, g->in_h, g->filter_h, g->stride_h, g->dil_h, &g->out_h, err);
  if (st != TFCC_OK) return st;
  st = tfcc_conv_out_size(padding, g->in_w, g->filter_w, g->stride_w, g->dil_w, &g->out_w, err);
  if (st != TFCC_OK) return st;
  g->pad_h = tfcc_conv_pad(g->stride_h, g->dil_h, g->in_h, g->filter_h, g->out_h);
  g->pad_w = tfcc_conv_pad(g->stride_w, g->dil_w, g->in_w, g->filter_w, g->out_w);
  return TFCC_OK;
}

void tfcc_conv_geom_input(struct tfcc_conv_geom *g, const int32_t dims[4]) {
  g->batches = dims[0];
  g->in_h = dims[1];
  g->in_w = dims[2];
  g->in_c = dims[3];
}

void tfcc_conv_geom_filter(struct tfcc_conv_geom *g, const int32_t dims[4]) {
  g->out_c = dims[0];
  g->filter_h = dims[1];
  g->filter_w = dims[2];
  g->filter_in_c = dims[3];
}

void tfcc_conv_geom_strides(struct tfcc_conv_geom *g, const tfcc_window_opts *o) {
  g->stride_h = o->stride_h;
  g->stride_w = o->stride_w;
  g->dil_h = o->dil_h;
  g->dil_w = o->dil_w;
}

tfcc_status tfcc_conv_geom_bias(const tfcc_tensor *bias, const struct tfcc_conv_geom *g,
                                tfcc_err *err) {
  if (!bias) return TFCC_OK;
  const int64_t n = tfcc_tensor_elements(bias);
  if (n != g->out_c)
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "bias has %lld elements, expected %d", (long long)n,
                        (int)g->out_c);
  return TFCC_OK;
}

/* The farthest index a window reaches along one axis, over input and output positions both
   (forward convolution walks output positions, TRANSPOSE_CONV input ones) */
static int64_t spatial_span(int32_t in, int32_t out, int32_t stride, int32_t filter, int32_t dil,
                            int32_t pad) {
  const int64_t pos = in > out ? in : out, d = dil > 0 ? dil : 1;
  const int64_t p = pad < 0 ? -(int64_t)pad : pad;
  return pos * (stride > 0 ? stride : 1) + (int64_t)(filter > 0 ? filter : 0) * d + p;
}

tfcc_status tfcc_conv_geom_fits(const tfcc_tensor *in, const struct tfcc_conv_geom *g,
                                tfcc_err *err) {
  int64_t n;
  int32_t od[4] = {g->batches, g->out_h, g->out_w, g->out_c};
  if (!tfcc_conv_count(4, od, &n) || !tfcc_conv_count(4, in->dims, &n))
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "tensor too large");
  /* Kernels index rows and columns in int32: a window placed at any input or output position,
     stride and dilation applied, must stay within it (a fuzzed TRANSPOSE_CONV with 654 M input
     rows at stride 4 overflowed iy * stride_h) */
  const int64_t span_h =
                    spatial_span(g->in_h, g->out_h, g->stride_h, g->filter_h, g->dil_h, g->pad_h),
                span_w =
                    spatial_span(g->in_w, g->out_w, g->stride_w, g->filter_w, g->dil_w, g->pad_w);
  if (span_h > INT32_MAX || span_w > INT32_MAX)
    return tfcc_err_set(err, TFCC_ERR_SHAPE,
                        "%s window positions reach %lld (input %dx%d, output %dx%d, stride %dx%d): "
                        "past the int32 index range",
                        span_h > INT32_MAX ? "row" : "column",
                        (long long)(span_h > INT32_MAX ? span_h : span_w), (int)g->in_h,
                        (int)g->in_w, (int)g->out_h, (int)g->out_w, (int)g->stride_h,
                        (int)g->stride_w);
  return TFCC_OK;
}

tfcc_status tfcc_conv_geom_set_output(tfcc_tensor *out, const struct tfcc_conv_geom *g,
                                      tfcc_err *err) {
  int32_t od[4] = {g->batches, g->out_h, g->out_w, g->out_c};
  return tfcc_tensor_set_shape(out, 4, od, err);
}

tfcc_status tfcc_conv_geom_window(const tfcc_window_opts *o, const tfcc_tensor *in,
                                  struct tfcc_conv_geom *g, tfcc_err *err) {
  tfcc_conv_geom_strides(g, o);
  tfcc_status st = tfcc_conv_window(o, g, err);
  return st != TFCC_OK ? st : tfcc_conv_geom_fits(in, g, err);
}

tfcc_status tfcc_conv_geom_make(const tfcc_window_opts *o, const tfcc_tensor *in,
                                const tfcc_tensor *f, const tfcc_tensor *bias, bool depthwise,
                                struct tfcc_conv_geom *g, tfcc_err *err) {
  if (in->rank != 4)
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "input rank %d, expected 4", (int)in->rank);
  if (f->rank != 4)
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "filter rank %d, expected 4", (int)f->rank);
  if (depthwise && f->dims[0] != 1)
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "filter dimension 0 is %d, expected 1",
                        (int)f->dims[0]);
  tfcc_conv_geom_input(g, in->dims);
  tfcc_conv_geom_filter(g, f->dims);
  if (depthwise) { /* [1, H, W, out_c]: one input channel per output channel */
    g->out_c = f->dims[3];
    g->filter_in_c = 1;
    if (g->in_c <= 0 || g->out_c <= 0 || g->out_c % g->in_c != 0)
      return tfcc_err_set(err, TFCC_ERR_SHAPE,
                          "filter channels %d not a multiple of input channels %d", (int)g->out_c,
                          (int)g->in_c);
  } else {
    if (g->filter_in_c <= 0 || g->in_c <= 0 || g->in_c % g->filter_in_c != 0)
      return tfcc_err_set(err, TFCC_ERR_SHAPE,
                          "input channels %d not a multiple of filter input channels %d",
                          (int)g->in_c, (int)g->filter_in_c);
    const int32_t groups = g->in_c / g->filter_in_c;
    if (g->out_c <= 0 || g->out_c % groups != 0)
      return tfcc_err_set(err, TFCC_ERR_SHAPE, "output channels %d not a multiple of %d groups",
                          (int)g->out_c, (int)groups);
  }
  tfcc_status st = tfcc_conv_geom_bias(bias, g, err);
  return st != TFCC_OK ? st : tfcc_conv_geom_window(o, in, g, err);
}

const tfcc_ir_tensor *tfcc_conv_ir_input(const tfcc_init_ctx *ctx, int32_t i) {
  return tfcc_init_ir_input(ctx, i);
}

const tfcc_ir_tensor *tfcc_conv_ir_output(const tfcc_init_ctx *ctx, int32_t i) {
  return tfcc_init_ir_output(ctx, i);
}

tfcc_status tfcc_conv_check_act(int32_t act, tfcc_err *err) {
  if (act == TFCC_ACT_NONE || act == TFCC_ACT_RELU || act == TFCC_ACT_RELU_N1_TO_1 ||
      act == TFCC_ACT_RELU6)
    return TFCC_OK;
  return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "fused activation %d unsupported", (int)act);
}

tfcc_status tfcc_conv_act_range(tfcc_dtype dt, int32_t act, const tfcc_quant *q, int32_t *lo,
                                int32_t *hi, tfcc_err *err) {
  int32_t qmin, qmax;
  switch (dt) {
    case TFCC_UINT8:
      qmin = 0;
      qmax = 255;
      break;
    case TFCC_INT8:
      qmin = -128;
      qmax = 127;
      break;
    case TFCC_INT16:
      qmin = -32768;
      qmax = 32767;
      break;
    default:
      return tfcc_err_set(err, TFCC_ERR_DTYPE, "output dtype %s is not quantized",
                          tfcc_dtype_name(dt));
  }
  if (!q || q->count < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "output %s tensor has no quantization",
                        tfcc_dtype_name(dt));
  if (!(q->scale[0] > 0.f) || isinf(q->scale[0]))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "output scale %g must be positive and finite",
                        (double)q->scale[0]);
  tfcc_act_range_q(act, q->scale[0], q->zero_point[0], qmin, qmax, lo, hi);
  if (*lo > *hi)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "empty activation range [%d, %d] for output zero point %d", (int)*lo,
                        (int)*hi, (int)q->zero_point[0]);
  return TFCC_OK;
}

static tfcc_status check_shift(int shift, tfcc_err *err) {
  /* tfcc_mbqm handles left shifts up to 30 and right shifts up to 31 (QuantizeMultiplier
   * already zeroes anything below -31); a real multiplier >= 2^30 is a broken model. */
  if (shift > 30)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "effective output multiplier 2^%d too large",
                        shift);
  return TFCC_OK;
}

/* q's scalars (offsets, activation range) and its table length *n, after the checks of the
 * tensors' scales that need no table. */
static tfcc_status qp_scalars(tfcc_conv_qparams *q, const tfcc_ir_tensor *in,
                              const tfcc_ir_tensor *filter, const tfcc_ir_tensor *out, int32_t act,
                              bool per_tensor_float, int32_t *n, tfcc_err *err) {
  memset(q, 0, sizeof *q);
  if (!in || !filter || !out)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "missing input, filter or output tensor");
  if (in->quant.count < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "quantized input has no quantization");
  if (filter->quant.count < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "quantized filter has no quantization");
  if (out->quant.count < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "quantized output has no quantization");
  const float in_scale = in->quant.scale[0];
  const float out_scale = out->quant.scale[0];
  if (!(out_scale > 0.f) || isinf(out_scale))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "output scale %g must be positive and finite",
                        (double)out_scale);
  if (!(in_scale >= 0.f) || isinf(in_scale))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "input scale %g invalid", (double)in_scale);
  *n = per_tensor_float ? 1 : filter->quant.count;
  if (per_tensor_float && filter->quant.count > 1)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "per-channel filter quantization (%d scales) with %s input unsupported",
                        (int)filter->quant.count, tfcc_dtype_name(in->dtype));
  q->input_offset = -in->quant.zero_point[0];
  q->filter_offset = -filter->quant.zero_point[0];
  q->output_offset = out->quant.zero_point[0];
  return tfcc_conv_act_range(out->dtype, act, &out->quant, &q->act_min, &q->act_max, err);
}

/* A tfcc_conv_qparams_node block: this header, int32 mult[n], int32 shift[n], then with
 * QT_ROOM float scale[n] (meaningful with QT_SCALE). */
typedef struct qt_head {
  int32_t n;
  uint32_t flags;
  uint32_t reserved[2]; /* 0 */
} qt_head;
enum { QT_ROOM = 1u, QT_SCALE = 2u };

static size_t qt_bytes(int32_t n, bool room) {
  return sizeof(qt_head) + (size_t)n * (2 * sizeof(int32_t) + (room ? sizeof(float) : 0));
}

/* q's pointers into the tables at t (a block laid out as above). */
static void qt_point(tfcc_conv_qparams *q, const uint8_t *t, int32_t n, uint32_t flags) {
  q->n_mult = n;
  q->mult = (const int32_t *)(const void *)(t + sizeof(qt_head));
  q->shift = q->mult + n;
  q->scale = flags & QT_SCALE ? (const float *)(const void *)(q->shift + n) : NULL;
}

/* The builtin multipliers and shifts of the n channels into t (a table of qt_bytes(n, room)). */
static tfcc_status qt_builtin(uint8_t *t, int32_t n, bool room, const tfcc_ir_tensor *in,
                              const tfcc_ir_tensor *filter, const tfcc_ir_tensor *out,
                              bool per_tensor_float, tfcc_err *err) {
  const qt_head h = {n, room ? QT_ROOM : 0u, {0, 0}};
  memcpy(t, &h, sizeof h);
  int32_t *mult = (int32_t *)(void *)(t + sizeof h), *shift = mult + n;
  const float in_scale = in->quant.scale[0], out_scale = out->quant.scale[0];
  for (int32_t c = 0; c < n; c++) {
    const float fs = filter->quant.scale[c];
    /* A negative per-channel scale (a converter's folded negative batch-norm gamma; the reader
     * takes them on constant per-axis tensors only) gives TFLite's builtin kernels a negative
     * multiplier (QuantizeMultiplier keeps the sign): the channel's outputs change sign. */
    if (!(fs >= 0.f || (fs < 0.f && !per_tensor_float)) || isinf(fs))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "filter scale %d is %g", (int)c, (double)fs);
    double real;
    if (per_tensor_float) /* GetQuantizedConvolutionMultipler: float product, then double */
      real = (double)(in_scale * fs) / (double)out_scale;
    else /* PopulateConvolutionQuantizationParams per channel: all in double */
      real = (double)in_scale * (double)fs / (double)out_scale;
    int32_t m;
    int s;
    tfcc_quantize_multiplier(real, &m, &s);
    tfcc_status st = check_shift(s, err);
    if (st != TFCC_OK) return st;
    mult[c] = m;
    shift[c] = s;
  }
  return TFCC_OK;
}

/* XNNPACK's float scales into the room of table t (xnn_create_convolution2d_nhwc_q*:
 * input_scale * kernel_scale / output_scale, float); false (none set) when one is out of the
 * range XNNPACK takes. */
static bool qt_xnn(uint8_t *t, int32_t n, const tfcc_ir_tensor *in, const tfcc_ir_tensor *filter,
                   const tfcc_ir_tensor *out) {
  float *sc = (float *)(void *)(t + sizeof(qt_head) + (size_t)n * 2 * sizeof(int32_t));
  const float in_scale = in->quant.scale[0], out_scale = out->quant.scale[0];
  for (int32_t c = 0; c < n; c++) {
    const float s = in_scale * filter->quant.scale[c] / out_scale;
    /* XNNPACK refuses the node when it creates the runtime, and the whole delegate fails
     * (ops/xnn_delegate.c): not reached in TFLITE mode for a node the delegate takes; builtin
     * arithmetic */
    if (!(s < 256.f)) return false;
    sc[c] = s;
  }
  const uint32_t flags = QT_ROOM | QT_SCALE;
  memcpy(t + offsetof(qt_head, flags), &flags, sizeof flags);
  return true;
}

/* XNNPACK's activation range of q (its subgraph's quantization of the fused activation). */
static void qt_xnn_range(tfcc_conv_qparams *q, const tfcc_ir_tensor *out, int32_t act) {
  const int32_t qmin = out->dtype == TFCC_UINT8 ? 0 : -128,
                qmax = out->dtype == TFCC_UINT8 ? 255 : 127;
  tfcc_xnn_act_range(act, out->quant.scale[0], out->quant.zero_point[0], qmin, qmax, &q->act_min,
                     &q->act_max);
}

/* The tables of n channels computed into q's own memory. */
static tfcc_status qt_compute(tfcc_conv_qparams *q, int32_t n, bool xnn, const tfcc_ir_tensor *in,
                              const tfcc_ir_tensor *filter, const tfcc_ir_tensor *out, int32_t act,
                              bool per_tensor_float, tfcc_err *err) {
  uint8_t *t = malloc(qt_bytes(n, xnn));
  if (!t) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory for %d multipliers", (int)n);
  tfcc_status st = qt_builtin(t, n, xnn, in, filter, out, per_tensor_float, err);
  if (st != TFCC_OK) {
    free(t);
    return st;
  }
  const bool scaled = xnn && qt_xnn(t, n, in, filter, out);
  if (scaled) qt_xnn_range(q, out, act);
  q->tables = t;
  qt_point(q, t, n, scaled ? QT_SCALE : 0u);
  return TFCC_OK;
}

tfcc_status tfcc_conv_qparams_init(tfcc_conv_qparams *q, const tfcc_ir_tensor *in,
                                   const tfcc_ir_tensor *filter, const tfcc_ir_tensor *out,
                                   int32_t act, bool force_per_tensor_float, tfcc_err *err) {
  const bool ptf = force_per_tensor_float || (in && in->dtype == TFCC_UINT8);
  int32_t n = 0;
  tfcc_status st = qp_scalars(q, in, filter, out, act, ptf, &n, err);
  return st != TFCC_OK ? st : qt_compute(q, n, false, in, filter, out, act, ptf, err);
}

tfcc_status tfcc_conv_qparams_node(tfcc_conv_qparams *q, const tfcc_init_ctx *ctx, uint32_t block,
                                   const tfcc_ir_tensor *in, const tfcc_ir_tensor *filter,
                                   const tfcc_ir_tensor *out, int32_t act,
                                   bool force_per_tensor_float, bool xnn) {
  const bool ptf = force_per_tensor_float || (in && in->dtype == TFCC_UINT8);
  int32_t n = 0;
  tfcc_status st = qp_scalars(q, in, filter, out, act, ptf, &n, ctx->err);
  if (st != TFCC_OK) return st;
  /* per-tensor: one multiplier, not worth a block (and its lookup) */
  const tfcc_packed_key key = tfcc_init_block_key(ctx, n > 1 ? block : 0);
  const size_t bytes = qt_bytes(n, xnn);
  const uint8_t *hit = n > 1 ? tfcc_packed_get(&key, bytes) : NULL;
  qt_head h;
  if (hit) memcpy(&h, hit, sizeof h);
  /* the block of this node's tables: its size is the channels' and the room's, the header says
   * the same (a block of another layout is computed over, never read) */
  if (hit && h.n == n && (h.flags & ~(uint32_t)QT_SCALE) == (xnn ? QT_ROOM : 0u) &&
      (xnn || !(h.flags & QT_SCALE)) && !h.reserved[0] && !h.reserved[1]) {
    if (h.flags & QT_SCALE) qt_xnn_range(q, out, act);
    qt_point(q, hit, n, h.flags);
    return TFCC_OK;
  }
  st = qt_compute(q, n, xnn, in, filter, out, act, ptf, ctx->err);
  if (st == TFCC_OK && n > 1) tfcc_packed_put(&key, q->tables, bytes);
  return st;
}

void tfcc_conv_qparams_free(tfcc_conv_qparams *q) {
  free(q->tables);
  q->tables = NULL;
  q->mult = NULL;
  q->shift = NULL;
  q->scale = NULL;
  q->n_mult = 0;
}

tfcc_status tfcc_conv_check_channels(const tfcc_conv_qparams *q, int32_t channels, tfcc_err *err) {
  if (q->n_mult == 1 || q->n_mult == channels) return TFCC_OK;
  return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                      "filter has %d per-channel scales, expected 1 or %d output channels",
                      (int)q->n_mult, (int)channels);
}

tfcc_status tfcc_conv_expect_dtype(const tfcc_tensor *t, const char *what, tfcc_dtype want,
                                   tfcc_err *err) {
  if (t->dtype == want) return TFCC_OK;
  return tfcc_err_set(err, TFCC_ERR_DTYPE, "%s dtype %s, expected %s", what,
                      tfcc_dtype_name(t->dtype), tfcc_dtype_name(want));
}

bool tfcc_conv_count(int32_t rank, const int32_t *dims, int64_t *n) {
  int64_t c = 1;
  for (int32_t i = 0; i < rank; i++) {
    if (dims[i] < 0) return false;
    c *= dims[i];
    if (c > INT32_MAX) return false;
  }
  *n = c;
  return true;
}

tfcc_status tfcc_conv_check_types(const tfcc_tensor *in, const tfcc_tensor *filter,
                                  const tfcc_tensor *bias, const tfcc_tensor *out, tfcc_err *err) {
  tfcc_dtype want_f, want_out = in->dtype;
  switch (in->dtype) {
    case TFCC_FLOAT32:
      if (filter->dtype != TFCC_FLOAT32)
        return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                            "hybrid float32 input with %s filter unsupported",
                            tfcc_dtype_name(filter->dtype));
      want_f = TFCC_FLOAT32;
      break;
    case TFCC_UINT8: want_f = TFCC_UINT8; break;
    case TFCC_INT8: want_f = TFCC_INT8; break;
    case TFCC_INT16:
      /* TFLite's 16x8 kernels take int8 weights. Its CONV_2D and DEPTHWISE_CONV_2D let an
       * int16 filter through Prepare and then read the filter's first bytes as int8 values
       * (both engines; docs/model_sweep.md, thirty-first batch): no arithmetic to follow. */
      if (filter->dtype == TFCC_INT16)
        return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                            "filter dtype int16, expected int8: int16 activations take int8 "
                            "weights (TensorFlow Lite reads an int16 filter's bytes as int8)");
      want_f = TFCC_INT8;
      break;
    default:
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "input dtype %s unsupported",
                          tfcc_dtype_name(in->dtype));
  }
  tfcc_status st = tfcc_conv_expect_dtype(filter, "filter", want_f, err);
  if (st != TFCC_OK) return st;
  st = tfcc_conv_expect_dtype(out, "output", want_out, err);
  if (st != TFCC_OK) return st;
  if (bias) {
    if (in->dtype == TFCC_FLOAT32) return tfcc_conv_expect_dtype(bias, "bias", TFCC_FLOAT32, err);
    if (in->dtype == TFCC_INT16) {
      if (bias->dtype != TFCC_INT64 && bias->dtype != TFCC_INT32)
        return tfcc_err_set(err, TFCC_ERR_DTYPE, "bias dtype %s, expected int64 or int32",
                            tfcc_dtype_name(bias->dtype));
      return TFCC_OK;
    }
    return tfcc_conv_expect_dtype(bias, "bias", TFCC_INT32, err);
  }
  return TFCC_OK;
}

tfcc_status tfcc_window_opts_check(const tfcc_window_opts *o, tfcc_err *err) {
  if (o->padding != TFCC_PAD_SAME && o->padding != TFCC_PAD_VALID &&
      o->padding != TFCC_PAD_EXPLICIT)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "padding type %d unknown", (int)o->padding);
  if (o->stride_w <= 0 || o->stride_h <= 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "strides %dx%d must be positive",
                        (int)o->stride_h, (int)o->stride_w);
  if (o->dil_w <= 0 || o->dil_h <= 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "dilations %dx%d must be positive",
                        (int)o->dil_h, (int)o->dil_w);
  return tfcc_conv_check_act(o->act, err);
}

tfcc_status tfcc_window_opts_set(tfcc_window_opts *o, int32_t padding, int32_t stride_w,
                                 int32_t stride_h, int32_t dil_w, int32_t dil_h, int32_t act,
                                 const int32_t pad[4], tfcc_err *err) {
  *o = (tfcc_window_opts){.padding = padding,
                          .stride_w = stride_w,
                          .stride_h = stride_h,
                          .dil_w = dil_w,
                          .dil_h = dil_h,
                          .act = act};
  memcpy(o->pad, pad, sizeof o->pad);
  return tfcc_window_opts_check(o, err);
}

/* Whether TFLite's XNNPACK delegate takes this 8-bit conv-like node
 * (xnnpack_delegate.cc Visit{Conv2D,DepthwiseConv2D,FullyConnected}Node): every input
 * other than the activation (filter, bias, output shape) is static, and a per-channel
 * filter has zero points 0. */
static bool xnn_takes(const tfcc_init_ctx *ctx, int32_t in_idx, const tfcc_ir_tensor *in,
                      const tfcc_ir_tensor *f) {
  if (in->dtype != TFCC_INT8 && in->dtype != TFCC_UINT8) return false;
  for (int32_t i = 0; i < ctx->node->n_inputs; i++) {
    if (i == in_idx || ctx->node->inputs[i] < 0) continue;
    const tfcc_ir_tensor *t = tfcc_conv_ir_input(ctx, i);
    if (!t || !t->data) return false;
  }
  for (int32_t c = 0; c < f->quant.count; c++) {
    if (f->quant.count > 1 && f->quant.zero_point[c] != 0) return false;
    /* the delegate's CheckTensorQCInt8Type: every scale normal and positive */
    if (!isnormal(f->quant.scale[c]) || f->quant.scale[c] <= 0.f) return false;
  }
  return true;
}

tfcc_status tfcc_conv_init_quant(const tfcc_init_ctx *ctx, int32_t in_idx, int32_t filter_idx,
                                 int32_t act, bool force_per_tensor_float, tfcc_conv_qparams *q) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, in_idx);
  const tfcc_ir_tensor *f = tfcc_conv_ir_input(ctx, filter_idx);
  const tfcc_ir_tensor *out = tfcc_conv_ir_output(ctx, 0);
  memset(q, 0, sizeof *q);
  if (!in || !f || !out)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "input %d, filter %d or output 0 missing",
                        (int)in_idx, (int)filter_idx);
  if (in->dtype != TFCC_UINT8 && in->dtype != TFCC_INT8 && in->dtype != TFCC_INT16)
    return TFCC_OK; /* float (or rejected in prepare) */
  if (f->dtype != TFCC_UINT8 && f->dtype != TFCC_INT8)
    return TFCC_OK; /* wrong filter dtype: prepare reports it */
  if (in->dtype == TFCC_INT16) {
    if (in->quant.count < 1 || in->quant.zero_point[0] != 0)
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "int16 input zero point must be 0");
    if (out->quant.count < 1 || out->quant.zero_point[0] != 0)
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "int16 output zero point must be 0");
  }
  if (out->dtype != in->dtype) return TFCC_OK; /* prepare reports the dtype mismatch */
  /* conv.cc's Prepare: with int8 or int16 input every filter zero point must be 0 (the int8 /
   * 16x8 kernels have no filter offset); TFLite refuses the node, where tfcc would compute
   * as if the zero point were 0 (a QAT export's per-channel zero point -127). */
  if (ctx->node->builtin == TFCC_OP_CONV_2D && in->dtype != TFCC_UINT8)
    for (int32_t c = 0; c < f->quant.count; c++)
      if (f->quant.zero_point[c] != 0)
        return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                            "filter zero point %d of %d is %d; with %s input it must be 0 "
                            "(TensorFlow Lite's conv.cc refuses it too)",
                            (int)c, (int)f->quant.count, (int)f->quant.zero_point[c],
                            tfcc_dtype_name(in->dtype));
  /* TFCC_QUANT_COMPAT_TFLITE_BUILTIN (ops/xnn_delegate.h): the delegate takes nothing */
  const bool xnn = ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE && xnn_takes(ctx, in_idx, in, f);
  tfcc_status st = tfcc_conv_qparams_node(q, ctx, TFCC_BLOCK_REQUANT, in, f, out, act,
                                          force_per_tensor_float, xnn);
  if (st != TFCC_OK) return st;
  if (in->dtype == TFCC_INT16)
    for (int32_t c = 0; c < q->n_mult; c++)
      if (q->shift[c] > 14) {
        const int shift = q->shift[c]; /* read before the free below */
        tfcc_conv_qparams_free(q);
        return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                            "16x8 effective output multiplier 2^%d too large", shift);
      }
  /* 16x8 CONV_2D with an int32 bias, ungrouped: conv.cc's optimized kernel (the zero points
   * are 0, as 16x8 requires), im2col and cpu_backend_gemm, which is ruy for an int16 input in
   * every build (gemmlowp takes none): one rounding (tfcc_requant16_b32), in both TFLite
   * engines (neuralSPOT's mut_model_data was 1 LSB off, 47 after its LSTM and decoder). A
   * grouped one runs the reference kernel's two roundings. */
  const tfcc_ir_tensor *bias = ctx->node->builtin == TFCC_OP_CONV_2D && ctx->node->n_inputs > 2
                                   ? tfcc_conv_ir_input(ctx, 2)
                                   : NULL;
  q->single_round = in->dtype == TFCC_INT16 && bias && bias->dtype == TFCC_INT32 && in->rank == 4 &&
                    f->rank == 4 && in->dims[3] == f->dims[3];
  if (ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE) return TFCC_OK;
  /* a node the delegate leaves (or whose scales it refuses): conv.cc's int8 kernel, im2col and
   * cpu_backend_gemm, which is ruy with its single-rounding multiplier */
  q->single_round = q->single_round ||
                    (!q->scale && in->dtype == TFCC_INT8 && ctx->node->builtin == TFCC_OP_CONV_2D);
  return TFCC_OK;
}

tfcc_status tfcc_conv_eval_int(tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                               const tfcc_conv_qparams *q, const tfcc_conv_int_kernels *k) {
  const tfcc_tensor *in = ctx->in[0], *f = ctx->in[1];
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  const void *bd = bias ? bias->data : NULL;
  tfcc_tensor *out = ctx->out[0];
  tfcc_conv_requant r;
  switch (in->dtype) {
    case TFCC_UINT8:
    case TFCC_INT8:
      tfcc_conv_requant_from(q, in->dtype, &r);
      if (k->q8_fast && k->q8_fast(ctx, g, &r)) return TFCC_OK;
      if (in->dtype == TFCC_INT8)
        k->i8(g, &r, in->data, f->data, bd, out->data);
      else
        k->u8(g, &r, in->data, f->data, bd, out->data);
      return TFCC_OK;
    case TFCC_INT16:
      tfcc_conv_requant_from(q, in->dtype, &r);
      if (k->i16_fast && k->i16_fast(ctx, g, &r)) return TFCC_OK;
      k->i16(g, &r, in->data, f->data, bias && bias->dtype == TFCC_INT64 ? bd : NULL,
             bias && bias->dtype == TFCC_INT32 ? bd : NULL, out->data);
      return TFCC_OK;
    default:
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "input dtype %s unsupported",
                          tfcc_dtype_name(in->dtype));
  }
}
