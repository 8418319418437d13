/* Fast full-integer LSTM (TFLite's 8x8->16 UNIDIRECTIONAL_SEQUENCE_LSTM), byte-identical to the
 * reference kernel (src/kernels/ref/lstm_quant.c) at every ISA level.
 *
 * What differs from the reference is where the work is done, not the arithmetic:
 *  - once per model (tfcc_q8_lstm_plan_build, at the first prepare, which model load runs): the
 *    fixed-point multipliers, the effective biases
 *    (bias - zero point x row sums) and the weights packed for the matrix x vector kernel;
 *  - per step: the 4 gates' input and recurrent products as one int8 matrix x vector each
 *    (rows of all gates stacked), int32 sums exact as in the reference, then the same
 *    requantization and clamps in the same order;
 *  - the gemmlowp int16 logistic / tanh evaluated in SIMD lanes with the same operations (every
 *    add/sub wraps, every multiply is the saturating rounding doubling high multiply).
 * One file per ISA variant behind a dispatch table (dispatch.c). The scalar variant (plain C,
 * the reference's own activation functions) is the model the SIMD ones are tested against
 * piece by piece; the operator does not use it (at the generic level the reference kernel is
 * as fast: its row-major dot products vectorize, the packed ones here do not).
 *
 * Packed weights: rows in blocks of 16 (zero rows pad the last), columns in pairs (a zero column
 * pads an odd count); per block and column pair 32 bytes w[r][2p], w[r][2p+1] for r = 0..15. */
#ifndef TFCC_KERNELS_Q8_LSTM_LSTM_H
#define TFCC_KERNELS_Q8_LSTM_LSTM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/lstm.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* acc[r] = sum_k W[r][k] * x[k] for row_blocks * 16 rows; xp[p] holds x[2p] (low 16 bits) and
 * x[2p+1] (high 16 bits) as int16. */
typedef void (*tfcc_q8_lstm_gemv_fn)(const int8_t *packed, int32_t row_blocks, int32_t k_pairs,
                                     const int32_t *xp, int32_t *acc);
/* out[i] = tfcc_fx16_logistic(in[i], int_bits) (or tanh), i < n; out may equal in. */
typedef void (*tfcc_q8_lstm_act_fn)(const int16_t *in, int16_t *out, size_t n, int int_bits);

/* One gate's pre-activations (CalculateLstmGateInteger8x8_16 before the peephole), i < n:
 * out[i] = clamp16(mbqm(ah[i] + bh[i], mh, sh) + clamp16(mbqm(ax[i] + bx[i], mx, sx))). */
typedef void (*tfcc_q8_lstm_gate_fn)(const int32_t *ax, const int32_t *bx, int32_t mx, int sx,
                                     const int32_t *ah, const int32_t *bh, int32_t mh, int sh,
                                     int16_t *out, size_t n);
/* UpdateLstmCellInteger: c = clip(clamp16(rdbpot(f * c, 15) + rdbpot(i * g, in_shift))), with
 * i = INT16_MAX - f when ig is NULL (CIFG); clip 0 = none. */
typedef void (*tfcc_q8_lstm_cell_fn)(const int16_t *ig, const int16_t *fg, const int16_t *cg,
                                     int16_t *c, size_t n, int in_shift, int16_t clip);
/* Hidden state: out[i] = clamp8(mbqm(og[i] * th[i], m, s) - zp). */
typedef void (*tfcc_q8_lstm_hidden_fn)(const int16_t *og, const int16_t *th, int32_t m, int s,
                                       int32_t zp, int8_t *out, size_t n);

typedef struct tfcc_q8_lstm_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q8_lstm_gemv_fn gemv;
  tfcc_q8_lstm_act_fn sigmoid;
  tfcc_q8_lstm_act_fn tanh;
  tfcc_q8_lstm_gate_fn gate;
  tfcc_q8_lstm_cell_fn cell;
  tfcc_q8_lstm_hidden_fn hidden;
} tfcc_q8_lstm_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q8_lstm, tfcc_q8_lstm_kernel);

