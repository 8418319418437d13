/* RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN (TFLite basic_rnn.cc,
 * unidirectional_sequence_rnn.cc, bidirectional_sequence_rnn.cc): the fully connected cell
 * out = act(bias + W x + R h) of kernels/ref/rnn.h, float32 or hybrid (float32 input, int8
 * weights with per-tensor scales, RNNOptions/SequenceRNNOptions asymmetric_quantize_inputs).
 * Inputs: RNN (input [batch, n_input], W [units, n_input], R [units, units], bias [units],
 * hidden state [batch, units] (variable)) -> output [batch, units].
 * UNIDIRECTIONAL_SEQUENCE_RNN: the same with input [batch, time, n_input] (time_major: [time,
 * batch, n_input]) -> output [.., .., units].
 * BIDIRECTIONAL_SEQUENCE_RNN: input, forward W, R, bias, hidden state (1-4), backward W, R, bias,
 * hidden state (5-8), optional auxiliary input (9) and its forward and backward weights (10, 11);
 * the backward cell runs the sequence from its end. As TFLite: with auxiliary weights both cells
 * add A aux after W x (cross links; it steps through the auxiliary input by the input's row
 * length, so another feature count is refused); an auxiliary input without weights feeds the
 * backward cell instead of the input with time-major input, and is ignored with batch-major
 * input (TFLite's batch-major loops read input 0 for the backward cell). Outputs: forward and backward [.., .., units], or with
 * merge_outputs one output [.., .., 2 units] (forward then backward features). Hybrid with
 * time-major input repeats the sequences n_time times, as TFLite's kernel does (see eval); the
 * unmerged backward output is sized [batch, time, units] whatever the layout, as TFLite's. */
#include <string.h>

#include "kernels/ref/rnn.h"
#include "ops/op.h"
#include "ops/work_estimate.h"

typedef enum { RNN_STEP, RNN_SEQ, RNN_BIDI } rnn_kind;

static rnn_kind kind_of(const tfcc_op_ctx *ctx) {
  if (!ctx->node) return RNN_STEP;
  switch (ctx->node->builtin) {
    case TFCC_OP_UNIDIRECTIONAL_SEQUENCE_RNN: return RNN_SEQ;
    case TFCC_OP_BIDIRECTIONAL_SEQUENCE_RNN: return RNN_BIDI;
    default: return RNN_STEP;
  }
}

static const char *name_of(rnn_kind k) {
  return k == RNN_STEP  ? "RNN"
         : k == RNN_SEQ ? "UNIDIRECTIONAL_SEQUENCE_RNN"
                        : "BIDIRECTIONAL_SEQUENCE_RNN";
}

#define CHECK_(cond, code, ...) \
  do { \
    if (!(cond)) { \
      tfcc_err_set(ctx->err, (code), __VA_ARGS__); \
      return tfcc_err_prefix(ctx->err, "%s", name_of(kind_of(ctx))); \
    } \
  } while (0)

typedef enum { AUX_NONE, AUX_CROSS, AUX_BW_INPUT } aux_mode;

typedef struct rnn_setup {
  rnn_kind kind;
  aux_mode aux;
  int32_t n_batch, n_time, n_input, units, n_aux;
  bool time_major, hybrid, merge;
  int act;
  bool asym;
} rnn_setup;

static const tfcc_tensor *in_opt(const tfcc_op_ctx *ctx, int i) {
  return i < ctx->n_in ? ctx->in[i] : NULL;
}

static float scale_of(const tfcc_tensor *t) {
  return t && t->quant && t->quant->count > 0 ? t->quant->scale[0] : 0.f;
}

