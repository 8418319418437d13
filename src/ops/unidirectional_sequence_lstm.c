/* UNIDIRECTIONAL_SEQUENCE_LSTM (TFLite unidirectional_sequence_lstm.cc + lstm_eval.cc), and
 * LSTM (lstm.cc, the FULL kernel type: one time step of input [batch, input] -> output
 * [batch, output], the same arithmetic with n_time 1; LSTMOptions.kernel_type BASIC is rejected).
 * Inputs (lstm::full order): 0 input, 1-4 input-to-{input,forget,cell,output} weights,
 * 5-8 recurrent-to-{...} weights, 9-11 cell-to-{input,forget,output} (peephole), 12-15 gate
 * biases, 16 projection weights, 17 projection bias, 18 output state (variable), 19 cell
 * state (variable), 20-23 layer-norm coefficients. Float32, full integer (int8 input and
 * weights, int16 cell state, 5 intermediates carrying the gate scales), or hybrid (float input
 * and states, int8 weights with per-tensor scales, float biases; kernels/ref/lstm_hybrid.c,
 * options asymmetric_quantize_inputs). Integer layer norm (int16 coefficients, the gate scales
 * from intermediates 0-3) runs the reference kernel.
 * Fast paths (model-level params): with constant weights the first prepare (model load runs it)
 * builds the integer plan of src/kernels/q8-lstm (multipliers, effective biases, packed
 * weights), byte-identical to the reference kernel, or the float plan of src/kernels/f32-lstm
 * (packed GEMM weights; no layer norm, tanh activation); eval then runs it without re-deriving
 * anything. Otherwise eval runs the reference kernel. With a weights cache the plan's packed
 * arrays are one block of it (TFCC_BLOCK_F32_LSTM / _Q8_LSTM): a warm load packs nothing. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-lstm/lstm.h"
#include "kernels/q8-lstm/lstm.h"
#include "kernels/ref/lstm.h"
#include "kernels/ref/quant_util.h"
#include "ops/lstm_direction.h"
#include "ops/op.h"
#include "ops/work_estimate.h"

enum {
  IN_X = 0,
  IN_W = 1,
  IN_R = 5,
  IN_PEEP = 9,
  IN_BIAS = 12,
  IN_PROJ_W = 16,
  IN_PROJ_B = 17,
  IN_H = 18,
  IN_C = 19,
  IN_LN = 20
};

typedef struct lstm_setup {
  tfcc_lstm_shape s;
  bool step; /* LSTM: one step, input [batch, input] */
  bool is_int;
  bool hybrid; /* float input, int8 weights (per-tensor scales) */
  bool cifg, peephole, projection, layer_norm;
  int activation;
  float cell_clip, proj_clip;
} lstm_setup;

static const tfcc_tensor *in_opt(const tfcc_op_ctx *ctx, int i) {
  return i < ctx->n_in ? ctx->in[i] : NULL;
}

/* Gate g's tensor at base+g (gate 0..3), with peephole base mapping gates 0,1,3 to 9,10,11. */
static const tfcc_tensor *peep_of(const tfcc_op_ctx *ctx, int g) {
  if (g == 2) return NULL;
  return in_opt(ctx, IN_PEEP + (g == 3 ? 2 : g));
}

static float scale_of(const tfcc_tensor *t) {
  return t && t->quant && t->quant->count > 0 ? t->quant->scale[0] : 0.f;
}
static int32_t zp_of(const tfcc_tensor *t) {
  return t && t->quant && t->quant->count > 0 ? t->quant->zero_point[0] : 0;
}

/* The LSTM builtin (one step) rather than the sequence operator. */
static bool is_step(const tfcc_op_ctx *ctx) {
  return ctx->node && ctx->node->builtin == TFCC_OP_LSTM;
}

static const char *op_name(const tfcc_op_ctx *ctx) {
  if (ctx->node && ctx->node->builtin == TFCC_OP_BIDIRECTIONAL_SEQUENCE_LSTM)
    return "BIDIRECTIONAL_SEQUENCE_LSTM (one direction)";
  return is_step(ctx) ? "LSTM" : "UNIDIRECTIONAL_SEQUENCE_LSTM";
}

/* Fails with the message prefixed by the operator's name. */
#define CHECK_(cond, code, ...) \
  do { \
    if (!(cond)) { \
      tfcc_err_set(ctx->err, (code), __VA_ARGS__); \
      return tfcc_err_prefix(ctx->err, "%s", op_name(ctx)); \
    } \
  } while (0)

static tfcc_status check_tensor(tfcc_op_ctx *ctx, const tfcc_tensor *t, int idx, tfcc_dtype dt,
                                int32_t rank, int32_t d0, int32_t d1) {
  CHECK_(t->dtype == dt, TFCC_ERR_DTYPE, "input %d dtype %s, expected %s", idx,
         tfcc_dtype_name(t->dtype), tfcc_dtype_name(dt));
  CHECK_(t->rank == rank && t->dims[0] == d0 && (rank == 1 || t->dims[1] == d1), TFCC_ERR_SHAPE,
         "input %d: rank %d shape does not match the expected %s [%d,%d]", idx, (int)t->rank,
         rank == 1 ? "vector" : "matrix", (int)d0, (int)(rank == 1 ? 1 : d1));
  return TFCC_OK;
}

