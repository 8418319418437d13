/* Reference UNIDIRECTIONAL_SEQUENCE_LSTM kernels, following TensorFlow Lite's lstm_eval.cc:
 * float (EvalFloat / LstmStepFloat) and full-integer 8x8->16 (EvalInteger8x8_16 /
 * LstmStepInteger8x8_16 with portable_tensor_utils and gemmlowp's int16 fixed point).
 * Gates are indexed 0 input, 1 forget, 2 cell, 3 output (TFLite's order). */
#ifndef TFCC_KERNELS_REF_LSTM_H
#define TFCC_KERNELS_REF_LSTM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TFCC_LSTM_GATE_I = 0, TFCC_LSTM_GATE_F = 1, TFCC_LSTM_GATE_C = 2, TFCC_LSTM_GATE_O = 3 };

typedef struct tfcc_lstm_shape {
  int32_t n_batch, n_time, n_input, n_cell, n_output;
  bool time_major; /* input [time, batch, input] instead of [batch, time, input] */
  int32_t n_aux;   /* features of the auxiliary input (BIDIRECTIONAL_SEQUENCE_LSTM); 0: none */
} tfcc_lstm_shape;

/* ---------------------------------------------------------------- float */

typedef struct tfcc_lstm_f32_weights {
  const float *w[4];     /* input-to-gate [n_cell, n_input]; w[0] NULL for CIFG */
  const float *r[4];     /* recurrent-to-gate [n_cell, n_output]; r[0] NULL for CIFG */
  const float *peep[4];  /* cell-to-gate [n_cell] (peephole) or NULL; peep[2] unused */
  const float *bias[4];  /* [n_cell]; bias[0] NULL for CIFG */
  const float *ln[4];    /* layer-norm coefficients [n_cell] or NULL (all NULL: no layer norm) */
  const float *proj_w;   /* [n_output, n_cell] or NULL */
  const float *proj_b;   /* [n_output] or NULL */
  const float *aux_w[4]; /* aux-input-to-gate [n_cell, n_aux] (n_aux > 0; aux_w[0] NULL for CIFG) */
} tfcc_lstm_f32_weights;

typedef struct tfcc_lstm_f32_params {
  int activation; /* fused activation code (TFCC_ACT_*, 6 = sigmoid) for the cell gate and output */
  float cell_clip; /* > 0: clip the cell state */
  float proj_clip; /* > 0: clip the projection */
} tfcc_lstm_f32_params;

/* Scratch floats needed by tfcc_lstm_f32 (5 * n_cell + n_output). */
size_t tfcc_lstm_f32_scratch_floats(const tfcc_lstm_shape *s);
/* A gate's layer norm (float and hybrid LSTM), as TFLite: MeanStddevNormalization (epsilon
 * 1e-8), then times the coefficients, then plus the bias, each a pass over g[0..n). */
void tfcc_lstm_layer_norm_f32(float *g, int32_t n, const float *coef, const float *bias);
/* Runs the whole sequence; output_state [n_batch, n_output] and cell_state [n_batch, n_cell]
 * are read and updated in place. output has the input's layout with n_output features.
 * aux_input (n_aux > 0; else NULL): the auxiliary input in the input's layout with n_aux
 * features, whose products with aux_w are added to each gate after the input's (as TFLite's
 * CalculateLstmGateFloat: bias, input, auxiliary input, recurrent). */
void tfcc_lstm_f32(const tfcc_lstm_shape *s, const tfcc_lstm_f32_weights *wt,
                   const tfcc_lstm_f32_params *p, const float *input, const float *aux_input,
                   float *output_state, float *cell_state, float *output, float *scratch);

/* ---------------------------------------------------------------- int8x8 -> int16 */

typedef struct tfcc_lstm_q_weights {
  const int8_t *w[4];     /* input-to-gate; w[0] NULL for CIFG */
  const int8_t *r[4];     /* recurrent-to-gate */
  const int16_t *peep[4]; /* cell-to-gate (int16) or NULL */
  const int32_t *bias[4]; /* gate biases (int32) */
  const int8_t *proj_w;   /* [n_output, n_cell] or NULL */
  const int32_t *proj_b;  /* [n_output] or NULL */
  const int16_t *ln[4];   /* layer-norm coefficients (int16) or NULL; with them the gate biases
                             are the layer norm's (not added to the products) */
} tfcc_lstm_q_weights;