#define TFCC_Q8_LSTM_DECL(sfx) \
  void tfcc_q8_lstm_gemv_##sfx(const int8_t *packed, int32_t row_blocks, int32_t k_pairs, \
                               const int32_t *xp, int32_t *acc); \
  void tfcc_q8_lstm_sigmoid_##sfx(const int16_t *in, int16_t *out, size_t n, int int_bits); \
  void tfcc_q8_lstm_tanh_##sfx(const int16_t *in, int16_t *out, size_t n, int int_bits); \
  void tfcc_q8_lstm_gate_##sfx(const int32_t *ax, const int32_t *bx, int32_t mx, int sx, \
                               const int32_t *ah, const int32_t *bh, int32_t mh, int sh, \
                               int16_t *out, size_t n); \
  void tfcc_q8_lstm_cell_##sfx(const int16_t *ig, const int16_t *fg, const int16_t *cg, \
                               int16_t *c, size_t n, int in_shift, int16_t clip); \
  void tfcc_q8_lstm_hidden_##sfx(const int16_t *og, const int16_t *th, int32_t m, int s, \
                                 int32_t zp, int8_t *out, size_t n)
TFCC_Q8_LSTM_DECL(scalar);
TFCC_Q8_LSTM_DECL(sse4);
TFCC_Q8_LSTM_DECL(avx2);
TFCC_Q8_LSTM_DECL(avx512);
TFCC_Q8_LSTM_DECL(neon);

/* Bytes of a packed [rows, cols] matrix, and the packing itself (dst of that size). */
size_t tfcc_q8_lstm_packed_bytes(int32_t rows, int32_t cols);
void tfcc_q8_lstm_pack(const int8_t *w, int32_t rows, int32_t cols, int8_t *dst);

/* Everything the fast path precomputes from the weights (model level, read-only at run). */
typedef struct tfcc_q8_lstm_plan {
  int32_t n_input, n_cell, n_output;
  int32_t n_gates;                   /* 4, or 3 with CIFG (no input gate) */
  int32_t gate[4];                   /* gate id (TFCC_LSTM_GATE_*) of stacked gate block j */
  int32_t rows;                      /* n_gates * n_cell */
  const int8_t *w, *r, *proj;        /* packed input-to-gates, recurrent-to-gates, projection */
  const int32_t *in_bias, *rec_bias; /* [rows]: bias - input_zp * rowsum(W); -h_zp * rowsum(R) */
  const int32_t *proj_bias;          /* [n_output] or NULL */
  bool has_proj;
  const int16_t *peep[4]; /* cell-to-gate weights (the model's constants) or NULL */
  tfcc_lstm_q_params q;
  size_t off[6];      /* byte offsets of w, r, proj, in_bias, rec_bias, proj_bias in the block */
  size_t block_bytes; /* one block behind all the arrays, each 64-byte aligned */
  void *mem;          /* the block when the plan owns it; NULL when borrowed (adopted) */
} tfcc_q8_lstm_plan;

/* Builds the plan; false when out of memory. wt holds the model's constant weights. */
bool tfcc_q8_lstm_plan_build(tfcc_q8_lstm_plan *pl, const tfcc_lstm_shape *s,
                             const tfcc_lstm_q_weights *wt, const tfcc_lstm_q_params *q);
/* The same in two steps, for a block kept elsewhere (a weights cache): the plan's sizes, gate
 * order, parameters and the model's arrays it reads in place (pl->block_bytes: the block's size,
 * which follows from the shapes), no packing; then either the packing and effective biases into
 * `block` (block_bytes, 64-byte aligned) or the adoption of a block made so before. Either way
 * the plan borrows the block (plan_free leaves it). */
void tfcc_q8_lstm_plan_layout(tfcc_q8_lstm_plan *pl, const tfcc_lstm_shape *s,
                              const tfcc_lstm_q_weights *wt, const tfcc_lstm_q_params *q);
void tfcc_q8_lstm_plan_pack(tfcc_q8_lstm_plan *pl, const tfcc_lstm_q_weights *wt, void *block);
void tfcc_q8_lstm_plan_adopt(tfcc_q8_lstm_plan *pl, const void *block);
/* Frees the block if the plan owns it (mem), and clears the plan. */
void tfcc_q8_lstm_plan_free(tfcc_q8_lstm_plan *pl);

/* Scratch bytes tfcc_q8_lstm_run needs (64-byte aligned). */
size_t tfcc_q8_lstm_scratch_bytes(const tfcc_q8_lstm_plan *pl);
/* The sequence, as tfcc_lstm_q8 (s: this run's batch / time / layout; sizes as in the plan). */
void tfcc_q8_lstm_run(const tfcc_q8_lstm_kernel *k, const tfcc_q8_lstm_plan *pl,
                      const tfcc_lstm_shape *s, const int8_t *input, int8_t *output_state,
                      int16_t *cell_state, int8_t *output, void *scratch);

#endif