static tfcc_status setup(tfcc_op_ctx *ctx, lstm_setup *su) {
  memset(su, 0, sizeof(*su));
  CHECK_(ctx->n_in == 24 || ctx->n_in == 20, TFCC_ERR_INVALID_MODEL, "%d inputs, expected 24 or 20",
         (int)ctx->n_in);
  CHECK_(ctx->n_out == 1 && ctx->out[0], TFCC_ERR_INVALID_MODEL, "%d outputs, expected 1",
         (int)ctx->n_out);
  const tfcc_tensor *x = ctx->in[IN_X];
  CHECK_(x, TFCC_ERR_INVALID_MODEL, "input 0 is required");
  const tfcc_sequence_lstm_options *opt = ctx->node ? &ctx->node->opts.lstm : NULL;
  su->activation = opt ? opt->activation : 0;
  su->cell_clip = opt ? opt->cell_clip : 0.f;
  su->proj_clip = opt ? opt->proj_clip : 0.f;
  su->s.time_major = opt ? opt->time_major : false;
  su->step = is_step(ctx);
  if (su->step) {
    su->s.time_major = true;
    CHECK_(!opt || opt->kernel_type == 0, TFCC_ERR_UNSUPPORTED,
           "kernel_type BASIC (the 5-input uint8 LSTM) not supported");
  }
  CHECK_(su->cell_clip >= 0.f && su->proj_clip >= 0.f, TFCC_ERR_INVALID_MODEL,
         "cell_clip %g and proj_clip %g must be >= 0", (double)su->cell_clip,
         (double)su->proj_clip);
  CHECK_(su->activation <= 4 || su->activation == 6, TFCC_ERR_UNSUPPORTED,
         "fused activation %d unsupported", su->activation);
  CHECK_(x->rank == (su->step ? 2 : 3), TFCC_ERR_SHAPE, "input rank %d, expected %d", (int)x->rank,
         su->step ? 2 : 3);
  su->is_int = x->dtype == TFCC_INT8;
  CHECK_(x->dtype == TFCC_FLOAT32 || x->dtype == TFCC_INT8, TFCC_ERR_UNSUPPORTED,
         "input dtype %s unsupported (float32 or int8)", tfcc_dtype_name(x->dtype));
  tfcc_lstm_shape *s = &su->s;
  s->n_batch = su->step ? x->dims[0] : s->time_major ? x->dims[1] : x->dims[0];
  s->n_time = su->step ? 1 : s->time_major ? x->dims[0] : x->dims[1];
  s->n_input = x->dims[x->rank - 1];

  const tfcc_tensor *w_o = in_opt(ctx, IN_W + 3), *r_o = in_opt(ctx, IN_R + 3);
  CHECK_(w_o && r_o, TFCC_ERR_INVALID_MODEL,
         "input-to-output and recurrent-to-output weights are required");
  CHECK_(w_o->rank == 2 && r_o->rank == 2, TFCC_ERR_SHAPE, "weights must have rank 2");
  s->n_cell = w_o->dims[0];
  s->n_output = r_o->dims[1];
  CHECK_(s->n_batch >= 0 && s->n_time >= 0 && s->n_input > 0 && s->n_cell > 0 && s->n_output > 0,
         TFCC_ERR_SHAPE, "bad sizes: batch %d time %d input %d cell %d output %d", (int)s->n_batch,
         (int)s->n_time, (int)s->n_input, (int)s->n_cell, (int)s->n_output);
  su->hybrid = !su->is_int && w_o->dtype == TFCC_INT8;
  const tfcc_dtype wdt = su->is_int || su->hybrid ? TFCC_INT8 : TFCC_FLOAT32;
  const tfcc_dtype bdt = su->is_int ? TFCC_INT32 : TFCC_FLOAT32;
  su->cifg = in_opt(ctx, IN_W) == NULL;
  CHECK_((in_opt(ctx, IN_R) == NULL) == su->cifg && (in_opt(ctx, IN_BIAS) == NULL) == su->cifg,
         TFCC_ERR_INVALID_MODEL,
         "input gate weights, recurrent weights and bias must be all present or all absent (CIFG)");
  tfcc_status st;
  for (int g = 0; g < 4; g++) {
    if (g == 0 && su->cifg) continue;
    const tfcc_tensor *w = in_opt(ctx, IN_W + g), *r = in_opt(ctx, IN_R + g),
                      *b = in_opt(ctx, IN_BIAS + g);
    CHECK_(w && r && b, TFCC_ERR_INVALID_MODEL, "gate %d weights and bias are required", g);
    if ((st = check_tensor(ctx, w, IN_W + g, wdt, 2, s->n_cell, s->n_input)) != TFCC_OK) return st;
    if ((st = check_tensor(ctx, r, IN_R + g, wdt, 2, s->n_cell, s->n_output)) != TFCC_OK) return st;
    if ((st = check_tensor(ctx, b, IN_BIAS + g, bdt, 1, s->n_cell, 0)) != TFCC_OK) return st;
  }
  su->peephole = peep_of(ctx, 3) != NULL;
  for (int g = 0; g < 4; g++) {
    if (g == 2) continue;
    const tfcc_tensor *p = peep_of(ctx, g);
    /* With CIFG the cell-to-input weights are ignored (TFLite accepts them either way). */
    CHECK_((p != NULL) == su->peephole || (g == 0 && su->cifg), TFCC_ERR_INVALID_MODEL,
           "peephole weights must be all present or all absent");
    if (p && (st = check_tensor(ctx, p, IN_PEEP + (g == 3 ? 2 : g),
                                su->is_int   ? TFCC_INT16
                                : su->hybrid ? TFCC_INT8
                                             : TFCC_FLOAT32,
                                1, s->n_cell, 0)) != TFCC_OK)
      return st;
  }
  const tfcc_tensor *pw = in_opt(ctx, IN_PROJ_W), *pb = in_opt(ctx, IN_PROJ_B);
  su->projection = pw != NULL;
  CHECK_(pw || !pb, TFCC_ERR_INVALID_MODEL, "projection bias without projection weights");
  if (pw && (st = check_tensor(ctx, pw, IN_PROJ_W, wdt, 2, s->n_output, s->n_cell)) != TFCC_OK)
    return st;
  if (pb && (st = check_tensor(ctx, pb, IN_PROJ_B, bdt, 1, s->n_output, 0)) != TFCC_OK) return st;
  if (su->hybrid) /* per-tensor scales: TFLite reads params.scale of each weight */
    for (int i = IN_W; i <= IN_PROJ_W; i++) {
      const tfcc_tensor *t = in_opt(ctx, i);
      if (t && t->dtype == TFCC_INT8)
        CHECK_(scale_of(t) > 0.f, TFCC_ERR_INVALID_MODEL,
               "int8 input %d without a quantization scale", i);
    }
  if (!pw)
    CHECK_(s->n_output == s->n_cell, TFCC_ERR_SHAPE,
           "without projection n_output %d must equal n_cell %d", (int)s->n_output, (int)s->n_cell);
  if (su->is_int && su->peephole)
    CHECK_(s->n_output <= s->n_cell, TFCC_ERR_UNSUPPORTED,
           "integer peephole needs n_output <= n_cell");

  su->layer_norm = in_opt(ctx, IN_LN + 1) != NULL;
  if (su->layer_norm) {
    for (int g = 0; g < 4; g++) {
      const tfcc_tensor *l = in_opt(ctx, IN_LN + g);
      if (g == 0 && su->cifg) {
        CHECK_(l == NULL, TFCC_ERR_INVALID_MODEL, "CIFG LSTM with input layer-norm coefficients");
        continue;
      }
      CHECK_(l, TFCC_ERR_INVALID_MODEL, "layer-norm coefficients %d missing", IN_LN + g);
      if ((st = check_tensor(ctx, l, IN_LN + g, su->is_int ? TFCC_INT16 : TFCC_FLOAT32, 1,
                             s->n_cell, 0)) != TFCC_OK)
        return st;
    }
  }

  const tfcc_tensor *h = in_opt(ctx, IN_H), *c = in_opt(ctx, IN_C);
  CHECK_(h && c, TFCC_ERR_INVALID_MODEL, "output state (18) and cell state (19) are required");
  CHECK_(h->dtype == (su->is_int ? TFCC_INT8 : TFCC_FLOAT32) &&
             c->dtype == (su->is_int ? TFCC_INT16 : TFCC_FLOAT32),
         TFCC_ERR_DTYPE, "state dtypes %s/%s unsupported", tfcc_dtype_name(h->dtype),
         tfcc_dtype_name(c->dtype));
  CHECK_(tfcc_tensor_elements(h) == (int64_t)s->n_batch * s->n_output &&
             tfcc_tensor_elements(c) == (int64_t)s->n_batch * s->n_cell,
         TFCC_ERR_SHAPE, "state sizes %lld/%lld, expected %lld/%lld",
         (long long)tfcc_tensor_elements(h), (long long)tfcc_tensor_elements(c),
         (long long)s->n_batch * s->n_output, (long long)s->n_batch * s->n_cell);
  const tfcc_tensor *out = ctx->out[0];
  CHECK_(out->dtype == x->dtype, TFCC_ERR_DTYPE, "output dtype %s, expected %s",
         tfcc_dtype_name(out->dtype), tfcc_dtype_name(x->dtype));
  return TFCC_OK;
}

