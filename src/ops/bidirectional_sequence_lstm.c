/* BIDIRECTIONAL_SEQUENCE_LSTM (TFLite bidirectional_sequence_lstm.cc): a forward and a backward
 * LSTM over the same sequence, float32 or hybrid (int8 weights), each direction run by the
 * sequence LSTM's code (ops/lstm_direction.h). Inputs: 0 input ([time, batch, n_input] when
 * BidirectionalSequenceLSTMOptions.time_major, the default, else [batch, time, n_input]);
 * 1-17 forward weights, peepholes, biases, projection (the UNIDIRECTIONAL_SEQUENCE_LSTM order
 * 1-17); 18-34 the backward ones; 35/36 forward output/cell state, 37/38 backward (variable);
 * 39 auxiliary input, 40-43 its forward weights per gate, 44-47 its backward ones. As TFLite:
 * with auxiliary weights (the forget gate's decides) both cells add the auxiliary input's
 * products (cross links, tf.contrib.rnn.stack_bidirectional_rnn); with an auxiliary input and
 * no auxiliary weights the backward cell reads the auxiliary input instead of input 0 (the
 * previous layer's backward output, tf.nn.static_bidirectional_rnn stacked; it must have input
 * 0's shape, as TFLite checks the backward weights against input 0). No layer norm (TFLite has
 * none here).
 * Outputs: forward and backward [.., .., n_output], or with merge_outputs one output whose
 * features are the forward ones then the backward ones. The backward cell runs the sequence
 * from its last step. */
#include <string.h>

#include "ops/lstm_direction.h"
#include "ops/op.h"
#include "ops/work_estimate.h"

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

enum { IN_AUX = 39, IN_FW_AUX_W = 40, IN_BW_AUX_W = 44 };

/* The auxiliary input's mode: none, cross links (aux weights), or the backward cell's input. */
typedef enum aux_mode { AUX_NONE, AUX_CROSS, AUX_BW_INPUT } aux_mode;

static aux_mode aux_mode_of(const tfcc_op_ctx *ctx) {
  if (in_opt(ctx, IN_FW_AUX_W + 1)) return AUX_CROSS;
  return in_opt(ctx, IN_AUX) ? AUX_BW_INPUT : AUX_NONE;
}

/* The direction's auxiliary input (cross links only), in *a; NULL otherwise. */
static const tfcc_lstm_aux *aux_of(const tfcc_op_ctx *ctx, bool backward, tfcc_lstm_aux *a) {
  if (aux_mode_of(ctx) != AUX_CROSS) return NULL;
  a->x = in_opt(ctx, IN_AUX);
  for (int g = 0; g < 4; g++) a->w[g] = in_opt(ctx, (backward ? IN_BW_AUX_W : IN_FW_AUX_W) + g);
  return a;
}

static void make_dir(const tfcc_op_ctx *ctx, bool backward, dir_ctx *d) {
  d->c = *ctx;
  d->in[0] = backward && aux_mode_of(ctx) == AUX_BW_INPUT ? ctx->in[IN_AUX] : ctx->in[0];
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
  /* TFLite: the auxiliary cell, forget and output weights all present or all absent */
  int n_aux_w = 0;
  for (int i = IN_FW_AUX_W + 1; i < 48; i++)
    if (i != IN_BW_AUX_W) n_aux_w += ctx->in[i] != NULL;
  if (n_aux_w != 0 && n_aux_w != 6)
    return tfcc_err_set(
        ctx->err, TFCC_ERR_INVALID_MODEL,
        "BIDIRECTIONAL_SEQUENCE_LSTM: %d of the 6 auxiliary forget, cell and output "
        "weights (41-43, 45-47) present: all or none",
        n_aux_w);
  if (n_aux_w == 6 && !ctx->in[IN_AUX])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "BIDIRECTIONAL_SEQUENCE_LSTM: auxiliary weights without the auxiliary "
                        "input (39)");
  if (aux_mode_of(ctx) == AUX_BW_INPUT) {
    const tfcc_tensor *a = ctx->in[IN_AUX], *x0 = ctx->in[0];
    bool same = x0 && a->rank == x0->rank && a->dtype == x0->dtype;
    for (int32_t k = 0; same && k < a->rank; k++) same = a->dims[k] == x0->dims[k];
    if (!same || ctx->in[IN_FW_AUX_W] || ctx->in[IN_BW_AUX_W])
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                          "BIDIRECTIONAL_SEQUENCE_LSTM: an auxiliary input (39) without auxiliary "
                          "weights feeds the backward cell and must have input 0's dtype and "
                          "shape (and no input-gate auxiliary weights)");
  }
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
  tfcc_lstm_aux fa, ba;
  size_t sf, sb;
  int32_t nf, nbw;
  tfcc_status st;
  if ((st = tfcc_lstm_direction_prepare(&f.c, aux_of(ctx, false, &fa), &sf, &nf)) != TFCC_OK)
    return st;
  if ((st = tfcc_lstm_direction_prepare(&b.c, aux_of(ctx, true, &ba), &sb, &nbw)) != TFCC_OK)
    return st;
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
  tfcc_lstm_aux fa, ba;
  const tfcc_lstm_aux *fx = aux_of(ctx, false, &fa), *bx = aux_of(ctx, true, &ba);
  const bool m = merged(ctx);
  /* output widths: forward n_output from its recurrent weights, backward likewise */
  const int32_t fw_n = ctx->in[8]->dims[1], bw_n = ctx->in[25]->dims[1];
  tfcc_status st;
  if (m) {
    const int32_t stride = fw_n + bw_n;
    if ((st = tfcc_lstm_direction_eval(&f.c, fx, false, ctx->out[0]->data, stride, 0)) != TFCC_OK)
      return st;
    return tfcc_lstm_direction_eval(&b.c, bx, true, ctx->out[0]->data, stride, fw_n);
  }
  if ((st = tfcc_lstm_direction_eval(&f.c, fx, false, ctx->out[0]->data, fw_n, 0)) != TFCC_OK)
    return st;
  return tfcc_lstm_direction_eval(&b.c, bx, true, ctx->out[1]->data, bw_n, 0);
}

/* Both directions' gate products over the sequence (tfcc_op_info.macs). */
static int64_t macs(const tfcc_op_ctx *ctx) {
  if (ctx->n_in != 48 || !ctx->in[0] || ctx->in[0]->rank != 3) return 0;
  dir_ctx f, b;
  make_dir(ctx, false, &f);
  make_dir(ctx, true, &b);
  tfcc_lstm_aux fa, ba;
  return tfcc_work_add(tfcc_lstm_direction_macs(&f.c, aux_of(ctx, false, &fa)),
                       tfcc_lstm_direction_macs(&b.c, aux_of(ctx, true, &ba)));
}

const tfcc_op_def tfcc_op_bidirectional_sequence_lstm = {
    .name = "BIDIRECTIONAL_SEQUENCE_LSTM", .prepare = prepare, .eval = eval, .macs = macs};
