/* NON_MAX_SUPPRESSION_V4 and NON_MAX_SUPPRESSION_V5 (float32; kernels/detect/nms.h):
 *   inputs   boxes [n, 4] (y1, x1, y2, x2), scores [n], max_output_size (int32 scalar,
 *            constant), iou_threshold, score_threshold (float32 scalars); V5 also
 *            soft_nms_sigma (float32 scalar, >= 0)
 *   outputs  V4: selected_indices int32 [max_output_size], valid_outputs int32 [];
 *            V5: selected_indices, selected_scores float32 [max_output_size], valid_outputs
 *            Entries past valid_outputs are 0 (non_max_suppression.cc
 *            ResetUnusedElementsToZeroes), so the outputs have the constant
 *            max_output_size as their size, as TFLite sizes them at prepare.
 * TFLite sizes the outputs at run time when max_output_size is not constant; tfcc needs it
 * at prepare (constant, or folded by a graph pass). Runs tfcc_nms_fast (`nms-fast`: vectorised
 * IoU blocks); tfcc_nms is its reference twin (byte-identical results). */
#include "kernels/detect/nms.h"
#include "ops/op.h"
#include "ops/work_estimate.h"

static tfcc_status check_scalar(tfcc_op_ctx *ctx, const char *op, int i, const char *what,
                                tfcc_dtype want) {
  const tfcc_tensor *t = ctx->in[i];
  TFCC_OP_CHECK(ctx, t != NULL, TFCC_ERR_INVALID_MODEL, "%s: input %d (%s) is missing", op, i,
                what);
  TFCC_OP_CHECK(ctx, t->dtype == want, TFCC_ERR_DTYPE, "%s: input %d (%s) dtype %s, expected %s",
                op, i, what, tfcc_dtype_name(t->dtype), tfcc_dtype_name(want));
  TFCC_OP_CHECK(ctx, tfcc_tensor_elements(t) == 1 && t->rank <= 1, TFCC_ERR_SHAPE,
                "%s: input %d (%s) must be a scalar (rank %d, %lld elements)", op, i, what,
                (int)t->rank, (long long)tfcc_tensor_elements(t));
  return TFCC_OK;
}

static tfcc_status nms_prepare(tfcc_op_ctx *ctx, bool v5) {
  const char *op = v5 ? "NON_MAX_SUPPRESSION_V5" : "NON_MAX_SUPPRESSION_V4";
  const int n_in = v5 ? 6 : 5, n_out = v5 ? 3 : 2;
  TFCC_OP_CHECK(ctx, ctx->n_in == n_in && ctx->n_out == n_out, TFCC_ERR_INVALID_MODEL,
                "%s: %d inputs and %d outputs, expected %d and %d", op, (int)ctx->n_in,
                (int)ctx->n_out, n_in, n_out);
  const tfcc_tensor *boxes = ctx->in[0], *scores = ctx->in[1];
  TFCC_OP_CHECK(ctx, boxes && scores, TFCC_ERR_INVALID_MODEL, "%s: boxes or scores missing", op);
  TFCC_OP_CHECK(ctx, boxes->dtype == TFCC_FLOAT32 && scores->dtype == TFCC_FLOAT32,
                TFCC_ERR_UNSUPPORTED, "%s: boxes %s, scores %s: only float32 is supported", op,
                tfcc_dtype_name(boxes->dtype), tfcc_dtype_name(scores->dtype));
  TFCC_OP_CHECK(ctx, boxes->rank == 2 && boxes->dims[1] == 4, TFCC_ERR_SHAPE,
                "%s: boxes must be [num_boxes, 4] (rank %d)", op, (int)boxes->rank);
  const int32_t n = boxes->dims[0];
  TFCC_OP_CHECK(ctx, scores->rank == 1 && scores->dims[0] == n, TFCC_ERR_SHAPE,
                "%s: scores must be [%d] (rank %d)", op, (int)n, (int)scores->rank);
  tfcc_status st;
  if ((st = check_scalar(ctx, op, 2, "max_output_size", TFCC_INT32)) ||
      (st = check_scalar(ctx, op, 3, "iou_threshold", TFCC_FLOAT32)) ||
      (st = check_scalar(ctx, op, 4, "score_threshold", TFCC_FLOAT32)) ||
      (v5 && (st = check_scalar(ctx, op, 5, "soft_nms_sigma", TFCC_FLOAT32))))
    return st;
  TFCC_OP_CHECK(ctx, ctx->in[2]->known && ctx->in[2]->data, TFCC_ERR_UNSUPPORTED,
                "%s: max_output_size (tensor %d) is computed at run time; tfcc needs it constant "
                "to size the outputs",
                op, (int)ctx->in[2]->index);
  const int32_t max_out = *(const int32_t *)ctx->in[2]->data;
  TFCC_OP_CHECK(ctx, max_out >= 0 && max_out <= (1 << 24), TFCC_ERR_INVALID_MODEL,
                "%s: max_output_size %d outside 0..2^24", op, (int)max_out);
  for (int i = 0; i < n_out; i++) {
    TFCC_OP_CHECK(ctx, ctx->out[i] != NULL, TFCC_ERR_INVALID_MODEL, "%s: output %d is missing", op,
                  i);
    const tfcc_dtype want = v5 && i == 1 ? TFCC_FLOAT32 : TFCC_INT32;
    TFCC_OP_CHECK(ctx, ctx->out[i]->dtype == want, TFCC_ERR_DTYPE,
                  "%s: output %d dtype %s, expected %s", op, i, tfcc_dtype_name(ctx->out[i]->dtype),
                  tfcc_dtype_name(want));
    if (i == n_out - 1)
      st = tfcc_tensor_set_shape(ctx->out[i], 0, NULL, ctx->err);
    else
      st = tfcc_tensor_set_shape(ctx->out[i], 1, &max_out, ctx->err);
    if (st) return st;
  }
  ctx->scratch_bytes = tfcc_nms_fast_scratch_bytes(n);
  return TFCC_OK;
}