/* tflite CheckedLog2. */
static bool checked_log2(float x, int *out) {
  const float l = logf(x) * (1.0f / logf(2.0f));
  const float r = roundf(l);
  *out = (int)r;
  return fabsf(l - r) < 1e-3f;
}

/* PopulateQuantizedLstmParams8x8_16 (without layer norm): float effective scales computed
 * with TFLite's exact float/double expressions, then QuantizeMultiplier. */
static tfcc_status quant_params(tfcc_op_ctx *ctx, const lstm_setup *su, tfcc_lstm_q_params *p) {
  memset(p, 0, sizeof(*p));
  const tfcc_tensor *x = ctx->in[IN_X], *h = ctx->in[IN_H], *c = ctx->in[IN_C];
  CHECK_(ctx->n_tmp == 5 && ctx->tmp && ctx->tmp[4], TFCC_ERR_INVALID_MODEL,
         "integer LSTM needs 5 intermediate tensors, got %d", (int)ctx->n_tmp);
  const tfcc_tensor *hidden = ctx->tmp[4];
  CHECK_(hidden->quant && hidden->quant->count > 0, TFCC_ERR_INVALID_MODEL,
         "intermediate 4 (hidden) is not quantized");
  CHECK_(scale_of(x) > 0.f && scale_of(h) > 0.f && scale_of(c) > 0.f, TFCC_ERR_INVALID_MODEL,
         "input, output state and cell state must be quantized");
  int cell_scale;
  CHECK_(checked_log2(scale_of(c), &cell_scale), TFCC_ERR_UNSUPPORTED,
         "cell state scale %g is not a power of two", (double)scale_of(c));
  /* TFLite's Prepare takes any cell_scale <= -9; its ApplyTanh(15 + cell_scale) has cases 0..6
     only and returns without writing below 2^-15, so the hidden state is then the output gate
     times the scratch it would have written: the input gate of the step (kernels/ref/lstm.h).
     With CIFG that scratch is never written (undefined); below 2^-30 the cell update's shift
     30 + cell_scale would be negative. */
  CHECK_(cell_scale <= -9 && cell_scale >= -30, TFCC_ERR_UNSUPPORTED,
         "cell state scale 2^%d unsupported (2^-30..2^-9)", cell_scale);
  CHECK_(cell_scale >= -15 || !su->cifg, TFCC_ERR_UNSUPPORTED,
         "cell state scale 2^%d with CIFG: TFLite skips the cell tanh below 2^-15 and reads an "
         "input-gate scratch a CIFG LSTM never writes",
         cell_scale);
  p->cell_scale = cell_scale;
  /* gate scales: Q3.12 without layer norm, else the intermediates 0-3 */
  float gate_scale[4];
  for (int g = 0; g < 4; g++) {
    gate_scale[g] = (float)pow(2.0, -12);
    if (su->layer_norm && !(g == 0 && su->cifg)) {
      const tfcc_tensor *it = ctx->tmp[g];
      CHECK_(it && scale_of(it) > 0.f, TFCC_ERR_INVALID_MODEL,
             "intermediate %d (gate %d scale) is not quantized", g, g);
      gate_scale[g] = scale_of(it);
    }
  }
  const float hidden_scale = hidden->quant->scale[0];
  p->hidden_zp = hidden->quant->zero_point[0];
  const float in_s = scale_of(x), h_s = scale_of(h);
  for (int g = 0; g < 4; g++) {
    if (g == 0 && su->cifg) {
      tfcc_quantize_multiplier(1.0, &p->in_a[0], &p->in_b[0]);
      tfcc_quantize_multiplier(1.0, &p->rec_a[0], &p->rec_b[0]);
      continue;
    }
    const tfcc_tensor *w = ctx->in[IN_W + g], *r = ctx->in[IN_R + g];
    CHECK_(scale_of(w) > 0.f && scale_of(r) > 0.f, TFCC_ERR_INVALID_MODEL,
           "gate %d weights not quantized", g);
    const float inter_scale = gate_scale[g];
    float ew = scale_of(w) * in_s / inter_scale;
    float er = scale_of(r) * h_s / inter_scale;
    tfcc_quantize_multiplier((double)ew, &p->in_a[g], &p->in_b[g]);
    tfcc_quantize_multiplier((double)er, &p->rec_a[g], &p->rec_b[g]);
    const tfcc_tensor *pe = peep_of(ctx, g);
    float ep = 1.0f;
    if (pe) ep = (float)(pow(2.0, cell_scale) * (double)scale_of(pe) / (double)inter_scale);
    tfcc_quantize_multiplier((double)ep, &p->peep_a[g], &p->peep_b[g]);
    if (su->layer_norm) { /* PopulateQuantizedLstmParams8x8_16 */
      const float ls = scale_of(in_opt(ctx, IN_LN + g));
      CHECK_(ls > 0.f, TFCC_ERR_INVALID_MODEL, "layer-norm coefficients %d are not quantized",
             IN_LN + g);
      tfcc_quantize_multiplier((double)ls, &p->ln_a[g], &p->ln_b[g]);
      /* the kernel rescales by 2^12 more (ApplyLayerNorm's shift + 12): a left shift past 31
         bits is undefined (TFLite's too; a file's scale of 1.2e18 asked for 2^43) */
      CHECK_(p->ln_b[g] + 12 <= 31, TFCC_ERR_INVALID_MODEL,
             "layer-norm coefficients %d: scale %g is too large (2^%d, the kernel shifts by at "
             "most 2^19)",
             IN_LN + g, (double)ls, (int)p->ln_b[g]);
      /* TFLite's max(1, (int32_t)(10000 * scale)); a scale past 214748 saturates (the
         conversion is undefined there: a file's 1.2e18 was, fuzz_model_run) */
      const float gf = 10000.0f * ls;
      p->ln_guard[g] = gf >= 2147483647.f ? INT32_MAX : gf > 1.f ? (int32_t)gf : 1;
    }
  }
  float eh = (float)(pow(2.0, -15) / (double)hidden_scale * pow(2.0, -15));
  tfcc_quantize_multiplier((double)eh, &p->hidden_a, &p->hidden_b);
  const tfcc_tensor *pw = in_opt(ctx, IN_PROJ_W);
  float pws = pw ? scale_of(pw) : 1.0f;
  float ep = pws * hidden_scale / h_s;
  tfcc_quantize_multiplier((double)ep, &p->proj_a, &p->proj_b);
  p->input_zp = zp_of(x);
  p->output_state_zp = zp_of(h);
  if (su->cell_clip > 0.f) {
    float q = su->cell_clip / scale_of(c);
    q = q < -32768.f ? -32768.f : q;
    p->cell_clip = (int16_t)(q > 32767.f ? 32767.f : q);
  }
  if (su->proj_clip > 0.f) {
    CHECK_(scale_of(ctx->out[0]) > 0.f, TFCC_ERR_INVALID_MODEL, "output not quantized");
    float q = su->proj_clip / scale_of(ctx->out[0]);
    q = q < -128.f ? -128.f : q;
    p->proj_clip = (int8_t)(q > 127.f ? 127.f : q);
  }
  return TFCC_OK;
}

