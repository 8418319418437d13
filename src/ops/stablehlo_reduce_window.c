/* STABLEHLO_REDUCE_WINDOW (TFLite stablehlo_reduce_window.cc, StableHLO spec "reduce_window"):
 * inputs (input rank 1-6, init_value: one element of its dtype); StablehloReduceWindowOptions
 * window_dimensions, window_strides, base_dilations, window_dilations (absent: 1s), padding
 * (low, high per dimension; negative crops; absent: 0s), body_subgraph_index. As TFLite, the
 * body is not run: it must hold exactly one operator, which names the reduction (ADD or
 * STABLEHLO_ADD, MUL or STABLEHLO_MULTIPLY, MAXIMUM or STABLEHLO_MAXIMUM, MINIMUM or
 * STABLEHLO_MINIMUM, LOGICAL_AND or STABLEHLO_AND, LOGICAL_OR or STABLEHLO_OR). The input is
 * dilated by base_dilations and padded with init_value, then reduced over each window (output
 * (d - dilated window) / stride + 1, 0 when the window does not fit), as REDUCE_WINDOW
 * (kernels/ref/dilate.h, shlo_pad.h, reduce_window.h). int8..int64, uint8..uint64, float32,
 * float64. */
#include <stdlib.h>

#include "kernels/ref/dilate.h"
#include "kernels/ref/shlo_pad.h"
#include "ops/reduce_window_common.h"

#define OP "STABLEHLO_REDUCE_WINDOW"

typedef struct srw_params {
  tfcc_rw_fn fn;
} srw_params;

static tfcc_status srw_init(tfcc_init_ctx *ctx) {
  const tfcc_stablehlo_reduce_window_options *o = &ctx->node->opts.shlo_rw;
  const int32_t b = o->body_subgraph;
  if (b < 0 || b >= ctx->graph->n_subgraphs)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        OP ": body_subgraph_index %d is out of range (the model has %d subgraphs)",
                        (int)b, (int)ctx->graph->n_subgraphs);
  const tfcc_ir_subgraph *body = &ctx->graph->subgraphs[b];
  if (body->n_nodes != 1)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        OP ": body subgraph %d has %d operators; TFLite runs bodies of exactly one",
                        (int)b, (int)body->n_nodes);
  /* The body's operator (TFLite's builtin or StableHLO's name for it) -> the reduction. */
  static const struct {
    int32_t tfl, shlo;
    tfcc_rw_fn fn;
  } reductions[] = {
      {TFCC_OP_ADD, TFCC_OP_STABLEHLO_ADD, TFCC_RW_ADD},
      {TFCC_OP_MUL, TFCC_OP_STABLEHLO_MULTIPLY, TFCC_RW_MUL},
      {TFCC_OP_MAXIMUM, TFCC_OP_STABLEHLO_MAXIMUM, TFCC_RW_MAX},
      {TFCC_OP_MINIMUM, TFCC_OP_STABLEHLO_MINIMUM, TFCC_RW_MIN},
      {TFCC_OP_LOGICAL_AND, TFCC_OP_STABLEHLO_AND, TFCC_RW_ALL},
      {TFCC_OP_LOGICAL_OR, TFCC_OP_STABLEHLO_OR, TFCC_RW_ANY},
  };
  const int32_t op = body->nodes[0].builtin;
  size_t r = 0;
  while (r < sizeof reductions / sizeof reductions[0] && reductions[r].tfl != op &&
         reductions[r].shlo != op)
    r++;
  if (r == sizeof reductions / sizeof reductions[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        OP ": body subgraph %d's operator %s is not a reduction", (int)b,
                        tfcc_builtin_name(op));
  srw_params *p = malloc(sizeof *p);
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  p->fn = reductions[r].fn;
  ctx->params = p;
  return TFCC_OK;
}

/* The options of one dimension, with the schema's defaults for absent vectors. */
typedef struct srw_dim {
  int64_t window, stride, base, wdil, low, high;
} srw_dim;