/* Fixed-point parameters, as TFLite's PopulateQuantizedLstmParams8x8_16 computes them. */
typedef struct tfcc_lstm_q_params {
  int32_t in_a[4], rec_a[4], peep_a[4];
  int in_b[4], rec_b[4], peep_b[4];
  int32_t hidden_a, proj_a;
  int hidden_b, proj_b;
  int32_t hidden_zp; /* zero point of intermediate 4 (hidden) */
  int32_t input_zp, output_state_zp;
  int32_t cell_scale; /* log2 of the cell state scale (-30..-9); below -15 TFLite's ApplyTanh
                         writes nothing and the hidden state takes the input gate instead of
                         tanh(c) (not CIFG: the op refuses that) */
  int16_t cell_clip;  /* quantized; 0 = none */
  int8_t proj_clip;   /* quantized; 0 = none */
  /* layer norm (weights ln[g] set): multiplier of the coefficients' scale and the variance
   * guard max(1, (int)(10000 * scale)) */
  int32_t ln_a[4], ln_guard[4];
  int ln_b[4];
} tfcc_lstm_q_params;

/* Effective biases (TFLite PrecomputeZeroPointTimesWeightWithBias):
 * in_bias[g] = bias[g] (0 with layer norm) - input_zp * rowsum(w[g]); rec_bias[g] = -output_state_zp * rowsum(r[g]);
 * proj_bias = proj_b + hidden_zp * rowsum(proj_w). Each array: n_cell (n_output for proj). */
typedef struct tfcc_lstm_q_bias {
  int32_t *in_bias[4], *rec_bias[4], *proj_bias;
} tfcc_lstm_q_bias;

/* int32 count of effective-bias storage, and int16/int8 scratch sizes in bytes (all of it). */
size_t tfcc_lstm_q_scratch_bytes(const tfcc_lstm_shape *s);
/* Runs the sequence. scratch: tfcc_lstm_q_scratch_bytes() bytes, 4-byte aligned. */
void tfcc_lstm_q8(const tfcc_lstm_shape *s, const tfcc_lstm_q_weights *wt,
                  const tfcc_lstm_q_params *p, const int8_t *input, int8_t *output_state,
                  int16_t *cell_state, int8_t *output, void *scratch);

/* ---------------------------------------------------------------- hybrid */

/* Dynamic-range LSTM (lstm_eval.cc LstmStepHybrid): int8 weights with per-tensor scales, float
 * input, states, biases and layer-norm coefficients. Per step and batch row the input, the
 * output state and (with projection) the hidden vector are quantized at run time (TFLite's
 * BatchQuantizeFloats: symmetric, or asymmetric with a zero point; an all-zero vector is
 * skipped), each product is an int32 dot product times (vector scale * weight scale) added to
 * the float gate; peephole weights are dequantized (q * scale) and multiply the cell state.
 * Everything else is the float step. */
typedef struct tfcc_lstm_hybrid_weights {
  const int8_t *w[4], *r[4], *peep[4], *proj_w, *aux_w[4]; /* as tfcc_lstm_f32_weights, int8 */
  float w_scale[4], r_scale[4], peep_scale[4], proj_scale, aux_scale[4];
  const float *bias[4], *ln[4], *proj_b;
} tfcc_lstm_hybrid_weights;

/* Scratch bytes needed by tfcc_lstm_hybrid. */
size_t tfcc_lstm_hybrid_scratch_bytes(const tfcc_lstm_shape *s);
/* aux_input as tfcc_lstm_f32's, quantized on its own (its own scale and zero point per row,
 * as TFLite's aux_input_sf / aux_input_zp) and accumulated after the input's products. */
void tfcc_lstm_hybrid(const tfcc_lstm_shape *s, const tfcc_lstm_hybrid_weights *wt,
                      const tfcc_lstm_f32_params *p, bool asymmetric, const float *input,
                      const float *aux_input, float *output_state, float *cell_state, float *output,
                      void *scratch);

/* gemmlowp int16 fixed point, exposed for tests: logistic of Q(int_bits).(15-int_bits) input
 * to Q0.15, and tanh likewise (int_bits 0..6). */
int16_t tfcc_fx16_logistic(int16_t x, int int_bits);
int16_t tfcc_fx16_tanh(int16_t x, int int_bits);

#endif