/* One direction's W, R, bias and state at inputs base..base+3. */
static tfcc_status check_cell(tfcc_op_ctx *ctx, rnn_setup *su, int base, bool first) {
  const tfcc_tensor *w = in_opt(ctx, base), *r = in_opt(ctx, base + 1), *b = in_opt(ctx, base + 2),
                    *h = in_opt(ctx, base + 3);
  CHECK_(w && r && b && h, TFCC_ERR_INVALID_MODEL,
         "inputs %d-%d (weights, recurrent weights, bias, "
         "hidden state) are required",
         base, base + 3);
  CHECK_(w->rank == 2 && r->rank == 2 && b->rank == 1, TFCC_ERR_SHAPE,
         "weights and recurrent weights must have rank 2, bias rank 1");
  if (first) {
    su->units = w->dims[0];
    su->hybrid = w->dtype == TFCC_INT8;
  }
  CHECK_(w->dims[0] == su->units && w->dims[1] == su->n_input, TFCC_ERR_SHAPE,
         "input %d: weights [%d, %d], expected [%d, %d]", base, (int)w->dims[0], (int)w->dims[1],
         (int)su->units, (int)su->n_input);
  CHECK_(r->dims[0] == su->units && r->dims[1] == su->units, TFCC_ERR_SHAPE,
         "input %d: recurrent weights [%d, %d], expected [%d, %d]", base + 1, (int)r->dims[0],
         (int)r->dims[1], (int)su->units, (int)su->units);
  CHECK_(b->dims[0] == su->units && b->dtype == TFCC_FLOAT32, TFCC_ERR_SHAPE,
         "input %d: bias must be float32 [%d]", base + 2, (int)su->units);
  const tfcc_dtype wdt = su->hybrid ? TFCC_INT8 : TFCC_FLOAT32;
  CHECK_(w->dtype == wdt && r->dtype == wdt, TFCC_ERR_DTYPE,
         "weights %s and recurrent weights %s must both be float32 or both int8",
         tfcc_dtype_name(w->dtype), tfcc_dtype_name(r->dtype));
  if (su->hybrid)
    CHECK_(scale_of(w) > 0.f && scale_of(r) > 0.f, TFCC_ERR_INVALID_MODEL,
           "int8 weights without a quantization scale");
  CHECK_(h->dtype == TFCC_FLOAT32 && h->rank == 2 && h->dims[0] == su->n_batch &&
             h->dims[1] == su->units,
         TFCC_ERR_SHAPE, "input %d: hidden state must be float32 [%d, %d]", base + 3,
         (int)su->n_batch, (int)su->units);
  return TFCC_OK;
}

/* BIDIRECTIONAL_SEQUENCE_RNN's auxiliary input (9) and weights (10, 11), as TFLite's Prepare
 * and Eval read them; sets su->aux and su->n_aux. */
static tfcc_status check_aux(tfcc_op_ctx *ctx, rnn_setup *su) {
  const tfcc_tensor *a = in_opt(ctx, 9), *fa = in_opt(ctx, 10), *ba = in_opt(ctx, 11),
                    *x = ctx->in[0];
  CHECK_((fa == NULL) == (ba == NULL), TFCC_ERR_INVALID_MODEL,
         "auxiliary weights: forward (10) and backward (11) both present or both absent");
  su->aux = fa ? AUX_CROSS : a ? AUX_BW_INPUT : AUX_NONE;
  if (su->aux == AUX_NONE) return TFCC_OK;
  CHECK_(a, TFCC_ERR_INVALID_MODEL, "auxiliary weights without the auxiliary input (9)");
  CHECK_(a->dtype == TFCC_FLOAT32 && a->rank == 3 && a->dims[0] == x->dims[0] &&
             a->dims[1] == x->dims[1],
         TFCC_ERR_SHAPE, "auxiliary input (9) must be float32 [%d, %d, ..] like the input",
         (int)x->dims[0], (int)x->dims[1]);
  su->n_aux = a->dims[2];
  CHECK_(su->n_aux == su->n_input, TFCC_ERR_UNSUPPORTED,
         "auxiliary input has %d features, the input %d: TFLite steps through the auxiliary input "
         "by the input's row length (bidirectional_sequence_rnn.cc), so only equal sizes read "
         "the right rows",
         (int)su->n_aux, (int)su->n_input);
  if (su->aux == AUX_BW_INPUT) {
    su->n_aux = 0; /* not a cross term: the backward cell's input */
    return TFCC_OK;
  }
  const tfcc_dtype wdt = su->hybrid ? TFCC_INT8 : TFCC_FLOAT32;
  for (int i = 10; i <= 11; i++) {
    const tfcc_tensor *w = ctx->in[i];
    CHECK_(w->dtype == wdt && w->rank == 2 && w->dims[0] == su->units && w->dims[1] == su->n_aux,
           TFCC_ERR_SHAPE, "auxiliary weights (%d): %s rank %d, expected %s [%d, %d]", i,
           tfcc_dtype_name(w->dtype), (int)w->rank, tfcc_dtype_name(wdt), (int)su->units,
           (int)su->n_aux);
    if (su->hybrid)
      CHECK_(scale_of(w) > 0.f, TFCC_ERR_INVALID_MODEL,
             "auxiliary weights (%d) without a quantization scale", i);
  }
  return TFCC_OK;
}