/* ---------------------------------------------------------------- fast-path state */

typedef struct lstm_params {
  pthread_mutex_t mu;
  bool mu_ok;
  atomic_int state; /* 0 not built, 1 built, 2 not applicable or out of memory */
  const void *src;  /* input-to-output weights the plan was built from */
  bool is_f32;      /* which plan */
  tfcc_q8_lstm_plan q8;
  tfcc_f32_lstm_plan f32;
  /* the plan's block in the weights cache (TFCC_BLOCK_F32_LSTM / _Q8_LSTM): a hit is adopted
   * (the plan borrows it), a miss packed into own memory (own) and offered */
  tfcc_packed_key key_f32, key_q8;
  void *own;
} lstm_params;

static tfcc_status lstm_init(tfcc_init_ctx *ctx) {
  lstm_params *p = calloc(1, sizeof *p);
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for LSTM params");
  atomic_init(&p->state, 0);
  p->mu_ok = pthread_mutex_init(&p->mu, NULL) == 0;
  p->key_f32 = tfcc_init_block_key(ctx, TFCC_BLOCK_F32_LSTM);
  p->key_q8 = tfcc_init_block_key(ctx, TFCC_BLOCK_Q8_LSTM);
  ctx->params = p;
  return TFCC_OK;
}

static void lstm_release(void *params) {
  lstm_params *p = params;
  if (!p) return;
  tfcc_q8_lstm_plan_free(&p->q8);
  tfcc_f32_lstm_plan_free(&p->f32);
  free(p->own);
  if (p->mu_ok) pthread_mutex_destroy(&p->mu);
  free(p);
}

