/* UNIQUE: input 1-D (float32, uint8, int8, int16, int32, int64); outputs the distinct values in
 * order of first appearance (dynamic: the count depends on the values) and, for each input
 * element, its position among them (int32 or int64, UniqueOptions.idx_out_type; the output's
 * dtype decides) (unique.cc). With an input known at prepare the outputs are sized then.
 * Linear in the input's size (8 / 16-bit: a table of ids; wider: a radix sort), in prepare and
 * in eval (its scratch). */
#include <stdlib.h>

#include "kernels/ref/select_k.h"
#include "ops/shape_ops_util.h"

#define OP "UNIQUE"

static tfcc_status unique_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open_typed(ctx, OP, 1, 1, 2, tfcc_so_numeric_dtypes, &in);
  if (st || (st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  TFCC_OP_CHECK(ctx, ctx->out[1]->dtype == TFCC_INT32 || ctx->out[1]->dtype == TFCC_INT64,
                TFCC_ERR_DTYPE, OP ": index output dtype %s, expected int32 or int64",
                tfcc_dtype_name(ctx->out[1]->dtype));
  TFCC_OP_CHECK(ctx, in->rank == 1, TFCC_ERR_SHAPE, OP ": input rank %d, expected 1",
                (int)in->rank);
  if ((st = tfcc_tensor_set_shape(ctx->out[1], 1, in->dims, ctx->err))) return st;
  if (!in->known || !in->data)
    return TFCC_OP_NEEDS_DATA(ctx, in,
                              OP ": the output size depends on the values of input 0 (tensor %d)",
                              (int)in->index);
  /* counted in linear time (select_k.h): the scan of every earlier value took minutes for a
     hostile input of millions, at prepare, where no run deadline is checked. 32 / 64-bit
     values are sorted: during a run (a dynamic UNIQUE) in the node's memory the session keeps
     (also eval's scratch), at load in memory taken here and freed; 8 / 16-bit ones need none. */
  const int64_t n = in->dims[0];
  ctx->scratch_bytes = tfcc_ref_unique_scratch_bytes(in->dtype, n);
  void *sort = NULL;
  if (tfcc_dtype_size(in->dtype) > 2) {
    if (ctx->run_time) {
      if (ctx->prepare_mem_bytes < ctx->scratch_bytes || !ctx->prepare_mem)
        return TFCC_OP_NEEDS_MEMORY(ctx, ctx->scratch_bytes,
                                    OP ": %zu bytes needed to count %lld values",
                                    ctx->scratch_bytes, (long long)n);
      sort = ctx->prepare_mem;
    } else {
      sort = malloc(ctx->scratch_bytes);
      TFCC_OP_CHECK(ctx, sort, TFCC_ERR_NO_MEMORY, OP ": out of memory sorting %lld values",
                    (long long)n);
    }
  }
  const int64_t count = tfcc_ref_unique_count(in->dtype, in->data, n, sort);
  if (!ctx->run_time) free(sort);
  const int32_t dims[1] = {(int32_t)count};
  return tfcc_tensor_set_shape(ctx->out[0], 1, dims, ctx->err);
}

static tfcc_status unique_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *u = ctx->out[0], *ix = ctx->out[1];
  const int64_t count = tfcc_ref_unique(in->dtype, in->data, in->dims[0], u->data, ix->data,
                                        ix->dtype == TFCC_INT64 ? 8 : 4, ctx->scratch);
  TFCC_OP_CHECK(ctx, count == u->dims[0], TFCC_ERR_RUNTIME,
                OP ": %lld distinct values, the output holds %d", (long long)count,
                (int)u->dims[0]);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_unique = {.name = OP, .prepare = unique_prepare, .eval = unique_eval};