static tfcc_status setup(tfcc_op_ctx *ctx, rnn_setup *su) {
  memset(su, 0, sizeof *su);
  su->kind = kind_of(ctx);
  const tfcc_rnn_options *o = ctx->node ? &ctx->node->opts.rnn : NULL;
  su->act = o ? o->activation : 0;
  su->asym = o ? o->asymmetric_quantize_inputs : false;
  su->time_major = su->kind == RNN_STEP || (o && o->time_major);
  su->merge = su->kind == RNN_BIDI && o && o->merge_outputs;
  CHECK_(su->act <= 4 || su->act == 6, TFCC_ERR_UNSUPPORTED, "fused activation %d unsupported",
         su->act);
  const int want_in = su->kind == RNN_BIDI ? 9 : 5;
  CHECK_(ctx->n_in >= want_in && ctx->n_in <= (su->kind == RNN_BIDI ? 12 : 5),
         TFCC_ERR_INVALID_MODEL, "%d inputs, expected %d", (int)ctx->n_in, want_in);
  const int want_out = su->kind == RNN_BIDI && !su->merge ? 2 : 1;
  CHECK_(ctx->n_out == want_out, TFCC_ERR_INVALID_MODEL, "%d outputs, expected %d", (int)ctx->n_out,
         want_out);
  const tfcc_tensor *x = ctx->in[0];
  CHECK_(x && x->dtype == TFCC_FLOAT32, TFCC_ERR_DTYPE, "input must be float32");
  const int rank = su->kind == RNN_STEP ? 2 : 3;
  CHECK_(x->rank == rank, TFCC_ERR_SHAPE, "input rank %d, expected %d", (int)x->rank, rank);
  if (su->kind == RNN_STEP) {
    su->n_batch = x->dims[0];
    su->n_time = 1;
  } else {
    su->n_batch = su->time_major ? x->dims[1] : x->dims[0];
    su->n_time = su->time_major ? x->dims[0] : x->dims[1];
  }
  su->n_input = x->dims[rank - 1];
  tfcc_status st;
  if ((st = check_cell(ctx, su, 1, true)) != TFCC_OK) return st;
  if (su->kind == RNN_BIDI && (st = check_cell(ctx, su, 5, false)) != TFCC_OK) return st;
  if (su->kind == RNN_BIDI)
    CHECK_((ctx->in[1]->dtype == TFCC_INT8) == su->hybrid, TFCC_ERR_DTYPE,
           "forward and backward weights differ in dtype");
  if (su->kind == RNN_BIDI && (st = check_aux(ctx, su)) != TFCC_OK) return st;
  for (int i = 0; i < ctx->n_out; i++)
    CHECK_(ctx->out[i] && ctx->out[i]->dtype == TFCC_FLOAT32, TFCC_ERR_DTYPE,
           "output %d must be float32", i);
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  rnn_setup su;
  tfcc_status st = setup(ctx, &su);
  if (st != TFCC_OK) return st;
  ctx->scratch_bytes =
      su.hybrid ? tfcc_rnn_hybrid_scratch_bytes(su.n_input, su.n_aux, su.units) : 0;
  const tfcc_tensor *x = ctx->in[0];
  int32_t dims[3] = {x->dims[0], x->dims[1], 0};
  const int rank = su.kind == RNN_STEP ? 2 : 3;
  dims[rank - 1] = su.merge ? 2 * su.units : su.units;
  if ((st = tfcc_tensor_set_shape(ctx->out[0], rank, dims, ctx->err)) != TFCC_OK) return st;
  if (ctx->n_out > 1) {
    /* TFLite sizes the backward output [batch, time, units] even for time-major input (its data
     * is still written time-major) */
    const int32_t bw_dims[3] = {su.n_batch, su.n_time, su.units};
    if ((st = tfcc_tensor_set_shape(ctx->out[1], 3, bw_dims, ctx->err)) != TFCC_OK) return st;
  }
  return TFCC_OK;
}

/* One direction over the whole sequence: cell inputs at base, output features written at
 * column offset off of rows `stride` floats wide; backward runs the time steps in reverse. */
