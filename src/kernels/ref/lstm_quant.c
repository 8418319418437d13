/* Full-integer LSTM, 8-bit activations/weights and 16-bit cell state: TFLite's
 * EvalInteger8x8_16 / LstmStepInteger8x8_16 (lstm_eval.cc) with the portable tensor_utils
 * kernels, and gemmlowp's int16 fixed-point logistic and tanh (fixedpoint.h: every add/sub
 * wraps to 16 bits, every multiply is a saturating rounding doubling high mul). */
#include <string.h>

#include "kernels/ref/fixedpoint.h"
#include "kernels/ref/l2norm.h"
#include "kernels/ref/lstm.h"
#include "kernels/ref/quant_util.h"

/* ---------------------------------------------------------------- int16 fixed point */

/* gemmlowp's int16 logistic and tanh are fixedpoint.h's. */
int16_t tfcc_fx16_logistic(int16_t a, int ib) { return tfcc_fp16_logistic(a, ib); }
int16_t tfcc_fx16_tanh(int16_t a, int ib) { return tfcc_fp16_tanh(a, ib); }

/* ---------------------------------------------------------------- tensor_utils equivalents */

/* TFLite's int32 sums wrap in practice (undefined in C), and so do the fast kernels'
 * (kernels/q8-lstm): summed in int64, wrapped once (a rescale near the int32 ends plus an
 * accumulated output passed int32: fuzz_model_run). */
static inline int32_t wrap_i32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* Row r of MatrixBatchVectorMultiplyAccumulate before the accumulation: (bias[r] + w[r] . x)
 * rescaled. */
static inline int32_t mbvm_row(const int8_t *x, const int32_t *bias, const int8_t *w, int32_t mult,
                               int shift, int32_t n_in, int32_t r) {
  int64_t acc = bias[r];
  const int8_t *wr = w + (size_t)r * n_in;
  for (int32_t k = 0; k < n_in; k++) acc += (int32_t)x[k] * wr[k];
  return tfcc_mbqm(wrap_i32(acc), mult, shift);
}

/* MatrixBatchVectorMultiplyAccumulate (one batch row), int16 output, accumulating. */
static void mbvma_i16(const int8_t *x, const int32_t *bias, const int8_t *w, int32_t mult,
                      int shift, int32_t n_in, int32_t n_out, int16_t *out) {
  for (int32_t r = 0; r < n_out; r++) {
    const int32_t acc = wrap_i32((int64_t)mbvm_row(x, bias, w, mult, shift, n_in, r) + out[r]);
    out[r] = (int16_t)tfcc_clamp_i32(acc, INT16_MIN, INT16_MAX);
  }
}

static void mbvma_i8(const int8_t *x, const int32_t *bias, const int8_t *w, int32_t mult, int shift,
                     int32_t n_in, int32_t n_out, int32_t out_zp, int8_t *out) {
  for (int32_t r = 0; r < n_out; r++) {
    const int32_t acc = wrap_i32(
        (int64_t)wrap_i32((int64_t)mbvm_row(x, bias, w, mult, shift, n_in, r) + out_zp) + out[r]);
    out[r] = (int8_t)tfcc_clamp_i32(acc, INT8_MIN, INT8_MAX);
  }
}

/* tensor_utils ApplyLayerNorm: integer mean and variance with 10 extra fraction bits, the
 * inverse square root as a fixed-point multiplier, coefficients and bias in 32-bit arithmetic
 * (wrapping, as TFLite's int32 expression), then the coefficients' scale and Q3.12. */
static void layer_norm_q(int16_t *g, int32_t n, const int16_t *w, const int32_t *bias, int32_t a,
                         int b, int32_t guard) {
  int64_t sum = 0, sum_sq = 0;
  for (int32_t i = 0; i < n; i++) {
    const int32_t v = g[i];
    sum += v;
    sum_sq += v * v;
  }
  const int32_t mean = (int32_t)(sum * 1024 / n);
  const int32_t temp = (1 << 20) / n;
  const int64_t variance = sum_sq * temp - (int64_t)mean * mean;
  int32_t var2 = (int32_t)(variance / (1 << 20));
  if (var2 < 1) var2 = guard;
  int32_t inv_a;
  int inv_b;
  tfcc_inv_sqrt_multiplier_exp(var2, -1, &inv_a, &inv_b);
  for (int32_t i = 0; i < n; i++) {
    const int32_t shifted = 1024 * (int32_t)g[i] - mean;
    const int32_t rescaled = tfcc_mbqm(shifted, inv_a, inv_b);
    const int32_t prod = (int32_t)((uint32_t)rescaled * (uint32_t)(int32_t)w[i]);
    const int64_t val3 = (int32_t)((uint32_t)prod + (uint32_t)bias[i]);
    const int32_t val4 = (int32_t)((val3 > 0 ? val3 + 512 : val3 - 512) / 1024);
    const int32_t val5 = tfcc_mbqm(val4, a, b + 12);
    g[i] = (int16_t)tfcc_clamp_i32(val5, INT16_MIN, INT16_MAX);
  }
}

