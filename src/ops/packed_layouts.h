/* Layouts of constant float weights that the exact (TFLite-order) kernels read, packed once at
 * init from the node's constants (or taken from the weights cache, ops/packed_store.h) instead
 * of re-laid out on every run. A generation made by a weight update runs init again,
 * so a packing always follows the weights it was made from; a run checks the tensor it reads is
 * still the one packed (the filter's data pointer) and otherwise takes the per-run path. Out of
 * memory leaves a layout NULL: the kernels' per-run path, the same bits. */
#ifndef TFCC_OPS_PACKED_LAYOUTS_H
#define TFCC_OPS_PACKED_LAYOUTS_H

#include <stdint.h>

#include "kernels/tflite-f32/tflite_f32.h"
#include "ops/op.h"

typedef struct tfcc_packed_layout {
  const float *data; /* own, or a block of the weights cache; NULL: none */
  float *own;
} tfcc_packed_layout;

void tfcc_packed_layout_free(tfcc_packed_layout *l);

/* The XNNPACK-order FC kernel's narrow last block (block TFCC_BLOCK_XNN_FC_TAIL) from the
 * panels wp of a units x accum layer, where kernel k takes it (k->fc_tail_floats). */
void tfcc_packed_xnn_fc_tail(const tfcc_init_ctx *ctx, const tfcc_tflite_f32_kernel *k,
                             const float *wp, int32_t units, int32_t accum, tfcc_packed_layout *l);

/* An [n][k] float matrix transposed to [k][n] (block `block`): REFERENCE mode's Eigen-order
 * CONV_2D filter [out_c][K] for the vector GEMM (TFCC_BLOCK_EIGEN_CONV). */
void tfcc_packed_transpose(const tfcc_init_ctx *ctx, uint32_t block, const float *w, int32_t n,
                           int32_t k, tfcc_packed_layout *l);

/* Constant float FULLY_CONNECTED weights [units][accum] as the Eigen-order vector kernel's
 * panels (tfcc_fc_eigen_pack, block TFCC_BLOCK_FC_EIGEN; REFERENCE mode's builtin order). */
void tfcc_packed_fc_eigen(const tfcc_init_ctx *ctx, const float *w, int32_t units, int32_t accum,
                          tfcc_packed_layout *l);

/* cache56: XNNPACK-order float packings of hybrid models (TFCC_BLOCK_XNN_CONV, _XNN_FC), which
 * were made at every load: a CONV_2D filter [out_c][kdim] as tfcc_xnn_conv_pack packs it, a
 * depthwise filter of one input channel [kdim taps][out_c] the same way (*ocp: the packing's
 * row length), and a FULLY_CONNECTED-order 1x1 CONV_2D filter [units][accum] as
 * tfcc_xnn_fc_pack's panels. */
void tfcc_packed_xnn_conv(const tfcc_init_ctx *ctx, const float *w_ohwi, int32_t out_c,
                          int32_t kdim, tfcc_packed_layout *l, int32_t *ocp);
void tfcc_packed_xnn_dw(const tfcc_init_ctx *ctx, const float *w_ko, int32_t out_c, int32_t kdim,
                        tfcc_packed_layout *l, int32_t *ocp);
void tfcc_packed_xnn_fc(const tfcc_init_ctx *ctx, const float *w, int32_t units, int32_t accum,
                        tfcc_packed_layout *l);

#endif
