/* STABLEHLO_PAD (TFLite stablehlo_pad.cc, StableHLO spec "pad"): inputs (operand rank >= 1,
 * padding_value: one element of the operand's dtype); StablehloPadOptions edge_padding_low,
 * edge_padding_high (may be negative: cropping) and interior_padding (>= 0), one entry per
 * dimension. Output dims (d - 1) * (interior + 1) + 1 + low + high; as TFLite, when any of them
 * is <= 0 every output dimension is 0. Any fixed-size dtype (bytes copied;
 * kernels/ref/shlo_pad.h). */
#include "kernels/ref/shlo_pad.h"
#include "ops/shape_ops_util.h"

#define OP "STABLEHLO_PAD"

static tfcc_status shlo_pad_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *pad;
  tfcc_tensor **const ins[] = {&in, &pad};
  tfcc_status st = tfcc_so_open_n(ctx, OP, 2, 1, ins);
  if (st) return st;
  if ((st = tfcc_so_check_padded(ctx, OP, in, 1, pad))) return st;
  TFCC_OP_CHECK(ctx, tfcc_tensor_elements(pad) == 1, TFCC_ERR_SHAPE,
                OP ": input 1 (padding_value) must hold one element (it holds %lld)",
                (long long)tfcc_tensor_elements(pad));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  const tfcc_stablehlo_pad_options *o = &ctx->node->opts.shlo_pad;
  const uint32_t r = (uint32_t)in->rank;
  TFCC_OP_CHECK(
      ctx, o->n_low == r && o->n_high == r && o->n_interior == r, TFCC_ERR_INVALID_MODEL,
      OP
      ": StablehloPadOptions has %u/%u/%u edge_padding_low/high/interior entries, the input "
      "rank is %u",
      (unsigned)o->n_low, (unsigned)o->n_high, (unsigned)o->n_interior, (unsigned)r);
  int64_t dims[TFCC_MAX_RANK];
  bool empty = false;
  for (int32_t k = 0; k < in->rank; k++) {
    const int64_t lim = (int64_t)1 << 40; /* far beyond any int32 dimension, far from overflow */
    TFCC_OP_CHECK(ctx, o->interior[k] >= 0 && o->interior[k] < lim, TFCC_ERR_INVALID_MODEL,
                  OP ": interior_padding[%d] is %lld (must be >= 0)", (int)k,
                  (long long)o->interior[k]);
    TFCC_OP_CHECK(ctx, o->low[k] > -lim && o->low[k] < lim && o->high[k] > -lim && o->high[k] < lim,
                  TFCC_ERR_INVALID_MODEL,
                  OP ": edge padding of dimension %d (%lld, %lld) out of range", (int)k,
                  (long long)o->low[k], (long long)o->high[k]);
    TFCC_OP_CHECK(ctx, in->dims[k] >= 1 || o->interior[k] == 0, TFCC_ERR_SHAPE,
                  OP ": input 0 dimension %d is empty", (int)k);
    dims[k] = (int64_t)(in->dims[k] - 1) * (o->interior[k] + 1) + 1 + o->low[k] + o->high[k];
    if (dims[k] <= 0) empty = true;
  }
  if (empty)
    for (int32_t k = 0; k < in->rank; k++) dims[k] = 0;
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status shlo_pad_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const tfcc_stablehlo_pad_options *o = &ctx->node->opts.shlo_pad;
  tfcc_ref_shlo_pad(in->data, in->dims, ctx->out[0]->dims, o->low, o->interior, in->rank,
                    tfcc_so_elem_size(in->dtype), ctx->in[1]->data, ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_stablehlo_pad = {
    .name = OP, .prepare = shlo_pad_prepare, .eval = shlo_pad_eval};