/* CalculateLstmGateInteger8x8_16. */
/* The peephole's reach (see gate_q): this row's offset in TFLite's flat [batch, n_cell] gate
 * buffer and the flat length n_output * (rows of one TFLite step). */
typedef struct peep_span {
  int32_t base, lim;
} peep_span;

static void gate_q(const tfcc_lstm_shape *s, const tfcc_lstm_q_weights *wt,
                   const tfcc_lstm_q_params *p, const tfcc_lstm_q_bias *eb, int g, const int8_t *x,
                   const int8_t *h, const int16_t *c, bool is_tanh, const peep_span *ps,
                   int16_t *gate) {
  const int32_t nc = s->n_cell;
  memset(gate, 0, (size_t)nc * sizeof(int16_t));
  mbvma_i16(x, eb->in_bias[g], wt->w[g], p->in_a[g], p->in_b[g], s->n_input, nc, gate);
  mbvma_i16(h, eb->rec_bias[g], wt->r[g], p->rec_a[g], p->rec_b[g], s->n_output, nc, gate);
  if (wt->peep[g]) {
    /* TFLite passes n_output as the vector size here (VectorBatchVectorCwiseProductAccumulate
     * over the step's flat [batch, n_cell] buffers): the flat elements k < rows * n_output get
     * weight peep[k % n_output] times the cell state at the same place. With one row per call
     * (batch-major) that is the first n_output cells; time-major steps take all batch rows at
     * once, so with n_output < n_cell later rows are reached at other offsets. */
    for (int32_t i = 0; i < nc; i++) {
      const int32_t k = ps->base + i;
      if (k >= ps->lim) break;
      int32_t prod =
          tfcc_mbqm((int32_t)wt->peep[g][k % s->n_output] * c[i], p->peep_a[g], p->peep_b[g]);
      gate[i] = (int16_t)tfcc_clamp_i32(wrap_i32((int64_t)prod + gate[i]), INT16_MIN, INT16_MAX);
    }
  }
  if (wt->ln[g])
    layer_norm_q(gate, nc, wt->ln[g], wt->bias[g], p->ln_a[g], p->ln_b[g], p->ln_guard[g]);
  for (int32_t i = 0; i < nc; i++)
    gate[i] = is_tanh ? tfcc_fx16_tanh(gate[i], 3) : tfcc_fx16_logistic(gate[i], 3);
}

static inline int16_t cwise_mul_shift(int16_t a, int16_t b, int shift) {
  return (int16_t)tfcc_rdbpot((int32_t)a * b, shift);
}

