/* Fast float32 LSTM (UNIDIRECTIONAL_SEQUENCE_LSTM without layer norm, tanh cell activation):
 * the reference's equations (src/kernels/ref/lstm.c) in the reference's arithmetic, so the
 * same bits as the reference and as TensorFlow Lite's builtin kernel (lstm_eval.cc's float
 * path, which no delegate takes). Every product W x, R h and the projection is TFLite's
 * MatrixBatchVectorMultiplyAccumulate: a dot product from 0 over k in order, each product and
 * sum rounded apart, then added to the gate (gate = bias, + W x, + R h). Those dot products run
 * on the vector kernels `fc` (the input products of a chunk of steps in one call) and `fc_row`
 * (the recurrent and projection products, one step a call, on weights in its contiguous
 * blocks) of the tflite_f32 family with a zero bias (lanes over gate rows, k in order: the
 * same bits at every width).
 * Sigmoid and tanh are Eigen's, as TFLite's tensor_utils calls them (tfcc_logistic_f32_eigen,
 * tfcc_tanh_f32_eigen). No ISA code of its own. */
#ifndef TFCC_KERNELS_F32_LSTM_LSTM_H
#define TFCC_KERNELS_F32_LSTM_LSTM_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/ref/lstm.h"

typedef struct tfcc_f32_lstm_plan {
  int32_t n_input, n_cell, n_output;
  int32_t n_gates;  /* 4, or 3 with CIFG; stacked in the order i, f, o, c */
  int32_t rows_pad; /* n_gates * n_cell rounded up to TFCC_XNN_FC_PANEL (zero rows past it) */
  int32_t out_pad;  /* n_output rounded up likewise (projection rows) */
  /* [rows_pad][n_input] packed as tfcc_xnn_fc_pack; [rows_pad][n_output] and [out_pad][n_cell]
   * as the kernel's fc_row_pack (blocks of fc_row_block units); proj NULL without projection */
  const float *w, *r, *proj;
  const float *bias;   /* [n_gates * n_cell], stacked as the rows */
  size_t off[4];       /* byte offsets of w, r, proj, bias in the plan's block (64-aligned) */
  size_t block_bytes;  /* the block's size: every array above, each 64-byte aligned */
  void *mem;           /* the block when the plan owns it; NULL when borrowed (adopted) */
  const float *proj_b; /* the model's projection bias or NULL */
  bool has_proj;
  const float *peep[4]; /* the model's cell-to-gate weights or NULL */
  float cell_clip, proj_clip;
  const tfcc_tflite_f32_kernel *xk; /* the dot products' kernel, chosen for the ISA */
} tfcc_f32_lstm_plan;

/* Whether the fast path covers these weights / options (no layer norm, tanh activation). */
bool tfcc_f32_lstm_supported(const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p);
/* Packs the weights and chooses the kernel of isa; false when out of memory. */
bool tfcc_f32_lstm_plan_build(tfcc_f32_lstm_plan *pl, tfcc_isa isa, const tfcc_lstm_shape *s,
                              const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p);
/* The same in two steps, for a block kept elsewhere (a weights cache): the plan's sizes, kernel
 * and the model's arrays it reads in place (pl->block_bytes: the packed block's size, which
 * follows from the shapes and the kernel), no packing; then either the packing into `block`
 * (block_bytes, 64-byte aligned; false when out of memory) or the adoption of a block packed
 * so before. Either way the plan borrows the block (plan_free leaves it). */
void tfcc_f32_lstm_plan_layout(tfcc_f32_lstm_plan *pl, tfcc_isa isa, const tfcc_lstm_shape *s,
                               const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p);
bool tfcc_f32_lstm_plan_pack(tfcc_f32_lstm_plan *pl, const tfcc_lstm_f32_weights *wt, void *block);
void tfcc_f32_lstm_plan_adopt(tfcc_f32_lstm_plan *pl, const void *block);
/* Frees the block if the plan owns it (mem), and clears the plan. */
void tfcc_f32_lstm_plan_free(tfcc_f32_lstm_plan *pl);
size_t tfcc_f32_lstm_scratch_bytes(const tfcc_f32_lstm_plan *pl);
/* The sequence, as tfcc_lstm_f32 (single-threaded), bit for bit. */
void tfcc_f32_lstm_run(const tfcc_f32_lstm_plan *pl, const tfcc_lstm_shape *s, const float *input,
                       float *output_state, float *cell_state, float *output, void *scratch);

#endif