static const void *data_of(const tfcc_tensor *t) { return t ? t->data : NULL; }

static bool const_or_absent(const tfcc_tensor *t) {
  return !t || ((t->is_const || t->known) && t->data);
}

/* The built params for these weights, or NULL (eval: no locking). */
static const lstm_params *plan_get(const tfcc_op_ctx *ctx) {
  const lstm_params *p = ctx->params;
  if (!p || atomic_load_explicit(&((lstm_params *)p)->state, memory_order_acquire) != 1)
    return NULL;
  return p->src == data_of(in_opt(ctx, IN_W + 3)) ? p : NULL;
}
static const tfcc_q8_lstm_plan *q8_plan_get(const tfcc_op_ctx *ctx) {
  const lstm_params *p = plan_get(ctx);
  return p && !p->is_f32 && ctx->in[IN_X]->dtype == TFCC_INT8 ? &p->q8 : NULL;
}
static const tfcc_f32_lstm_plan *f32_plan_get(const tfcc_op_ctx *ctx) {
  const lstm_params *p = plan_get(ctx);
  return p && p->is_f32 && ctx->in[IN_X]->dtype == TFCC_FLOAT32 ? &p->f32 : NULL;
}

/* The gates' weights, recurrent weights, biases and peepholes and the projection, as the
 * node's inputs hold them (tfcc_lstm_q_weights and tfcc_lstm_f32_weights name them alike). */
#define LSTM_WEIGHT_PTRS(ctx, wt) \
  do { \
    memset(wt, 0, sizeof(*(wt))); \
    for (int g = 0; g < 4; g++) { \
      (wt)->w[g] = data_of(in_opt(ctx, IN_W + g)); \
      (wt)->r[g] = data_of(in_opt(ctx, IN_R + g)); \
      (wt)->bias[g] = data_of(in_opt(ctx, IN_BIAS + g)); \
      (wt)->peep[g] = data_of(peep_of(ctx, g)); \
    } \
    (wt)->proj_w = data_of(in_opt(ctx, IN_PROJ_W)); \
    (wt)->proj_b = data_of(in_opt(ctx, IN_PROJ_B)); \
  } while (0)

static void q8_weights_of(const tfcc_op_ctx *ctx, tfcc_lstm_q_weights *wt) {
  LSTM_WEIGHT_PTRS(ctx, wt);
  for (int g = 0; g < 4; g++)
    wt->ln[g] = ctx->n_in > IN_LN + g ? data_of(in_opt(ctx, IN_LN + g)) : NULL;
}

static void f32_weights_of(const tfcc_op_ctx *ctx, const lstm_setup *su,
                           tfcc_lstm_f32_weights *wt) {
  LSTM_WEIGHT_PTRS(ctx, wt);
  for (int g = 0; g < 4; g++) wt->ln[g] = su->layer_norm ? data_of(in_opt(ctx, IN_LN + g)) : NULL;
}

/* Hybrid: the int8 weights with their scales; biases, layer norms and projection bias float. */
static void hybrid_weights_of(const tfcc_op_ctx *ctx, const lstm_setup *su,
                              tfcc_lstm_hybrid_weights *wt) {
  LSTM_WEIGHT_PTRS(ctx, wt);
  for (int g = 0; g < 4; g++) {
    wt->w_scale[g] = scale_of(in_opt(ctx, IN_W + g));
    wt->r_scale[g] = scale_of(in_opt(ctx, IN_R + g));
    wt->peep_scale[g] = scale_of(peep_of(ctx, g));
    wt->ln[g] = su->layer_norm ? data_of(in_opt(ctx, IN_LN + g)) : NULL;
  }
  wt->proj_scale = scale_of(in_opt(ctx, IN_PROJ_W));
}

/* The weights-cache glue of both plans (called under p->mu, state 0, the plan laid out): its
 * block from the weights cache under the plan's key, adopted in place, or packed here into a
 * new one and offered to the cache; then state 1 (p->src = src, p->is_f32 = is_f32) or 2 (no
 * memory, or weights the float packing refuses: the reference kernel runs). wt: the plan's
 * weights (tfcc_lstm_f32_weights or tfcc_lstm_q_weights, as is_f32 says). */
static void plan_block(lstm_params *p, bool is_f32, const void *wt, const void *src) {
  const tfcc_packed_key *key = is_f32 ? &p->key_f32 : &p->key_q8;
  const size_t bytes = is_f32 ? p->f32.block_bytes : p->q8.block_bytes;
  const void *hit = tfcc_packed_get(key, bytes);
  void *m = hit ? NULL : aligned_alloc(64, bytes);
  bool ok = hit != NULL;
  if (hit && is_f32) {
    tfcc_f32_lstm_plan_adopt(&p->f32, hit);
  } else if (hit) {
    tfcc_q8_lstm_plan_adopt(&p->q8, hit);
  } else if (m && is_f32) {
    ok = tfcc_f32_lstm_plan_pack(&p->f32, (const tfcc_lstm_f32_weights *)wt, m);
  } else if (m) {
    tfcc_q8_lstm_plan_pack(&p->q8, (const tfcc_lstm_q_weights *)wt, m);
    ok = true;
  }
  if (m && ok) {
    tfcc_packed_put(key, m, bytes);
    p->own = m;
  } else {
    free(m);
  }
  if (ok) {
    p->src = src;
    p->is_f32 = is_f32;
    atomic_store_explicit(&p->state, 1, memory_order_release);
  } else {
    atomic_store(&p->state, 2);
  }
}

