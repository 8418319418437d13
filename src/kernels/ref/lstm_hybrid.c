/* Hybrid (dynamic-range) LSTM: TFLite's LstmStepHybrid (lstm_eval.cc: CalculateLstmGateHybrid,
 * UpdateLstmCellFloat, CalculateLstmOutputHybrid) for one batch row at a time (lstm.h). */
#include <math.h>
#include <string.h>

#include "kernels/hybrid/quantize.h"
#include "kernels/ref/lstm.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/rnn.h"

size_t tfcc_lstm_hybrid_scratch_bytes(const tfcc_lstm_shape *s) {
  const size_t nc = (size_t)s->n_cell, ni = (size_t)s->n_input, no = (size_t)s->n_output;
  return (5 * nc + no) * sizeof(float) + ni + no + nc + (size_t)s->n_aux + 64;
}

static bool all_zero(const float *x, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    if (x[i] != 0.f) return false;
  return true;
}

/* One quantized vector: its int8 values, zero point and scale (valid when !zero). */
typedef struct qvec {
  const int8_t *q;
  int32_t zp;
  float scale;
  bool zero;
} qvec;

static void quantize_vec(bool asym, const float *x, int32_t n, int8_t *q, qvec *v) {
  v->q = q;
  v->zero = n <= 0 || all_zero(x, n);
  v->zp = 0;
  v->scale = 1.f;
  if (!v->zero)
    tfcc_hyb_quantize(asym ? TFCC_HYB_ASYM : TFCC_HYB_SYM, x, (size_t)n, q, &v->scale, &v->zp, NULL,
                      NULL);
}

static void gate_hybrid(const tfcc_lstm_shape *s, const tfcc_lstm_hybrid_weights *wt, int g,
                        const qvec *x, const qvec *aux, const qvec *h, const float *c, int act,
                        float *gate) {
  const int32_t nc = s->n_cell;
  const bool ln = wt->ln[g] != NULL;
  for (int32_t i = 0; i < nc; i++) gate[i] = ln ? 0.f : wt->bias[g][i];
  if (!x->zero)
    tfcc_hybrid_mv_acc(wt->w[g], nc, s->n_input, x->q, x->zp, x->scale * wt->w_scale[g], gate);
  if (!aux->zero)
    tfcc_hybrid_mv_acc(wt->aux_w[g], nc, s->n_aux, aux->q, aux->zp, aux->scale * wt->aux_scale[g],
                       gate);
  if (!h->zero)
    tfcc_hybrid_mv_acc(wt->r[g], nc, s->n_output, h->q, h->zp, h->scale * wt->r_scale[g], gate);
  if (wt->peep[g])
    for (int32_t i = 0; i < nc; i++) gate[i] += (wt->peep_scale[g] * (float)wt->peep[g][i]) * c[i];
  if (ln) tfcc_lstm_layer_norm_f32(gate, nc, wt->ln[g], wt->bias[g]);
  tfcc_rnn_activation(act, gate, gate, (size_t)nc);
}

static float clip(float v, float c) { return c > 0.f ? (v > c ? c : (v < -c ? -c : v)) : v; }

static void step_hybrid(const tfcc_lstm_shape *s, const tfcc_lstm_hybrid_weights *wt,
                        const tfcc_lstm_f32_params *p, bool asym, const float *x, const float *aux,
                        float *h, float *c, float *out, float *fs, int8_t *qs) {
  const int32_t nc = s->n_cell, no = s->n_output;
  const bool cifg = wt->w[0] == NULL;
  float *ig = fs, *fg = fs + nc, *cg = fs + 2 * nc, *og = fs + 3 * nc, *hid = fs + 4 * nc;
  int8_t *qx = qs, *qh = qs + s->n_input, *qhid = qh + no, *qaux = qhid + nc;
  qvec vx, vh, va;
  quantize_vec(asym, x, s->n_input, qx, &vx);
  quantize_vec(asym, aux, aux ? s->n_aux : 0, qaux, &va); /* none: zero, skipped */
  quantize_vec(asym, h, no, qh, &vh);
  if (!cifg) gate_hybrid(s, wt, 0, &vx, &va, &vh, c, 6, ig);
  gate_hybrid(s, wt, 1, &vx, &va, &vh, c, 6, fg);
  gate_hybrid(s, wt, 2, &vx, &va, &vh, c, p->activation, cg);
  /* UpdateLstmCellFloat */
  for (int32_t i = 0; i < nc; i++) c[i] = c[i] * fg[i];
  for (int32_t i = 0; i < nc; i++) c[i] += cg[i] * (cifg ? 1.f - fg[i] : ig[i]);
  for (int32_t i = 0; i < nc; i++) c[i] = clip(c[i], p->cell_clip);
  gate_hybrid(s, wt, 3, &vx, &va, &vh, c, 6, og);
  /* CalculateLstmOutputHybrid */
  tfcc_rnn_activation(p->activation, c, hid, (size_t)nc);
  for (int32_t i = 0; i < nc; i++) hid[i] = og[i] * hid[i];
  if (wt->proj_w) {
    for (int32_t j = 0; j < no; j++) h[j] = wt->proj_b ? wt->proj_b[j] : 0.f;
    qvec vhid;
    quantize_vec(asym, hid, nc, qhid, &vhid);
    if (!vhid.zero)
      tfcc_hybrid_mv_acc(wt->proj_w, no, nc, qhid, vhid.zp, vhid.scale * wt->proj_scale, h);
    for (int32_t j = 0; j < no; j++) h[j] = clip(h[j], p->proj_clip);
  } else {
    memcpy(h, hid, (size_t)no * sizeof(float));
  }
  memcpy(out, h, (size_t)no * sizeof(float));
}

void tfcc_lstm_hybrid(const tfcc_lstm_shape *s, const tfcc_lstm_hybrid_weights *wt,
                      const tfcc_lstm_f32_params *p, bool asymmetric, const float *input,
                      const float *aux_input, float *output_state, float *cell_state, float *output,
                      void *scratch) {
  float *fs = scratch;
  int8_t *qs = (int8_t *)(fs + 5 * (size_t)s->n_cell + s->n_output);
  for (int32_t b = 0; b < s->n_batch; b++) {
    float *h = output_state + (size_t)b * s->n_output;
    float *c = cell_state + (size_t)b * s->n_cell;
    for (int32_t t = 0; t < s->n_time; t++) {
      const size_t row = s->time_major ? (size_t)t * s->n_batch + b : (size_t)b * s->n_time + t;
      step_hybrid(s, wt, p, asymmetric, input + row * s->n_input,
                  aux_input ? aux_input + row * s->n_aux : NULL, h, c, output + row * s->n_output,
                  fs, qs);
    }
  }
}
