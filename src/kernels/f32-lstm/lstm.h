/* Fast float32 LSTM (UNIDIRECTIONAL_SEQUENCE_LSTM without layer norm, tanh cell activation):
 * the reference's equations (src/kernels/ref/lstm.c) on the fast float kernels, within float
 * rounding of the reference. The gates of all steps' inputs go through one packed GEMM per
 * chunk of steps (stacked gates, biases folded into the packing), the recurrent products
 * through the one-row GEMV micro-kernel accumulating onto them, sigmoid / tanh through
 * f32-vunary. No ISA code of its own. */
#ifndef TFCC_KERNELS_F32_LSTM_LSTM_H
#define TFCC_KERNELS_F32_LSTM_LSTM_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-vunary/vunary.h"
#include "kernels/ref/lstm.h"

typedef struct tfcc_f32_lstm_plan {
  int32_t n_input, n_cell, n_output;
  int32_t n_gates;            /* 4, or 3 with CIFG; stacked in the order i, f, o, c */
  tfcc_f32_packed w, r, proj; /* [rows, n_input] with the biases, [rows, n_output], [no, nc] */
  bool has_proj;
  const float *peep[4]; /* the model's cell-to-gate weights or NULL */
  float cell_clip, proj_clip;
  const tfcc_f32_vunary_kernel *vu; /* the gates' sigmoid / tanh, chosen with the GEMM kernel */
} tfcc_f32_lstm_plan;

/* Whether the fast path covers these weights / options (no layer norm, tanh activation). */
bool tfcc_f32_lstm_supported(const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p);
/* Packs for the GEMM kernel of isa and chooses the activation kernel of isa; false when out
 * of memory. */
bool tfcc_f32_lstm_plan_build(tfcc_f32_lstm_plan *pl, tfcc_isa isa, const tfcc_lstm_shape *s,
                              const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p);
void tfcc_f32_lstm_plan_free(tfcc_f32_lstm_plan *pl);
size_t tfcc_f32_lstm_scratch_bytes(const tfcc_f32_lstm_plan *pl);
/* The sequence, as tfcc_lstm_f32 (single-threaded). */
void tfcc_f32_lstm_run(const tfcc_f32_lstm_plan *pl, const tfcc_lstm_shape *s, const float *input,
                       float *output_state, float *cell_state, float *output, void *scratch);

#endif