static void step_q(const tfcc_lstm_shape *s, const tfcc_lstm_q_weights *wt,
                   const tfcc_lstm_q_params *p, const tfcc_lstm_q_bias *eb, const int8_t *x,
                   int8_t *h, int16_t *c, int8_t *out, int16_t *g16, int8_t *hid,
                   const peep_span *ps) {
  const int32_t nc = s->n_cell, no = s->n_output;
  const bool cifg = wt->w[0] == NULL;
  int16_t *ig = g16, *fg = g16 + nc, *cg = g16 + 2 * nc, *og = g16 + 3 * nc, *th = g16 + 4 * nc;
  if (!cifg) gate_q(s, wt, p, eb, 0, x, h, c, false, ps, ig);
  gate_q(s, wt, p, eb, 1, x, h, c, false, ps, fg);
  gate_q(s, wt, p, eb, 2, x, h, c, true, ps, cg);
  /* UpdateLstmCellInteger. */
  for (int32_t i = 0; i < nc; i++) {
    int16_t kept = cwise_mul_shift(fg[i], c[i], 15);
    int16_t in_gate = cifg ? (int16_t)(INT16_MAX - fg[i]) : ig[i];
    int16_t added = cwise_mul_shift(in_gate, cg[i], 30 + p->cell_scale);
    int32_t v = tfcc_clamp_i32((int32_t)kept + added, INT16_MIN, INT16_MAX);
    if (p->cell_clip > 0) v = tfcc_clamp_i32(v, -p->cell_clip, p->cell_clip);
    c[i] = (int16_t)v;
  }
  gate_q(s, wt, p, eb, 3, x, h, c, false, ps, og);
  /* CalculateLstmOutputInteger8x8_16. */
  if (15 + p->cell_scale >= 0)
    for (int32_t i = 0; i < nc; i++) th[i] = tfcc_fx16_tanh(c[i], 15 + p->cell_scale);
  else /* TFLite's ApplyTanh leaves its output, the input gate's scratch, as it was (lstm.h) */
    memcpy(th, ig, (size_t)nc * sizeof(int16_t));
  for (int32_t i = 0; i < nc; i++) {
    const int32_t v =
        wrap_i32((int64_t)tfcc_mbqm((int32_t)og[i] * th[i], p->hidden_a, p->hidden_b) -
                 p->hidden_zp); /* portable CwiseMul subtracts the zero point */
    hid[i] = (int8_t)tfcc_clamp_i32(v, INT8_MIN, INT8_MAX);
  }
  if (wt->proj_w) {
    memset(h, 0, (size_t)no);
    mbvma_i8(hid, eb->proj_bias, wt->proj_w, p->proj_a, p->proj_b, nc, no, p->output_state_zp, h);
    if (p->proj_clip > 0)
      for (int32_t j = 0; j < no; j++)
        h[j] = (int8_t)tfcc_clamp_i32(h[j], -p->proj_clip, p->proj_clip);
  } else {
    memcpy(h, hid, (size_t)no);
  }
  memcpy(out, h, (size_t)no);
}

size_t tfcc_lstm_q_scratch_bytes(const tfcc_lstm_shape *s) {
  size_t nc = (size_t)s->n_cell, no = (size_t)s->n_output;
  size_t biases = (8 * nc + no) * sizeof(int32_t);
  size_t gates = 5 * nc * sizeof(int16_t);
  return biases + gates + nc + 16;
}

static void row_sums_times(const int8_t *w, int32_t rows, int32_t cols, int32_t scalar,
                           const int32_t *bias, int32_t *out) {
  for (int32_t r = 0; r < rows; r++) {
    int64_t sum = 0;
    for (int32_t k = 0; k < cols; k++) sum += w[(size_t)r * cols + k];
    out[r] = wrap_i32((bias ? bias[r] : 0) + (int64_t)wrap_i32(sum) * scalar);
  }
}

void tfcc_lstm_q8(const tfcc_lstm_shape *s, const tfcc_lstm_q_weights *wt,
                  const tfcc_lstm_q_params *p, const int8_t *input, int8_t *output_state,
                  int16_t *cell_state, int8_t *output, void *scratch) {
  const int32_t nc = s->n_cell, no = s->n_output;
  int32_t *b32 = scratch;
  tfcc_lstm_q_bias eb;
  for (int g = 0; g < 4; g++) {
    eb.in_bias[g] = b32 + (size_t)g * nc;
    eb.rec_bias[g] = b32 + (size_t)(4 + g) * nc;
    if (!wt->w[g]) continue;
    row_sums_times(wt->w[g], nc, s->n_input, -p->input_zp, wt->ln[g] ? NULL : wt->bias[g],
                   eb.in_bias[g]);
    row_sums_times(wt->r[g], nc, no, -p->output_state_zp, NULL, eb.rec_bias[g]);
  }
  eb.proj_bias = b32 + (size_t)8 * nc;
  if (wt->proj_w) row_sums_times(wt->proj_w, no, nc, p->hidden_zp, wt->proj_b, eb.proj_bias);
  int16_t *g16 = (int16_t *)(b32 + (size_t)8 * nc + no);
  int8_t *hid = (int8_t *)(g16 + (size_t)5 * nc);
  for (int32_t b = 0; b < s->n_batch; b++) {
    int8_t *h = output_state + (size_t)b * no;
    int16_t *c = cell_state + (size_t)b * nc;
    for (int32_t t = 0; t < s->n_time; t++) {
      size_t row = s->time_major ? (size_t)t * s->n_batch + b : (size_t)b * s->n_time + t;
      /* TFLite's step: all batch rows at once when time-major, one row otherwise */
      const peep_span ps = {s->time_major ? b * nc : 0, (s->time_major ? s->n_batch : 1) * no};
      step_q(s, wt, p, &eb, input + row * s->n_input, h, c, output + row * no, g16, hid, &ps);
    }
  }
}