/* prepare: builds the float plan once per model when every weight is constant: its block
 * (packed weights and biases) from the weights cache, used in place, or packed here and
 * offered to it (plan_block). */
static void f32_plan_build(tfcc_op_ctx *ctx, const lstm_setup *su) {
  lstm_params *p = (lstm_params *)ctx->params;
  if (!p || !p->mu_ok || plan_get(ctx)) return;
  for (int i = 1; i < ctx->n_in; i++)
    if (i != IN_H && i != IN_C && !const_or_absent(in_opt(ctx, i))) return;
  tfcc_lstm_f32_weights wt;
  f32_weights_of(ctx, su, &wt);
  tfcc_lstm_f32_params fp = {su->activation, su->cell_clip, su->proj_clip};
  if (!tfcc_f32_lstm_supported(&wt, &fp)) return;
  pthread_mutex_lock(&p->mu);
  if (atomic_load(&p->state) == 0) {
    tfcc_f32_lstm_plan_layout(&p->f32, ctx->isa, &su->s, &wt, &fp);
    plan_block(p, true, &wt, wt.w[3]);
  }
  pthread_mutex_unlock(&p->mu);
}

/* prepare: builds the integer plan once per model when every weight is constant, its block
 * (packed weights, effective biases) from the weights cache or packed here (plan_block). */
static void q8_plan_build(tfcc_op_ctx *ctx, const lstm_setup *su, const tfcc_lstm_q_params *q) {
  lstm_params *p = (lstm_params *)ctx->params;
  if (!p || !p->mu_ok || plan_get(ctx)) return;
  /* Without a SIMD variant the reference kernel is as fast (its row dot products vectorize;
   * the scalar variant's packed ones do not). */
  if (ctx->ks->q8_lstm->isa == TFCC_ISA_GENERIC) return;
  if (su->layer_norm) return; /* the plan has no layer norm: the reference kernel runs it */
  for (int i = 1; i < IN_H; i++)
    if (!const_or_absent(in_opt(ctx, i))) return;
  tfcc_lstm_q_weights wt;
  q8_weights_of(ctx, &wt);
  pthread_mutex_lock(&p->mu);
  if (atomic_load(&p->state) == 0) {
    tfcc_q8_lstm_plan_layout(&p->q8, &su->s, &wt, q);
    plan_block(p, false, &wt, wt.w[3]);
  }
  pthread_mutex_unlock(&p->mu);
}

/* Integer peephole with n_output < n_cell over time-major steps of several batch rows: TFLite's
 * flat-buffer peephole reach (kernels/ref/lstm_quant.c), which only the reference kernel
 * reproduces. */
static bool peep_reach_differs(const tfcc_lstm_shape *s, bool peephole) {
  return peephole && s->n_output != s->n_cell && s->time_major && s->n_batch > 1;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  lstm_setup su;
  tfcc_status st = setup(ctx, &su);
  if (st != TFCC_OK) return st;
  if (su.is_int) {
    tfcc_lstm_q_params p;
    if ((st = quant_params(ctx, &su, &p)) != TFCC_OK) return st;
    q8_plan_build(ctx, &su, &p);
    const tfcc_q8_lstm_plan *pl = q8_plan_get(ctx);
    ctx->scratch_bytes = pl ? tfcc_q8_lstm_scratch_bytes(pl) : tfcc_lstm_q_scratch_bytes(&su.s);
    if (pl && peep_reach_differs(&su.s, su.peephole)) { /* eval runs the reference kernel */
      const size_t r = tfcc_lstm_q_scratch_bytes(&su.s);
      if (r > ctx->scratch_bytes) ctx->scratch_bytes = r;
    }
  } else if (su.hybrid) {
    ctx->scratch_bytes = tfcc_lstm_hybrid_scratch_bytes(&su.s);
  } else {
    f32_plan_build(ctx, &su);
    const tfcc_f32_lstm_plan *pl = f32_plan_get(ctx);
    ctx->scratch_bytes =
        pl ? tfcc_f32_lstm_scratch_bytes(pl) : tfcc_lstm_f32_scratch_floats(&su.s) * sizeof(float);
  }
  const tfcc_tensor *x = ctx->in[IN_X];
  int32_t dims[3] = {x->dims[0], x->dims[1], su.s.n_output};
  if (su.step) dims[1] = su.s.n_output;
  return tfcc_tensor_set_shape(ctx->out[0], su.step ? 2 : 3, dims, ctx->err);
}

