/* REVERSE_SEQUENCE: inputs (input, seq_lengths int32/int64 [input dims[batch_dim]]),
 * ReverseSequenceOptions seq_dim, batch_dim (distinct, in [0, rank)). For each batch entry b the
 * first seq_lengths[b] elements along seq_dim are reversed, the rest kept
 * (reverse_sequence.cc). float32, uint8, int16, int32, int64 (bytes copied; TFLite has no int8). A length
 * outside [0, input dims[seq_dim]] fails eval. */
#include "kernels/ref/rearrange.h"
#include "ops/shape_ops_util.h"

#define OP "REVERSE_SEQUENCE"

static tfcc_status reverse_sequence_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *len;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, 1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &len))) return st;
  static const int allowed[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT16, TFCC_INT32, TFCC_INT64, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "input 0", in->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx, len->dtype == TFCC_INT32 || len->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": seq_lengths dtype %s, expected int32 or int64", tfcc_dtype_name(len->dtype));
  const int32_t sd = ctx->node->opts.reverse_sequence.seq_dim,
                bd = ctx->node->opts.reverse_sequence.batch_dim;
  TFCC_OP_CHECK(ctx, sd >= 0 && sd < in->rank && bd >= 0 && bd < in->rank && sd != bd,
                TFCC_ERR_INVALID_MODEL,
                OP ": seq_dim %d and batch_dim %d must be distinct axes of the rank-%d input",
                (int)sd, (int)bd, (int)in->rank);
  TFCC_OP_CHECK(ctx, len->rank == 1 && len->dims[0] == in->dims[bd], TFCC_ERR_SHAPE,
                OP ": seq_lengths must be 1-D with %d entries (input dimension %d)",
                (int)in->dims[bd], (int)bd);
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  return tfcc_tensor_set_shape(ctx->out[0], in->rank, in->dims, ctx->err);
}

static tfcc_status reverse_sequence_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0], *len = ctx->in[1];
  const int32_t sd = ctx->node->opts.reverse_sequence.seq_dim,
                bd = ctx->node->opts.reverse_sequence.batch_dim;
  int64_t *lens = ctx->scratch;
  const int32_t nb = in->dims[bd];
  for (int32_t b = 0; b < nb; b++) {
    lens[b] = len->dtype == TFCC_INT32 ? ((const int32_t *)len->data)[b]
                                       : ((const int64_t *)len->data)[b];
    TFCC_OP_CHECK(ctx, lens[b] >= 0 && lens[b] <= in->dims[sd], TFCC_ERR_RUNTIME,
                  OP ": seq_lengths[%d] = %lld outside [0, %d]", (int)b, (long long)lens[b],
                  (int)in->dims[sd]);
  }
  const int32_t a0 = sd < bd ? sd : bd, a1 = sd < bd ? bd : sd;
  tfcc_ref_reverse_sequence(in->data, lens, tfcc_so_prod(in->dims, 0, a0), in->dims[a0],
                            tfcc_so_prod(in->dims, a0 + 1, a1), in->dims[a1],
                            tfcc_so_prod(in->dims, a1 + 1, in->rank), sd < bd,
                            tfcc_dtype_size(in->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

static tfcc_status reverse_sequence_prepare_scratch(tfcc_op_ctx *ctx) {
  tfcc_status st = reverse_sequence_prepare(ctx);
  if (st == TFCC_OK)
    ctx->scratch_bytes = sizeof(int64_t) *
                         (size_t)(ctx->in[0]->dims[ctx->node->opts.reverse_sequence.batch_dim] + 1);
  return st;
}

const tfcc_op_def tfcc_op_reverse_sequence = {
    .name = OP, .prepare = reverse_sequence_prepare_scratch, .eval = reverse_sequence_eval};
