/* Float LSTM (TFLite lstm_eval.cc: LstmStepFloat, CalculateLstmGateFloat, UpdateLstmCellFloat,
 * CalculateLstmOutputFloat). Batches are independent; each runs its own sequence. */
#include "kernels/ref/lstm.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/activation.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/rnn.h"

size_t tfcc_lstm_f32_scratch_floats(const tfcc_lstm_shape *s) {
  return (size_t)s->n_cell * 5 + (size_t)s->n_output;
}

void tfcc_lstm_layer_norm_f32(float *g, int32_t n, const float *coef, const float *bias) {
  float sum = 0.f;
  for (int32_t i = 0; i < n; i++) sum += g[i];
  const float mean = sum / (float)n;
  float sq = 0.f;
  for (int32_t i = 0; i < n; i++) sq += (g[i] - mean) * (g[i] - mean);
  const float inv = 1.f / sqrtf(sq / (float)n + 1e-8f);
  for (int32_t i = 0; i < n; i++) g[i] = (g[i] - mean) * inv;
  for (int32_t i = 0; i < n; i++) g[i] = coef[i] * g[i];
  for (int32_t i = 0; i < n; i++) g[i] += bias[i];
}

static float act_f32(int act, float x) {
  switch (act) {
    case TFCC_ACT_RELU: return x < 0.f ? 0.f : x;
    case TFCC_ACT_RELU_N1_TO_1: return x < -1.f ? -1.f : (x > 1.f ? 1.f : x);
    case TFCC_ACT_RELU6: return x < 0.f ? 0.f : (x > 6.f ? 6.f : x);
    case TFCC_ACT_TANH: return tfcc_act_tanh_eigen(x);
    case 6: return tfcc_act_logistic_eigen(x); /* sigmoid */
    default: return x;
  }
}

static float sigmoid_f32(float x) { return tfcc_act_logistic_eigen(x); }

/* gate = act(LN?(bias + W x + A aux + R h + peep .* c)) for one batch row. */
static void gate_f32(const tfcc_lstm_shape *s, const tfcc_lstm_f32_weights *wt, int g,
                     const float *x, const float *aux, const float *h, const float *c, bool sigmoid,
                     int act, float *gate) {
  const int32_t nc = s->n_cell;
  const bool ln = wt->ln[g] != NULL;
  for (int32_t i = 0; i < nc; i++) gate[i] = ln ? 0.f : wt->bias[g][i];
  tfcc_f32_mv_acc(wt->w[g], nc, s->n_input, x, gate);
  if (aux) tfcc_f32_mv_acc(wt->aux_w[g], nc, s->n_aux, aux, gate);
  tfcc_f32_mv_acc(wt->r[g], nc, s->n_output, h, gate);
  if (wt->peep[g])
    for (int32_t i = 0; i < nc; i++) gate[i] += wt->peep[g][i] * c[i];
  if (ln) tfcc_lstm_layer_norm_f32(gate, nc, wt->ln[g], wt->bias[g]);
  for (int32_t i = 0; i < nc; i++) gate[i] = sigmoid ? sigmoid_f32(gate[i]) : act_f32(act, gate[i]);
}

static void step_f32(const tfcc_lstm_shape *s, const tfcc_lstm_f32_weights *wt,
                     const tfcc_lstm_f32_params *p, const float *x, const float *aux, float *h,
                     float *c, float *out, float *scratch) {
  const int32_t nc = s->n_cell, no = s->n_output;
  const bool cifg = wt->w[0] == NULL;
  float *ig = scratch, *fg = scratch + nc, *cg = scratch + 2 * nc, *og = scratch + 3 * nc;
  float *hid = scratch + 4 * nc;
  if (!cifg) gate_f32(s, wt, 0, x, aux, h, c, true, 0, ig);
  gate_f32(s, wt, 1, x, aux, h, c, true, 0, fg);
  gate_f32(s, wt, 2, x, aux, h, c, false, p->activation, cg);
  for (int32_t i = 0; i < nc; i++) {
    float in_gate = cifg ? 1.f - fg[i] : ig[i];
    float v = fg[i] * c[i] + cg[i] * in_gate;
    if (p->cell_clip > 0.f)
      v = v > p->cell_clip ? p->cell_clip : (v < -p->cell_clip ? -p->cell_clip : v);
    c[i] = v;
  }
  /* The output gate's peephole sees the updated cell state (as TFLite). */
  gate_f32(s, wt, 3, x, aux, h, c, true, 0, og);
  for (int32_t i = 0; i < nc; i++) hid[i] = og[i] * act_f32(p->activation, c[i]);
  if (wt->proj_w) {
    for (int32_t j = 0; j < no; j++) {
      const float *pw = wt->proj_w + (size_t)j * nc;
      float acc = 0.f;
      for (int32_t k = 0; k < nc; k++) acc += pw[k] * hid[k];
      float v = (wt->proj_b ? wt->proj_b[j] : 0.f) + acc;
      if (p->proj_clip > 0.f)
        v = v > p->proj_clip ? p->proj_clip : (v < -p->proj_clip ? -p->proj_clip : v);
      h[j] = v;
    }
  } else {
    memcpy(h, hid, (size_t)no * sizeof(float));
  }
  memcpy(out, h, (size_t)no * sizeof(float));
}

void tfcc_lstm_f32(const tfcc_lstm_shape *s, const tfcc_lstm_f32_weights *wt,
                   const tfcc_lstm_f32_params *p, const float *input, const float *aux_input,
                   float *output_state, float *cell_state, float *output, float *scratch) {
  for (int32_t b = 0; b < s->n_batch; b++) {
    float *h = output_state + (size_t)b * s->n_output;
    float *c = cell_state + (size_t)b * s->n_cell;
    for (int32_t t = 0; t < s->n_time; t++) {
      size_t row = s->time_major ? (size_t)t * s->n_batch + b : (size_t)b * s->n_time + t;
      step_f32(s, wt, p, input + row * s->n_input, aux_input ? aux_input + row * s->n_aux : NULL, h,
               c, output + row * s->n_output, scratch);
    }
  }
}
