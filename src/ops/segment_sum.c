/* SEGMENT_SUM: inputs (data float32/int32, segment_ids int32 [data dims[0]], sorted: the first
 * 0, each next equal or one more). out[s] = sum of the data rows with id s, shape
 * [last id + 1, data dims 1..] (segment_sum.cc, reference SegmentSum; int32 wraps). The output
 * size depends on the ids' values: ids not known at prepare make the output dynamic. */
#include "kernels/ref/segment.h"
#include "ops/shape_ops_util.h"

#define OP "SEGMENT_SUM"

static tfcc_status segment_sum_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *data, *ids;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, 1, &data);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &ids))) return st;
  static const int allowed[] = {TFCC_FLOAT32, TFCC_INT32, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "data (input 0)", data->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx, ids->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                OP ": segment_ids dtype %s, expected int32", tfcc_dtype_name(ids->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], data->dtype))) return st;
  TFCC_OP_CHECK(ctx, data->rank >= 1 && ids->rank == 1 && ids->dims[0] == data->dims[0],
                TFCC_ERR_SHAPE,
                OP ": segment_ids must be 1-D with data's first dimension (%d) entries",
                data->rank >= 1 ? (int)data->dims[0] : 0);
  if (!ids->known || !ids->data)
    return TFCC_OP_NEEDS_DATA(
        ctx, ids, OP ": the output size depends on the segment ids (tensor %d)", (int)ids->index);
  const int32_t *s = ids->data;
  int32_t last = -1;
  for (int32_t i = 0; i < ids->dims[0]; i++) {
    TFCC_OP_CHECK(ctx, i == 0 ? s[i] == 0 : (s[i] == last || s[i] == last + 1),
                  TFCC_ERR_INVALID_ARG,
                  OP ": segment ids must start at 0 and grow by 0 or 1: entry %d is %d after %d",
                  (int)i, (int)s[i], (int)last);
    last = s[i];
  }
  int32_t dims[TFCC_MAX_RANK];
  dims[0] = last + 1;
  for (int32_t d = 1; d < data->rank; d++) dims[d] = data->dims[d];
  return tfcc_tensor_set_shape(ctx->out[0], data->rank, dims, ctx->err);
}

static tfcc_status segment_sum_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *data = ctx->in[0], *ids = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const int32_t *s = ids->data;
  for (int32_t i = 0; i < ids->dims[0]; i++) /* sized by prepare over the same ids */
    TFCC_OP_CHECK(ctx, s[i] >= 0 && s[i] < out->dims[0], TFCC_ERR_RUNTIME,
                  OP ": segment id %d outside the output's %d rows", (int)s[i], (int)out->dims[0]);
  tfcc_ref_segment_reduce(TFCC_SEGMENT_SUM, data->dtype, data->data, s, ids->dims[0],
                          tfcc_so_prod(data->dims, 1, data->rank), out->dims[0], out->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_segment_sum = {
    .name = OP, .prepare = segment_sum_prepare, .eval = segment_sum_eval};