/* Batch, time and layout of this run (prepare checked the rest). */
static tfcc_lstm_shape run_shape(const tfcc_op_ctx *ctx, int32_t ni, int32_t nc, int32_t no) {
  const tfcc_tensor *x = ctx->in[IN_X];
  tfcc_lstm_shape s;
  const bool step = is_step(ctx);
  s.time_major = step || (ctx->node ? ctx->node->opts.lstm.time_major : false);
  s.n_batch = step ? x->dims[0] : s.time_major ? x->dims[1] : x->dims[0];
  s.n_time = step ? 1 : s.time_major ? x->dims[0] : x->dims[1];
  s.n_input = ni;
  s.n_cell = nc;
  s.n_output = no;
  s.n_aux = 0;
  return s;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  /* A plan is used only with the scratch prepare sized for it (a session prepared before the
   * plan existed keeps the reference kernel). */
  const tfcc_q8_lstm_plan *pl = q8_plan_get(ctx);
  const tfcc_lstm_shape ps =
      pl ? run_shape(ctx, pl->n_input, pl->n_cell, pl->n_output) : (tfcc_lstm_shape){0};
  if (pl && peep_reach_differs(&ps, in_opt(ctx, IN_PEEP + 2) != NULL)) pl = NULL;
  if (pl && ctx->scratch_bytes >= tfcc_q8_lstm_scratch_bytes(pl)) {
    const tfcc_lstm_shape s = ps;
    tfcc_q8_lstm_run(ctx->ks->q8_lstm, pl, &s, ctx->in[IN_X]->data, ctx->in[IN_H]->data,
                     ctx->in[IN_C]->data, ctx->out[0]->data, ctx->scratch);
    return TFCC_OK;
  }
  const tfcc_f32_lstm_plan *fpl = f32_plan_get(ctx);
  if (fpl && ctx->scratch_bytes >= tfcc_f32_lstm_scratch_bytes(fpl)) {
    const tfcc_lstm_shape s = run_shape(ctx, fpl->n_input, fpl->n_cell, fpl->n_output);
    tfcc_f32_lstm_run(fpl, &s, ctx->in[IN_X]->data, ctx->in[IN_H]->data, ctx->in[IN_C]->data,
                      ctx->out[0]->data, ctx->scratch);
    return TFCC_OK;
  }
  lstm_setup su;
  tfcc_status st = setup(ctx, &su);
  if (st != TFCC_OK) return st;
  tfcc_tensor *h = ctx->in[IN_H], *c = ctx->in[IN_C];
  if (su.hybrid) {
    tfcc_lstm_hybrid_weights wt;
    hybrid_weights_of(ctx, &su, &wt);
    tfcc_lstm_f32_params p = {su.activation, su.cell_clip, su.proj_clip};
    const bool asym = ctx->node && ctx->node->opts.lstm.asymmetric_quantize_inputs;
    tfcc_lstm_hybrid(&su.s, &wt, &p, asym, ctx->in[IN_X]->data, NULL, h->data, c->data,
                     ctx->out[0]->data, ctx->scratch);
    return TFCC_OK;
  }
  if (!su.is_int) {
    tfcc_lstm_f32_weights wt;
    memset(&wt, 0, sizeof(wt));
    for (int g = 0; g < 4; g++) {
      wt.w[g] = data_of(in_opt(ctx, IN_W + g));
      wt.r[g] = data_of(in_opt(ctx, IN_R + g));
      wt.bias[g] = data_of(in_opt(ctx, IN_BIAS + g));
      wt.peep[g] = data_of(peep_of(ctx, g));
      wt.ln[g] = su.layer_norm ? data_of(in_opt(ctx, IN_LN + g)) : NULL;
    }
    wt.proj_w = data_of(in_opt(ctx, IN_PROJ_W));
    wt.proj_b = data_of(in_opt(ctx, IN_PROJ_B));
    tfcc_lstm_f32_params p = {su.activation, su.cell_clip, su.proj_clip};
    tfcc_lstm_f32(&su.s, &wt, &p, ctx->in[IN_X]->data, NULL, h->data, c->data, ctx->out[0]->data,
                  ctx->scratch);
    return TFCC_OK;
  }
  tfcc_lstm_q_params p;
  if ((st = quant_params(ctx, &su, &p)) != TFCC_OK) return st;
  tfcc_lstm_q_weights wt;
  q8_weights_of(ctx, &wt);
  tfcc_lstm_q8(&su.s, &wt, &p, ctx->in[IN_X]->data, h->data, c->data, ctx->out[0]->data,
               ctx->scratch);
  return TFCC_OK;
}

/* Gate products (input, auxiliary input and recurrent, all gates) and the projection, per
 * step (saturating: an empty input's batch and time may be of any size). */
static int64_t setup_macs(const lstm_setup *su) {
  const tfcc_lstm_shape *s = &su->s;
  const int64_t gates = su->cifg ? 3 : 4;
  int64_t per_step = tfcc_work_mul3(gates, s->n_cell, (int64_t)s->n_input + s->n_output + s->n_aux);
  if (su->projection) per_step = tfcc_work_add(per_step, tfcc_work_mul(s->n_output, s->n_cell));
  return tfcc_work_mul3(per_step, s->n_batch, s->n_time);
}

static int64_t macs(const tfcc_op_ctx *ctx) {
  lstm_setup su;
  tfcc_op_quiet q;
  if (setup(tfcc_op_quiet_ctx(ctx, &q), &su) != TFCC_OK) return 0;
  return setup_macs(&su);
}

static const char *kernel(const tfcc_op_ctx *ctx) {
  if (q8_plan_get(ctx)) return ctx->ks->q8_lstm->name;
  if (f32_plan_get(ctx)) return "f32-lstm"; /* on f32-gemm and f32-vunary */
  return "ref";
}

/* UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM: the same functions; is_step() tells them apart by the
 * node's builtin code. */
#define LSTM_OP_DEF(NAME) \
  { \
    .name = NAME, .init = lstm_init, .release = lstm_release, .prepare = prepare, .eval = eval, \
    .macs = macs, .kernel = kernel \
  }

const tfcc_op_def tfcc_op_unidirectional_sequence_lstm =
    LSTM_OP_DEF("UNIDIRECTIONAL_SEQUENCE_LSTM");
const tfcc_op_def tfcc_op_lstm = LSTM_OP_DEF("LSTM");

/* ---------------------------------------------------------------- one direction (BIDIRECTIONAL) */

/* The direction's auxiliary input, checked as TFLite's Prepare checks it (bidirectional_sequence_
 * lstm.cc): the main input's time and batch, weights of the main ones' dtype, [n_cell, n_aux],
 * for the same gates; sets su->s.n_aux. */
