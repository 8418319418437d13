/* BUCKETIZE: int32 output of the input's shape, out = the index of the first boundary greater
 * than the value (std::upper_bound) (bucketize.cc). Input float32, float64, int32, int64;
 * BucketizeOptions.boundaries (float32, must be ascending: checked at prepare as TFLite). */
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/lookup.h"
#include "ops/shape_ops_util.h"

#define OP "BUCKETIZE"

static tfcc_status bucketize_init(tfcc_init_ctx *ctx) {
  const tfcc_bucketize_options *o = &ctx->node->opts.bucketize;
  float *b = malloc((o->n_boundaries ? o->n_boundaries : 1) * sizeof(float));
  if (!b)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, OP ": out of memory for %u boundaries",
                        (unsigned)o->n_boundaries);
  if (o->n_boundaries) memcpy(b, o->boundaries, o->n_boundaries * sizeof(float));
  for (uint32_t i = 0; i + 1 < o->n_boundaries; i++)
    if (b[i + 1] < b[i]) {
      const double lo = b[i], hi = b[i + 1];
      free(b);
      return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                          OP ": boundaries are not sorted (entry %u is %g, entry %u is %g)",
                          (unsigned)i, lo, (unsigned)(i + 1), hi);
    }
  ctx->params = b;
  return TFCC_OK;
}

static tfcc_status bucketize_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open(ctx, OP, 1, 1, 1, &in);
  if (st) return st;
  static const int allowed[] = {TFCC_FLOAT32, TFCC_FLOAT64, TFCC_INT32, TFCC_INT64, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "input 0", in->dtype, allowed))) return st;
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], TFCC_INT32))) return st;
  return tfcc_tensor_set_shape(ctx->out[0], in->rank, in->dims, ctx->err);
}

static tfcc_status bucketize_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_ref_bucketize(in->dtype, in->data, tfcc_tensor_elements(in), ctx->params,
                     ctx->node->opts.bucketize.n_boundaries, ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_bucketize = {
    .name = OP, .init = bucketize_init, .prepare = bucketize_prepare, .eval = bucketize_eval};