static void run_cell(const tfcc_op_ctx *ctx, const rnn_setup *su, int base, bool backward,
                     float *out, int32_t stride, int32_t off) {
  /* TFLite's time-major loops read the backward cell's input from the auxiliary input when it
   * has no weights; its batch-major loops read input 0 */
  const bool bw_aux = backward && su->aux == AUX_BW_INPUT && su->time_major;
  const float *x = ctx->in[bw_aux ? 9 : 0]->data;
  const tfcc_tensor *aw = su->aux == AUX_CROSS ? ctx->in[backward ? 11 : 10] : NULL;
  tfcc_rnn_aux ax = {NULL, aw ? aw->data : NULL, scale_of(aw), aw ? su->n_aux : 0};
  const float *aux_all = aw ? ctx->in[9]->data : NULL;
  float *h_all = ctx->in[base + 3]->data;
  const float *bias = ctx->in[base + 2]->data;
  tfcc_rnn_hybrid_weights hw = {0};
  if (su->hybrid) {
    hw.w = ctx->in[base]->data;
    hw.r = ctx->in[base + 1]->data;
    hw.w_scale = scale_of(ctx->in[base]);
    hw.r_scale = scale_of(ctx->in[base + 1]);
    hw.bias = bias;
  }
  /* The step's output row (units floats) is computed in place in out, then read as h. */
  for (int32_t b = 0; b < su->n_batch; b++) {
    float *h = h_all + (size_t)b * su->units;
    for (int32_t s = 0; s < su->n_time; s++) {
      const int32_t t = backward ? su->n_time - 1 - s : s;
      const size_t row = su->time_major ? (size_t)t * su->n_batch + b : (size_t)b * su->n_time + t;
      const float *xr = x + row * su->n_input;
      float *o = out + row * stride + off;
      if (aux_all) ax.x = aux_all + row * su->n_aux;
      if (su->hybrid)
        tfcc_rnn_step_hybrid(xr, &hw, &ax, su->n_input, su->units, su->act, su->asym, h, o,
                             ctx->scratch);
      else
        tfcc_rnn_step_f32(xr, ctx->in[base]->data, ctx->in[base + 1]->data, bias, &ax, su->n_input,
                          su->units, su->act, h, o);
    }
  }
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  rnn_setup su;
  tfcc_status st = setup(ctx, &su);
  if (st != TFCC_OK) return st;
  if (su.kind != RNN_BIDI) {
    run_cell(ctx, &su, 1, false, ctx->out[0]->data, su.units, 0);
    return TFCC_OK;
  }
  /* As TFLite's EvalHybrid: with time-major input the hybrid kernel runs both whole sequences
   * once per time step (its outer time loop repeats the inner one), so the states and outputs
   * are those of the n_time-th pass. The float kernel runs each sequence once. */
  const int32_t passes = su.hybrid && su.time_major ? su.n_time : 1;
  float *fw = ctx->out[0]->data, *bw = su.merge ? fw : ctx->out[1]->data;
  const int32_t stride = su.merge ? 2 * su.units : su.units;
  for (int32_t p = 0; p < passes; p++) {
    /* n_time passes of n_time steps: a long sequence in a small file would run for hours */
    if (p > 0 && (st = tfcc_run_budget_check(ctx->budget, ctx->err)) != TFCC_OK)
      return tfcc_err_prefix(ctx->err, "BIDIRECTIONAL_SEQUENCE_RNN pass %d of %d", (int)p,
                             (int)passes);
    run_cell(ctx, &su, 1, false, fw, stride, 0);
    run_cell(ctx, &su, 5, true, bw, stride, su.merge ? su.units : 0);
  }
  return TFCC_OK;
}

static int64_t macs(const tfcc_op_ctx *ctx) {
  rnn_setup su;
  tfcc_op_quiet q;
  if (setup(tfcc_op_quiet_ctx(ctx, &q), &su) != TFCC_OK) return 0;
  const int64_t per = tfcc_work_mul(su.units, (int64_t)su.n_input + su.units);
  return tfcc_work_mul(tfcc_work_mul3(per, su.n_batch, su.n_time), su.kind == RNN_BIDI ? 2 : 1);
}

const tfcc_op_def tfcc_op_rnn = {.name = "RNN", .prepare = prepare, .eval = eval, .macs = macs};
const tfcc_op_def tfcc_op_unidirectional_sequence_rnn = {
    .name = "UNIDIRECTIONAL_SEQUENCE_RNN", .prepare = prepare, .eval = eval, .macs = macs};
const tfcc_op_def tfcc_op_bidirectional_sequence_rnn = {
    .name = "BIDIRECTIONAL_SEQUENCE_RNN", .prepare = prepare, .eval = eval, .macs = macs};