static tfcc_status aux_check(tfcc_op_ctx *ctx, lstm_setup *su, const tfcc_lstm_aux *aux) {
  if (!aux) return TFCC_OK;
  const tfcc_tensor *x = ctx->in[IN_X], *a = aux->x;
  CHECK_(a && a->dtype == TFCC_FLOAT32 && a->rank == 3 && a->dims[0] == x->dims[0] &&
             a->dims[1] == x->dims[1] && a->dims[2] > 0,
         TFCC_ERR_SHAPE, "auxiliary input must be float32 [%d, %d, n_aux > 0] like the input",
         (int)x->dims[0], (int)x->dims[1]);
  su->s.n_aux = a->dims[2];
  CHECK_(su->s.n_aux == su->s.n_input, TFCC_ERR_UNSUPPORTED,
         "auxiliary input has %d features, the input %d: TFLite steps through the auxiliary input "
         "by the input's row length (lstm_eval.cc input_step), so only equal sizes read the right "
         "rows",
         (int)su->s.n_aux, (int)su->s.n_input);
  for (int g = 0; g < 4; g++) {
    const tfcc_tensor *w = aux->w[g];
    if (g == 0 && su->cifg) {
      CHECK_(w == NULL, TFCC_ERR_INVALID_MODEL,
             "CIFG direction with auxiliary input-to-input weights");
      continue;
    }
    CHECK_(w, TFCC_ERR_INVALID_MODEL, "auxiliary weights of gate %d missing", g);
    CHECK_(w->dtype == (su->hybrid ? TFCC_INT8 : TFCC_FLOAT32) && w->rank == 2 &&
               w->dims[0] == su->s.n_cell && w->dims[1] == su->s.n_aux,
           TFCC_ERR_SHAPE, "auxiliary weights of gate %d: %s rank %d, expected %s [%d, %d]", g,
           tfcc_dtype_name(w->dtype), (int)w->rank, su->hybrid ? "int8" : "float32",
           (int)su->s.n_cell, (int)su->s.n_aux);
    if (su->hybrid)
      CHECK_(scale_of(w) > 0.f, TFCC_ERR_INVALID_MODEL,
             "auxiliary weights of gate %d without a quantization scale", g);
  }
  return TFCC_OK;
}

tfcc_status tfcc_lstm_direction_prepare(tfcc_op_ctx *d, const tfcc_lstm_aux *aux,
                                        size_t *scratch_bytes, int32_t *n_output) {
  lstm_setup su;
  tfcc_status st = setup(d, &su);
  if (st != TFCC_OK) return st;
  if (su.is_int)
    return tfcc_err_set(d->err, TFCC_ERR_UNSUPPORTED, "int8 input unsupported (float32 or hybrid)");
  if ((st = aux_check(d, &su, aux)) != TFCC_OK) return st;
  su.s.n_batch = su.s.n_time = 1;
  *scratch_bytes = su.hybrid ? tfcc_lstm_hybrid_scratch_bytes(&su.s)
                             : tfcc_lstm_f32_scratch_floats(&su.s) * sizeof(float);
  *n_output = su.s.n_output;
  return TFCC_OK;
}

int64_t tfcc_lstm_direction_macs(const tfcc_op_ctx *d, const tfcc_lstm_aux *aux) {
  lstm_setup su;
  tfcc_op_quiet q;
  tfcc_op_ctx *c = tfcc_op_quiet_ctx(d, &q);
  if (setup(c, &su) != TFCC_OK || aux_check(c, &su, aux) != TFCC_OK) return 0;
  return setup_macs(&su);
}

tfcc_status tfcc_lstm_direction_eval(tfcc_op_ctx *d, const tfcc_lstm_aux *aux, bool backward,
                                     float *out, int32_t out_stride, int32_t out_offset) {
  lstm_setup su;
  tfcc_status st = setup(d, &su);
  if (st != TFCC_OK) return st;
  if ((st = aux_check(d, &su, aux)) != TFCC_OK) return st;
  tfcc_lstm_f32_weights fw;
  tfcc_lstm_hybrid_weights hw;
  f32_weights_of(d, &su, &fw);
  if (su.hybrid)
    hybrid_weights_of(d, &su, &hw);
  else
    memset(&hw, 0, sizeof hw);
  for (int g = 0; g < 4 && aux; g++) {
    fw.aux_w[g] = su.hybrid ? NULL : data_of(aux->w[g]);
    hw.aux_w[g] = su.hybrid ? data_of(aux->w[g]) : NULL;
    hw.aux_scale[g] = scale_of(aux->w[g]);
  }
  const tfcc_lstm_f32_params p = {su.activation, su.cell_clip, su.proj_clip};
  const bool asym = d->node && d->node->opts.lstm.asymmetric_quantize_inputs;
  const int32_t na = su.s.n_aux;
  const tfcc_lstm_shape one = {1, 1, su.s.n_input, su.s.n_cell, su.s.n_output, true, na};
  const float *x = d->in[IN_X]->data, *ax = aux ? (const float *)aux->x->data : NULL;
  float *h = d->in[IN_H]->data, *c = d->in[IN_C]->data;
  const int32_t nb = su.s.n_batch, nt = su.s.n_time;
  /* one row at a time: the output rows are strided (merged outputs) and backward runs the
   * sequence from its end; each batch row has its own states */
  for (int32_t b = 0; b < nb; b++)
    for (int32_t k = 0; k < nt; k++) {
      const int32_t t = backward ? nt - 1 - k : k;
      const size_t row = su.s.time_major ? (size_t)t * nb + b : (size_t)b * nt + t;
      const float *xr = x + row * su.s.n_input, *ar = ax ? ax + row * na : NULL;
      float *hb = h + (size_t)b * su.s.n_output, *cb = c + (size_t)b * su.s.n_cell;
      float *o = out + row * out_stride + out_offset;
      if (su.hybrid)
        tfcc_lstm_hybrid(&one, &hw, &p, asym, xr, ar, hb, cb, o, d->scratch);
      else
        tfcc_lstm_f32(&one, &fw, &p, xr, ar, hb, cb, o, d->scratch);
    }
  return TFCC_OK;
}
