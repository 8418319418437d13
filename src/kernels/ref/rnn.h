/* Fully connected RNN cell (TFLite kernel_utils RnnBatchStep, as basic_rnn.cc,
 * unidirectional_sequence_rnn.cc and bidirectional_sequence_rnn.cc run it):
 *   out = act(bias + W x + A aux + R h), h = out  (the auxiliary term only with n_aux > 0)
 * for one batch row: W [units, n_input], R [units, units], bias [units], h [units].
 * float32, and hybrid: int8 W and R (per-tensor scales), float x and h quantized per row at run
 * time (TFLite's BatchQuantizeFloats: symmetric, or asymmetric with a zero point), int32 dot
 * products scaled by (input scale * weight scale) and accumulated in float:
 *   out = bias; out += dot(W, qx) * sx; out += dot(R, qh) * sh; act. A zero vector (x or h) is
 * skipped, as TFLite's IsZeroVector test. */
#ifndef TFCC_KERNELS_REF_RNN_H
#define TFCC_KERNELS_REF_RNN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* TFLite's ApplyActivationToVector: TFCC_ACT_* codes, 6 = sigmoid; TANH and sigmoid as Eigen
 * computes them there (tfcc_act_tanh_eigen, tfcc_act_logistic_eigen; kernels/ref/activation.h). */
void tfcc_rnn_activation(int act, const float *in, float *out, size_t n);

/* The auxiliary input of one step (BIDIRECTIONAL_SEQUENCE_RNN's cross links): n_aux values
 * and their weights A [units, n_aux] (float32, or int8 with a per-tensor scale for hybrid).
 * n_aux 0: none. */
typedef struct tfcc_rnn_aux {
  const float *x;
  const void *w;
  float w_scale;
  int32_t n_aux;
} tfcc_rnn_aux;

/* One step of one batch row; out may not alias h. aux may be NULL. */
void tfcc_rnn_step_f32(const float *x, const float *w, const float *r, const float *bias,
                       const tfcc_rnn_aux *aux, int32_t n_input, int32_t units, int act, float *h,
                       float *out);

typedef struct tfcc_rnn_hybrid_weights {
  const int8_t *w, *r;
  float w_scale, r_scale;
  const float *bias;
} tfcc_rnn_hybrid_weights;

/* Scratch bytes for tfcc_rnn_step_hybrid (int8 copies of x, the auxiliary input and h). */
size_t tfcc_rnn_hybrid_scratch_bytes(int32_t n_input, int32_t n_aux, int32_t units);
/* The auxiliary input is quantized on its own (its own scale and zero point, skipped when
 * zero), after the input's product and before the recurrent one, as RnnBatchStep. */
void tfcc_rnn_step_hybrid(const float *x, const tfcc_rnn_hybrid_weights *wt,
                          const tfcc_rnn_aux *aux, int32_t n_input, int32_t units, int act,
                          bool asymmetric, float *h, float *out, void *scratch);

/* out[i] += (w row i) . x for rows [0, rows): each row's products summed from 0 in order, then
 * added (TFLite's float MatrixBatchVectorMultiplyAccumulate; the LSTM's gates use it too). */
void tfcc_f32_mv_acc(const float *w, int32_t rows, int32_t cols, const float *x, float *out);

/* out[i] += dot(w row i, q - zp) * scale for rows [0, rows): TFLite's hybrid
 * MatrixBatchVectorMultiplyAccumulate (the dot product is int32, then one float multiply). */
void tfcc_hybrid_mv_acc(const int8_t *w, int32_t rows, int32_t cols, const int8_t *q, int32_t zp,
                        float scale, float *out);

#endif
