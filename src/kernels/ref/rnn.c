/* Fully connected RNN cell, float32 and hybrid (rnn.h). */
#include "kernels/ref/rnn.h"

#include <math.h>
#include <string.h>

#include "kernels/hybrid/quantize.h"
#include "kernels/ref/activation.h"
#include "kernels/ref/quant_util.h"

void tfcc_rnn_activation(int act, const float *in, float *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const float x = in[i];
    switch (act) {
      case TFCC_ACT_RELU: out[i] = x < 0.f ? 0.f : x; break;
      case TFCC_ACT_RELU_N1_TO_1: out[i] = x < -1.f ? -1.f : (x > 1.f ? 1.f : x); break;
      case TFCC_ACT_RELU6: out[i] = x < 0.f ? 0.f : (x > 6.f ? 6.f : x); break;
      case TFCC_ACT_TANH: out[i] = tfcc_act_tanh_eigen(x); break;
      case 6: out[i] = tfcc_act_logistic_eigen(x); break;
      default: out[i] = x; break;
    }
  }
}

void tfcc_f32_mv_acc(const float *w, int32_t rows, int32_t cols, const float *x, float *out) {
  for (int32_t i = 0; i < rows; i++) {
    const float *wr = w + (size_t)i * cols;
    float dot = 0.f;
    for (int32_t k = 0; k < cols; k++) dot += wr[k] * x[k];
    out[i] += dot;
  }
}

void tfcc_rnn_step_f32(const float *x, const float *w, const float *r, const float *bias,
                       const tfcc_rnn_aux *aux, int32_t n_input, int32_t units, int act, float *h,
                       float *out) {
  for (int32_t i = 0; i < units; i++) out[i] = bias ? bias[i] : 0.f;
  tfcc_f32_mv_acc(w, units, n_input, x, out);
  if (aux && aux->n_aux > 0) tfcc_f32_mv_acc(aux->w, units, aux->n_aux, aux->x, out);
  tfcc_f32_mv_acc(r, units, units, h, out);
  tfcc_rnn_activation(act, out, out, (size_t)units);
  memcpy(h, out, (size_t)units * sizeof(float));
}

void tfcc_hybrid_mv_acc(const int8_t *w, int32_t rows, int32_t cols, const int8_t *q, int32_t zp,
                        float scale, float *out) {
  for (int32_t i = 0; i < rows; i++) {
    const int8_t *wr = w + (size_t)i * cols;
    /* int32 sums that wrap, as TFLite's (past 132,000 columns they pass int32) */
    uint32_t dot = 0, sum = 0;
    for (int32_t k = 0; k < cols; k++) {
      dot += (uint32_t)((int32_t)wr[k] * q[k]);
      sum += (uint32_t)(int32_t)wr[k];
    }
    dot -= sum * (uint32_t)zp;
    out[i] += (float)(int32_t)dot * scale;
  }
}

size_t tfcc_rnn_hybrid_scratch_bytes(int32_t n_input, int32_t n_aux, int32_t units) {
  return (size_t)n_input + (size_t)n_aux + (size_t)units + 16;
}

static bool all_zero(const float *x, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    if (x[i] != 0.f) return false;
  return true;
}

void tfcc_rnn_step_hybrid(const float *x, const tfcc_rnn_hybrid_weights *wt,
                          const tfcc_rnn_aux *aux, int32_t n_input, int32_t units, int act,
                          bool asymmetric, float *h, float *out, void *scratch) {
  const int32_t n_aux = aux ? aux->n_aux : 0;
  int8_t *qx = scratch, *qa = (int8_t *)scratch + n_input, *qh = qa + n_aux;
  const tfcc_hyb_scheme sch = asymmetric ? TFCC_HYB_ASYM : TFCC_HYB_SYM;
  for (int32_t i = 0; i < units; i++) out[i] = wt->bias ? wt->bias[i] : 0.f;
  float s;
  int32_t zp;
  if (n_input > 0 && !all_zero(x, n_input)) {
    tfcc_hyb_quantize(sch, x, (size_t)n_input, qx, &s, &zp, NULL, NULL);
    tfcc_hybrid_mv_acc(wt->w, units, n_input, qx, zp, s * wt->w_scale, out);
  }
  if (n_aux > 0 && !all_zero(aux->x, n_aux)) {
    tfcc_hyb_quantize(sch, aux->x, (size_t)n_aux, qa, &s, &zp, NULL, NULL);
    tfcc_hybrid_mv_acc(aux->w, units, n_aux, qa, zp, s * aux->w_scale, out);
  }
  if (!all_zero(h, units)) {
    tfcc_hyb_quantize(sch, h, (size_t)units, qh, &s, &zp, NULL, NULL);
    tfcc_hybrid_mv_acc(wt->r, units, units, qh, zp, s * wt->r_scale, out);
  }
  tfcc_rnn_activation(act, out, out, (size_t)units);
  memcpy(h, out, (size_t)units * sizeof(float));
}
