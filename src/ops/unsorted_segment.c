/* UNSORTED_SEGMENT_SUM, _PROD, _MAX, _MIN: inputs (data float32/int32, segment_ids int32
 * [data dims[0]], num_segments int32 scalar or [1]). out[s] combines the data rows whose id is s,
 * starting from the identity (0, 1, lowest, highest: a segment with no rows keeps it); rows
 * with a negative id are skipped; an id >= num_segments fails (unsorted_segment.cc,
 * UnsortedSegmentRef; int32 wraps). Output [num_segments, data dims 1..]: a num_segments not
 * known at prepare makes it dynamic. */
#include "kernels/ref/segment.h"
#include "ops/shape_ops_util.h"

static tfcc_status unsorted_prepare(tfcc_op_ctx *ctx, const char *op) {
  tfcc_tensor *data, *ids, *num;
  tfcc_status st = tfcc_so_open(ctx, op, 3, 3, 1, &data);
  if (st || (st = tfcc_so_input(ctx, 1, op, &ids)) || (st = tfcc_so_input(ctx, 2, op, &num)))
    return st;
  static const int allowed[] = {TFCC_FLOAT32, TFCC_INT32, -1};
  if ((st = tfcc_so_check_dtype(ctx, op, "data (input 0)", data->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx, ids->dtype == TFCC_INT32 && num->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                "%s: segment_ids (%s) and num_segments (%s) must be int32", op,
                tfcc_dtype_name(ids->dtype), tfcc_dtype_name(num->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], data->dtype))) return st;
  TFCC_OP_CHECK(ctx, data->rank >= 1 && ids->rank == 1 && ids->dims[0] == data->dims[0],
                TFCC_ERR_SHAPE,
                "%s: segment_ids must be 1-D with data's first dimension (%d) entries", op,
                data->rank >= 1 ? (int)data->dims[0] : 0);
  TFCC_OP_CHECK(ctx, num->rank == 0 || (num->rank == 1 && num->dims[0] == 1), TFCC_ERR_SHAPE,
                "%s: num_segments must be a scalar or a 1-element vector", op);
  if (!num->known || !num->data)
    return TFCC_OP_NEEDS_DATA(ctx, num, "%s: the output size depends on num_segments (tensor %d)",
                              op, (int)num->index);
  const int32_t n = *(const int32_t *)num->data;
  TFCC_OP_CHECK(ctx, n >= 0, TFCC_ERR_INVALID_ARG, "%s: num_segments %d is negative", op, (int)n);
  int32_t dims[TFCC_MAX_RANK];
  dims[0] = n;
  for (int32_t d = 1; d < data->rank; d++) dims[d] = data->dims[d];
  return tfcc_tensor_set_shape(ctx->out[0], data->rank, dims, ctx->err);
}

static tfcc_status unsorted_eval(tfcc_op_ctx *ctx, const char *op, tfcc_segment_op sop) {
  const tfcc_tensor *data = ctx->in[0], *ids = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const int32_t *s = ids->data;
  for (int32_t i = 0; i < ids->dims[0]; i++)
    TFCC_OP_CHECK(ctx, s[i] < out->dims[0], TFCC_ERR_RUNTIME,
                  "%s: segment id %d (entry %d) is not below num_segments %d", op, (int)s[i],
                  (int)i, (int)out->dims[0]);
  tfcc_ref_segment_reduce(sop, data->dtype, data->data, s, ids->dims[0],
                          tfcc_so_prod(data->dims, 1, data->rank), out->dims[0], out->data);
  return TFCC_OK;
}

#define UNSORTED_OP(sym, NAME, SOP) \
  static tfcc_status sym##_prepare(tfcc_op_ctx *ctx) { return unsorted_prepare(ctx, NAME); } \
  static tfcc_status sym##_eval(tfcc_op_ctx *ctx) { return unsorted_eval(ctx, NAME, SOP); } \
  const tfcc_op_def tfcc_op_##sym = {.name = NAME, .prepare = sym##_prepare, .eval = sym##_eval};

UNSORTED_OP(unsorted_segment_sum, "UNSORTED_SEGMENT_SUM", TFCC_SEGMENT_SUM)
UNSORTED_OP(unsorted_segment_prod, "UNSORTED_SEGMENT_PROD", TFCC_SEGMENT_PROD)
UNSORTED_OP(unsorted_segment_max, "UNSORTED_SEGMENT_MAX", TFCC_SEGMENT_MAX)
UNSORTED_OP(unsorted_segment_min, "UNSORTED_SEGMENT_MIN", TFCC_SEGMENT_MIN)