static tfcc_status nms_eval(tfcc_op_ctx *ctx, bool v5) {
  const int32_t n = ctx->in[0]->dims[0];
  const int32_t max_out = ctx->out[0]->dims[0];
  const float iou = *(const float *)ctx->in[3]->data;
  const float score = *(const float *)ctx->in[4]->data;
  const float sigma = v5 ? *(const float *)ctx->in[5]->data : 0.0f;
  if (v5 && !(sigma >= 0.0f))
    return tfcc_err_set(ctx->err, TFCC_ERR_RUNTIME,
                        "NON_MAX_SUPPRESSION_V5: soft_nms_sigma %g "
                        "is negative",
                        (double)sigma);
  int32_t *sel = (int32_t *)ctx->out[0]->data;
  float *sel_scores = v5 ? (float *)ctx->out[1]->data : NULL;
  const int32_t count =
      tfcc_nms_fast((const float *)ctx->in[0]->data, (const float *)ctx->in[1]->data, n, max_out,
                    iou, score, sigma, ctx->scratch, sel, sel_scores);
  for (int32_t i = count; i < max_out; i++) {
    sel[i] = 0;
    if (sel_scores) sel_scores[i] = 0.0f;
  }
  *(int32_t *)ctx->out[v5 ? 2 : 1]->data = count;
  return TFCC_OK;
}

static tfcc_status v4_prepare(tfcc_op_ctx *ctx) { return nms_prepare(ctx, false); }
static tfcc_status v4_eval(tfcc_op_ctx *ctx) { return nms_eval(ctx, false); }
static tfcc_status v5_prepare(tfcc_op_ctx *ctx) { return nms_prepare(ctx, true); }
static tfcc_status v5_eval(tfcc_op_ctx *ctx) { return nms_eval(ctx, true); }

static const char *kernel(const tfcc_op_ctx *ctx) {
  (void)ctx;
  return "nms-fast";
}

/* The IoUs eval may take (macs hook): each candidate against up to every selected box, of
 * which there are at most max_output_size and at most n: quadratic in the boxes (200,000 boxes
 * kept by a threshold of 1 are 2e10). */
static int64_t macs(const tfcc_op_ctx *ctx) {
  if (ctx->n_in < 1 || ctx->n_out < 1 || !ctx->in[0] || !ctx->out[0] || ctx->in[0]->rank != 2 ||
      ctx->out[0]->rank != 1)
    return 0;
  const int64_t n = ctx->in[0]->dims[0], max_out = ctx->out[0]->dims[0];
  return tfcc_work_mul(n, max_out < n ? max_out : n);
}

const tfcc_op_def tfcc_op_non_max_suppression_v4 = {.name = "NON_MAX_SUPPRESSION_V4",
                                                    .prepare = v4_prepare,
                                                    .eval = v4_eval,
                                                    .macs = macs,
                                                    .kernel = kernel};
const tfcc_op_def tfcc_op_non_max_suppression_v5 = {.name = "NON_MAX_SUPPRESSION_V5",
                                                    .prepare = v5_prepare,
                                                    .eval = v5_eval,
                                                    .macs = macs,
                                                    .kernel = kernel};
