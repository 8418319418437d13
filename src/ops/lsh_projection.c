/* LSH_PROJECTION (TFLite lsh_projection.cc): inputs hash float32 [num_hash, num_bits] (num_bits
 * <= 32), input (rank >= 1, any fixed-size dtype: each item along dimension 0 is hashed as raw
 * bytes), optional weight float32 [input dims[0]]; LSHProjectionOptions.type SPARSE (output
 * int32 [num_hash], the bits of each hash function packed, plus k << num_bits) or DENSE
 * (output int32 [num_hash * num_bits] of 0/1). Each bit is the sign of the weighted sum of
 * farmhash Fingerprint64(seed ++ item) (kernels/ref/lsh.h). Type UNKNOWN is refused, as TFLite. */
#include "kernels/ref/lsh.h"
#include "ops/shape_ops_util.h"
#include "ops/work_estimate.h"

#define OP "LSH_PROJECTION"

/* bytes of one item along dimension 0 */
static size_t item_bytes(const tfcc_tensor *in) {
  return (size_t)tfcc_so_prod(in->dims, 1, in->rank) * tfcc_so_elem_size(in->dtype);
}

static tfcc_status lsh_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 2, 3, 1);
  if (st) return st;
  tfcc_tensor *hash, *in;
  if ((st = tfcc_so_input(ctx, 0, OP, &hash)) || (st = tfcc_so_input(ctx, 1, OP, &in))) return st;
  const int32_t type = ctx->node->opts.lsh_projection.type;
  TFCC_OP_CHECK(ctx, type == 1 || type == 2, TFCC_ERR_INVALID_MODEL,
                OP ": LSHProjectionOptions.type %d is not SPARSE (1) or DENSE (2)", (int)type);
  TFCC_OP_CHECK(ctx, hash->dtype == TFCC_FLOAT32, TFCC_ERR_DTYPE,
                OP ": input 0 (hash) dtype %s, expected float32", tfcc_dtype_name(hash->dtype));
  TFCC_OP_CHECK(ctx, hash->rank == 2 && hash->dims[1] <= 32, TFCC_ERR_SHAPE,
                OP ": input 0 (hash) must be [num_hash, num_bits <= 32] (rank %d)",
                (int)hash->rank);
  TFCC_OP_CHECK(ctx, in->rank >= 1, TFCC_ERR_SHAPE, OP ": input 1 (input) must have rank >= 1");
  TFCC_OP_CHECK(ctx, tfcc_so_elem_size(in->dtype) != 0, TFCC_ERR_UNSUPPORTED,
                OP ": input 1 (input) dtype %s is not supported (fixed-size dtypes)",
                tfcc_dtype_name(in->dtype));
  if (ctx->n_in == 3 && ctx->in[2]) {
    const tfcc_tensor *w = ctx->in[2];
    TFCC_OP_CHECK(ctx, w->dtype == TFCC_FLOAT32, TFCC_ERR_DTYPE,
                  OP ": input 2 (weight) dtype %s, expected float32", tfcc_dtype_name(w->dtype));
    TFCC_OP_CHECK(ctx, w->rank == 1 && w->dims[0] == in->dims[0], TFCC_ERR_SHAPE,
                  OP ": input 2 (weight) must be [%d] (one weight per input item)",
                  (int)in->dims[0]);
  }
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], TFCC_INT32))) return st;
  const int64_t n = type == 1 ? hash->dims[0] : (int64_t)hash->dims[0] * hash->dims[1];
  ctx->scratch_bytes = item_bytes(in) + sizeof(float);
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], 1, &n);
}

static tfcc_status lsh_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *hash = ctx->in[0], *in = ctx->in[1];
  const tfcc_tensor *w = ctx->n_in == 3 ? ctx->in[2] : NULL;
  const int32_t items = in->dims[0];
  const tfcc_lsh_args a = {.seeds = hash->data,
                           .num_hash = hash->dims[0],
                           .num_bits = hash->dims[1],
                           .input = in->data,
                           .items = items,
                           .item_bytes = item_bytes(in),
                           .weights = w ? w->data : NULL,
                           .sparse = ctx->node->opts.lsh_projection.type == 1};
  tfcc_ref_lsh_projection(&a, ctx->scratch, ctx->out[0]->data);
  return TFCC_OK;
}

/* The bytes eval hashes (macs hook): every item, once per bit of each hash function. With the
 * seeds a graph input, [65536, 32] of them over an 8 MB input are 1.8e13. */
static int64_t lsh_macs(const tfcc_op_ctx *ctx) {
  if (ctx->n_in < 2 || !ctx->in[0] || !ctx->in[1] || ctx->in[0]->rank != 2) return 0;
  const tfcc_tensor *hash = ctx->in[0], *in = ctx->in[1];
  const int64_t per_item = (int64_t)item_bytes(in) + (int64_t)sizeof(float); /* seed ++ item */
  return tfcc_work_mul(tfcc_work_mul(hash->dims[0], hash->dims[1]),
                       tfcc_work_mul(in->rank > 0 ? in->dims[0] : 1, per_item));
}

const tfcc_op_def tfcc_op_lsh_projection = {
    .name = OP, .prepare = lsh_prepare, .eval = lsh_eval, .macs = lsh_macs};
