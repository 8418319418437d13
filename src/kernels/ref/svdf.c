/* SVDF, float32 / hybrid / full integer (svdf.h). */
#include "kernels/ref/svdf.h"

#include <string.h>

#include "kernels/hybrid/quantize.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/rnn.h"

/* Scratch layout (aligned first): per-filter results (nf float or int32), the dequantized
 * weights_time (nf * memory floats, hybrid), then the int8 input copy (n_input). */
size_t tfcc_svdf_scratch_bytes(const tfcc_svdf_shape *s) {
  const size_t nf = (size_t)s->n_filter;
  return nf * sizeof(float) + nf * (size_t)s->n_memory * sizeof(float) + (size_t)s->n_input + 64;
}

/* The state's memory shifts left by one over the whole buffer (each filter's last slot is
 * rewritten next). */
static void shift_state(void *state, size_t n, size_t elem) {
  if (n > 1) memmove(state, (char *)state + elem, (n - 1) * elem);
}

/* matmul(state, weights_time) per filter, bias, rank reduction and activation (float). */
static void time_bias_act(const tfcc_svdf_shape *s, const float *w_time, const float *bias, int act,
                          const float *state_b, float *out_b, float *per_filter) {
  const int32_t nf = s->n_filter, nm = s->n_memory, nu = s->n_filter / s->rank;
  for (int32_t f = 0; f < nf; f++) {
    float acc = 0.f;
    for (int32_t m = 0; m < nm; m++)
      acc += w_time[(size_t)f * nm + m] * state_b[(size_t)f * nm + m];
    per_filter[f] = acc;
  }
  for (int32_t u = 0; u < nu; u++) out_b[u] = bias ? bias[u] : 0.f;
  for (int32_t u = 0; u < nu; u++) {
    float sum = 0.f;
    for (int32_t r = 0; r < s->rank; r++) sum += per_filter[(size_t)u * s->rank + r];
    out_b[u] += sum;
  }
  tfcc_rnn_activation(act, out_b, out_b, (size_t)nu);
}

void tfcc_svdf_f32(const tfcc_svdf_shape *s, const float *input, const float *w_feature,
                   const float *w_time, const float *bias, int act, float *state, float *output,
                   void *scratch) {
  const int32_t nf = s->n_filter, nm = s->n_memory, ni = s->n_input, nu = nf / s->rank;
  float *per_filter = scratch;
  shift_state(state, (size_t)s->n_batch * nf * nm, sizeof(float));
  for (int32_t b = 0; b < s->n_batch; b++) {
    float *st = state + (size_t)b * nf * nm;
    const float *x = input + (size_t)b * ni;
    for (int32_t f = 0; f < nf; f++) {
      const float *w = w_feature + (size_t)f * ni;
      float dot = 0.f;
      for (int32_t k = 0; k < ni; k++) dot += w[k] * x[k];
      st[(size_t)f * nm + nm - 1] = dot;
    }
  }
  for (int32_t b = 0; b < s->n_batch; b++)
    time_bias_act(s, w_time, bias, act, state + (size_t)b * nf * nm, output + (size_t)b * nu,
                  per_filter);
}

void tfcc_svdf_hybrid(const tfcc_svdf_shape *s, const float *input, const int8_t *w_feature,
                      float feature_scale, const int8_t *w_time, float time_scale,
                      const float *bias, int act, bool asymmetric, float *state, float *output,
                      void *scratch) {
  const int32_t nf = s->n_filter, nm = s->n_memory, ni = s->n_input, nu = nf / s->rank;
  float *per_filter = scratch;
  float *wt = per_filter + nf; /* weights_time dequantized as TFLite does: q * scale */
  int8_t *q = (int8_t *)(wt + (size_t)nf * nm);
  for (size_t i = 0; i < (size_t)nf * nm; i++) wt[i] = (float)w_time[i] * time_scale;
  shift_state(state, (size_t)s->n_batch * nf * nm, sizeof(float));
  bool zero = true;
  for (size_t i = 0; i < (size_t)s->n_batch * ni && zero; i++) zero = input[i] == 0.f;
  for (int32_t b = 0; b < s->n_batch; b++) {
    float *st = state + (size_t)b * nf * nm;
    for (int32_t f = 0; f < nf; f++) per_filter[f] = 0.f;
    if (!zero) {
      float sc;
      int32_t zp;
      tfcc_hyb_quantize(asymmetric ? TFCC_HYB_ASYM : TFCC_HYB_SYM, input + (size_t)b * ni,
                        (size_t)ni, q, &sc, &zp, NULL, NULL);
      tfcc_hybrid_mv_acc(w_feature, nf, ni, q, zp, sc * feature_scale, per_filter);
    }
    for (int32_t f = 0; f < nf; f++) st[(size_t)f * nm + nm - 1] = per_filter[f];
  }
  for (int32_t b = 0; b < s->n_batch; b++)
    time_bias_act(s, wt, bias, act, state + (size_t)b * nf * nm, output + (size_t)b * nu,
                  per_filter);
}

void tfcc_svdf_q8(const tfcc_svdf_shape *s, const tfcc_svdf_q_params *p, const int8_t *input,
                  const int8_t *w_feature, const int16_t *w_time, const int32_t *bias,
                  int16_t *state, int8_t *output, void *scratch) {
  const int32_t nf = s->n_filter, nm = s->n_memory, ni = s->n_input, nu = nf / s->rank;
  int32_t *per_filter = scratch;
  shift_state(state, (size_t)s->n_batch * nf * nm, sizeof(int16_t));
  for (int32_t b = 0; b < s->n_batch; b++) {
    int16_t *st = state + (size_t)b * nf * nm;
    const int8_t *x = input + (size_t)b * ni;
    for (int32_t f = 0; f < nf; f++) {
      const int8_t *w = w_feature + (size_t)f * ni;
      int32_t dot = 0;
      for (int32_t k = 0; k < ni; k++)
        dot = tfcc_add_wrap(dot, (int32_t)w[k] * ((int32_t)x[k] - p->input_zp));
      dot = tfcc_mbqm(dot, p->mult1, p->shift1);
      st[(size_t)f * nm + nm - 1] = (int16_t)tfcc_clamp_i32(dot, INT16_MIN, INT16_MAX);
    }
  }
  for (int32_t b = 0; b < s->n_batch; b++) {
    const int16_t *st = state + (size_t)b * nf * nm;
    for (int32_t f = 0; f < nf; f++) {
      int32_t acc = 0;
      for (int32_t m = 0; m < nm; m++)
        acc = tfcc_add_wrap(acc, (int32_t)w_time[(size_t)f * nm + m] * st[(size_t)f * nm + m]);
      per_filter[f] = acc;
    }
    for (int32_t u = 0; u < nu; u++) {
      int32_t v = bias ? bias[u] : 0;
      /* the sums wrap as TFLite's do (a real keyword spotter's state overflows them) */
      for (int32_t r = 0; r < s->rank; r++)
        v = tfcc_add_wrap(v, per_filter[(size_t)u * s->rank + r]);
      /* + the zero point wraps as TFLite's int32 expression (a rescale near INT32_MAX from a
       * file's output scale overflowed, undefined; fuzz53) */
      v = tfcc_add_wrap(tfcc_mbqm(v, p->mult2, p->shift2), p->output_zp);
      output[(size_t)b * nu + u] = (int8_t)tfcc_clamp_i32(v, INT8_MIN, INT8_MAX);
    }
  }
}