static srw_dim dim_of(const tfcc_stablehlo_reduce_window_options *o, int32_t k) {
  srw_dim d = {o->window[k],
               o->n_strides ? o->strides[k] : 1,
               o->n_base_dilations ? o->base_dilations[k] : 1,
               o->n_window_dilations ? o->window_dilations[k] : 1,
               o->n_padding ? o->padding[2 * k] : 0,
               o->n_padding ? o->padding[2 * k + 1] : 0};
  return d;
}

/* dims after dilation (d1) and padding (d2), and of the output */
static void sizes(const tfcc_tensor *in, const tfcc_stablehlo_reduce_window_options *o, int32_t *d1,
                  int32_t *d2, int64_t *out) {
  for (int32_t k = 0; k < in->rank; k++) {
    const srw_dim d = dim_of(o, k);
    d1[k] = (int32_t)((in->dims[k] - 1) * d.base + 1);
    d2[k] = (int32_t)(d1[k] + d.low + d.high);
    const int64_t dw = (d.window - 1) * d.wdil + 1;
    out[k] = d2[k] < dw ? 0 : (d2[k] - dw) / d.stride + 1;
  }
}

static tfcc_status srw_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 2, 2, 1);
  if (st) return st;
  tfcc_tensor *in, *init;
  if ((st = tfcc_so_input(ctx, 0, OP, &in)) || (st = tfcc_so_input(ctx, 1, OP, &init))) return st;
  if ((st = tfcc_rw_check_io(ctx, OP, in, init))) return st;
  const tfcc_stablehlo_reduce_window_options *o = &ctx->node->opts.shlo_rw;
  const uint32_t r = (uint32_t)in->rank;
  TFCC_OP_CHECK(
      ctx,
      o->n_window == r && (o->n_strides == 0 || o->n_strides == r) &&
          (o->n_base_dilations == 0 || o->n_base_dilations == r) &&
          (o->n_window_dilations == 0 || o->n_window_dilations == r) &&
          (o->n_padding == 0 || o->n_padding == 2 * r),
      TFCC_ERR_INVALID_MODEL,
      OP
      ": StablehloReduceWindowOptions vectors (%u window, %u strides, %u base_dilations, %u "
      "window_dilations, %u padding) do not match the input rank %u",
      (unsigned)o->n_window, (unsigned)o->n_strides, (unsigned)o->n_base_dilations,
      (unsigned)o->n_window_dilations, (unsigned)o->n_padding, (unsigned)r);
  const int64_t lim = (int64_t)1 << 24;
  size_t n1 = 1, n2 = 1; /* elements of the dilated and the padded input */
  for (int32_t k = 0; k < in->rank; k++) {
    const srw_dim d = dim_of(o, k);
    TFCC_OP_CHECK(ctx,
                  d.window >= 1 && d.window < lim && d.stride >= 1 && d.stride < lim &&
                      d.base >= 1 && d.base < lim && d.wdil >= 1 && d.wdil < lim,
                  TFCC_ERR_INVALID_MODEL,
                  OP ": dimension %d: window, strides and dilations must be in [1, 2^24)", (int)k);
    TFCC_OP_CHECK(ctx, d.low > -lim && d.low < lim && d.high > -lim && d.high < lim,
                  TFCC_ERR_INVALID_MODEL, OP ": padding of dimension %d (%lld, %lld) out of range",
                  (int)k, (long long)d.low, (long long)d.high);
    TFCC_OP_CHECK(ctx, in->dims[k] >= 1, TFCC_ERR_SHAPE, OP ": input 0 dimension %d is empty",
                  (int)k);
    const int64_t d1 = (in->dims[k] - 1) * d.base + 1, d2 = d1 + d.low + d.high;
    TFCC_OP_CHECK(ctx, d1 <= INT32_MAX && d2 >= 0 && d2 <= INT32_MAX, TFCC_ERR_SHAPE,
                  OP ": dimension %d: dilated %lld, padded %lld out of range", (int)k,
                  (long long)d1, (long long)d2);
    /* the dilated and the padded input are materialized in scratch: their element counts
       (2^24 per dimension over three dimensions passed 2^64 and wrapped to 0) */
    const int64_t lim_n = INT64_C(1) << 48;
    TFCC_OP_CHECK(ctx, (int64_t)n1 <= lim_n / d1 && (d2 == 0 || (int64_t)n2 <= lim_n / d2),
                  TFCC_ERR_SHAPE,
                  OP
                  ": dimension %d: the input dilated (%lld) or padded (%lld) passes 2^48 "
                  "elements",
                  (int)k, (long long)d1, (long long)d2);
    n1 *= (size_t)d1;
    n2 *= (size_t)d2;
  }
  const size_t es = tfcc_so_elem_size(in->dtype);
  TFCC_OP_CHECK(ctx, n1 <= (SIZE_MAX - 64) / 2 / es && n2 <= (SIZE_MAX - 64) / 2 / es,
                TFCC_ERR_NO_MEMORY, OP ": scratch for %zu dilated and %zu padded elements", n1, n2);
  int32_t d1[TFCC_MAX_RANK], d2[TFCC_MAX_RANK];
  int64_t dims[TFCC_MAX_RANK];
  sizes(in, o, d1, d2, dims);
  ctx->scratch_bytes = ((n1 * es + 63) & ~(size_t)63) + n2 * es;
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status srw_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_stablehlo_reduce_window_options *o = &ctx->node->opts.shlo_rw;
  const srw_params *p = ctx->params;
  const int32_t rank = in->rank;
  int32_t d1[TFCC_MAX_RANK], d2[TFCC_MAX_RANK], f[TFCC_MAX_RANK];
  int64_t dims[TFCC_MAX_RANK], low[TFCC_MAX_RANK], zero[TFCC_MAX_RANK] = {0};
  int64_t win[TFCC_MAX_RANK], str[TFCC_MAX_RANK], wdil[TFCC_MAX_RANK];
  sizes(in, o, d1, d2, dims);
  size_t n1 = 1;
  for (int32_t k = 0; k < rank; k++) {
    const srw_dim d = dim_of(o, k);
    f[k] = (int32_t)d.base;
    low[k] = d.low;
    win[k] = d.window;
    str[k] = d.stride;
    wdil[k] = d.wdil;
    n1 *= (size_t)d1[k];
  }
  const size_t es = tfcc_so_elem_size(in->dtype);
  uint8_t *dilated = ctx->scratch, *padded = dilated + ((n1 * es + 63) & ~(size_t)63);
  const uint8_t *init = ctx->in[1]->data;
  tfcc_ref_dilate(in->data, in->dims, f, rank, es, init, dilated);
  tfcc_ref_shlo_pad(dilated, d1, d2, low, zero, rank, es, init, padded);
  const bool ok = tfcc_ref_reduce_window(p->fn, in->dtype, padded, d2, rank, win, str, wdil, init,
                                         ctx->out[0]->dims, ctx->out[0]->data);
  TFCC_OP_CHECK(ctx, ok, TFCC_ERR_UNSUPPORTED, OP ": dtype %s is not supported",
                tfcc_dtype_name(in->dtype));
  return TFCC_OK;
}

static int64_t srw_macs(const tfcc_op_ctx *ctx) {
  const tfcc_stablehlo_reduce_window_options *o = &ctx->node->opts.shlo_rw;
  if (ctx->n_out < 1 || !ctx->out[0] || o->n_window != (uint32_t)ctx->out[0]->rank) return 0;
  return tfcc_rw_work(ctx->out[0], o->window);
}

const tfcc_op_def tfcc_op_stablehlo_reduce_window = {
    .name = OP, .init = srw_init, .prepare = srw_prepare, .eval = srw_eval, .macs = srw_macs};
