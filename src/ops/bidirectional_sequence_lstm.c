/* BIDIRECTIONAL_SEQUENCE_LSTM (TFLite bidirectional_sequence_lstm.cc): a forward and a backward
 * LSTM over the same sequence, float32 or hybrid (int8 weights), each direction run by the
 * sequence LSTM's code (ops/lstm_direction.h). Inputs: 0 input ([time, batch, n_input] when
 * BidirectionalSequenceLSTMOptions.time_major, the default, else [batch, time, n_input]);
 * 1-17 forward weights, peepholes, biases, projection (the UNIDIRECTIONAL_SEQUENCE_LSTM order
 * 1-17); 18-34 the backward ones; 35/36 forward output/cell state, 37/38 backward (variable);
 * 39-47 auxiliary input and its weights (not supported). No layer norm (TFLite has none here).
 * Outputs: forward and backward [.., .., n_output], or with merge_outputs one output whose
 * features are the forward ones then the backward ones. The backward cell runs the sequence
 * from its last step. */
#include <string.h>

#include "ops/lstm_direction.h"
#include "ops/op.h"

enum { N_DIR_IN = 20 };

/* The direction's context: its inputs in the 24-input (here 20, no layer norm) order. */
typedef struct dir_ctx {
  tfcc_op_ctx c;
  tfcc_tensor *in[N_DIR_IN];
  tfcc_tensor *out[1];
} dir_ctx;

static const tfcc_tensor *in_opt(const tfcc_op_ctx *ctx, int i) {
  return i < ctx->n_in ? ctx->in[i] : NULL;
}

static void make_dir(const tfcc_op_ctx *ctx, bool backward, dir_ctx *d) {
  d->c = *ctx;
  d->in[0] = ctx->in[0];
  const int base = backward ? 17 : 0;
  for (int i = 1; i <= 17; i++) d->in[i] = (tfcc_tensor *)in_opt(ctx, base + i);
  d->in[18] = (tfcc_tensor *)in_opt(ctx, backward ? 37 : 35);
  d->in[19] = (tfcc_tensor *)in_opt(ctx, backward ? 38 : 36);
  d->out[0] = backward && ctx->n_out > 1 ? ctx->out[1] : ctx->out[0];
  d->c.in = d->in;
  d->c.n_in = N_DIR_IN;
  d->c.out = d->out;
  d->c.n_out = 1;
  d->c.tmp = NULL;
  d->c.n_tmp = 0;
}

static bool merged(const tfcc_op_ctx *ctx) {
  return ctx->node && ctx->node->opts.lstm.merge_outputs;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  if (ctx->n_in != 48)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "BIDIRECTIONAL_SEQUENCE_LSTM: %d inputs, expected 48", (int)ctx->n_in);
  for (int i = 39; i < 48; i++)
    if (ctx->in[i])
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                          "BIDIRECTIONAL_SEQUENCE_LSTM: auxiliary input %d not supported", i);
  const int want_out = merged(ctx) ? 1 : 2;
  if (ctx->n_out != want_out || !ctx->out[0] || (want_out == 2 && !ctx->out[1]))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "BIDIRECTIONAL_SEQUENCE_LSTM: %d outputs, expected %d", (int)ctx->n_out,
                        want_out);
  const tfcc_tensor *x = ctx->in[0];
  if (!x || x->rank != 3)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "BIDIRECTIONAL_SEQUENCE_LSTM: input must have rank 3");
  dir_ctx f, b;
  make_dir(ctx, false, &f);
  make_dir(ctx, true, &b);
  size_t sf, sb;
  int32_t nf, nbw;
  tfcc_status st;
  if ((st = tfcc_lstm_direction_prepare(&f.c, &sf, &nf)) != TFCC_OK) return st;
  if ((st = tfcc_lstm_direction_prepare(&b.c, &sb, &nbw)) != TFCC_OK) return st;
  ctx->scratch_bytes = sf > sb ? sf : sb;
  int32_t dims[3] = {x->dims[0], x->dims[1], merged(ctx) ? nf + nbw : nf};
  if ((st = tfcc_tensor_set_shape(ctx->out[0], 3, dims, ctx->err)) != TFCC_OK) return st;
  if (!merged(ctx)) {
    dims[2] = nbw;
    if ((st = tfcc_tensor_set_shape(ctx->out[1], 3, dims, ctx->err)) != TFCC_OK) return st;
  }
  return TFCC_OK;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  dir_ctx f, b;
  make_dir(ctx, false, &f);
  make_dir(ctx, true, &b);
  const bool m = merged(ctx);
  /* output widths: forward n_output from its recurrent weights, backward likewise */
  const int32_t fw_n = ctx->in[8]->dims[1], bw_n = ctx->in[25]->dims[1];
  tfcc_status st;
  if (m) {
    const int32_t stride = fw_n + bw_n;
    if ((st = tfcc_lstm_direction_eval(&f.c, false, ctx->out[0]->data, stride, 0)) != TFCC_OK)
      return st;
    return tfcc_lstm_direction_eval(&b.c, true, ctx->out[0]->data, stride, fw_n);
  }
  if ((st = tfcc_lstm_direction_eval(&f.c, false, ctx->out[0]->data, fw_n, 0)) != TFCC_OK)
    return st;
  return tfcc_lstm_direction_eval(&b.c, true, ctx->out[1]->data, bw_n, 0);
}

const tfcc_op_def tfcc_op_bidirectional_sequence_lstm = {
    .name = "BIDIRECTIONAL_SEQUENCE_LSTM", .prepare = prepare, .eval = eval};
