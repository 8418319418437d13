/* The kernels a session's operators run, chosen once per dispatch level.
 *
 * Every kernel family whose variant depends only on the dispatch level (the CPU's best ISA,
 * capped by TFCC_ISA / the runtime option) has one entry here. The set for a level is filled
 * once per process (the families' *_select at that level) and handed to every operator in its
 * context (tfcc_op_ctx.ks, tfcc_init_ctx.ks): eval reads `ctx->ks->f32_vbinary` instead of
 * looking the kernel up per call. Families that choose by shape as well (the q8 GEMM by
 * depth) pick once at init from their own select.
 *
 * A new family adds one member here and one line in kernel_set.c. */
#ifndef TFCC_KERNELS_KERNEL_SET_H
#define TFCC_KERNELS_KERNEL_SET_H

#include "tfcc/tfcc.h"

typedef struct tfcc_kernel_set {
  tfcc_isa isa; /* the dispatch level these were chosen at */
  const struct tfcc_f32_gemm_kernel *f32_gemm;
  const struct tfcc_bf16_gemm_kernel *bf16_gemm; /* NULL: no bf16 kernel at this level */
  /* the direct convolution reading f32_gemm's panels (NULL: none at this panel width) */
  const struct tfcc_f32_direct_conv_kernel *f32_direct_conv;
  const struct tfcc_f32_dwconv_kernel *f32_dwconv;
  const struct tfcc_f32_vbinary_kernel *f32_vbinary;
  const struct tfcc_f32_vunary_kernel *f32_vunary;
  const struct tfcc_f32_softmax_kernel *f32_softmax;
  const struct tfcc_q16_softmax_kernel *q16_softmax;
  const struct tfcc_q8_softmax_kernel *q8_softmax;
  const struct tfcc_f32_resize_kernel *f32_resize;
  const struct tfcc_q8_dw_kernel *q8_dw;
  const struct tfcc_q8_fcs_kernel *q8_fcs;
  const struct tfcc_q8_vbinary_kernel *q8_vbinary;
  const struct tfcc_q8_lut_kernel *q8_lut;
  const struct tfcc_q8_resize_kernel *q8_resize;
  const struct tfcc_q8_lstm_kernel *q8_lstm;
  const struct tfcc_q16_dot_kernel *q16_dot;
  const struct tfcc_q16_gemm_kernel *q16_gemm;
  const struct tfcc_q16_dw_kernel *q16_dw;
  const struct tfcc_q16_vbinary_kernel *q16_vbinary;
  const struct tfcc_qz_kernel *qz;
  const struct tfcc_pool_kernel *pool;
  const struct tfcc_rsum_kernel *rsum;
  const struct tfcc_tflite_f32_kernel *tflite_f32;
  const struct tfcc_fc_eigen_kernel *fc_eigen;
} tfcc_kernel_set;

/* The set for dispatch level `isa` (never NULL; every member but bf16_gemm and f32_direct_conv is non-NULL; levels out of range get the generic set).
 * Thread-safe; the first call fills every level's set. */
const tfcc_kernel_set *tfcc_kernel_set_for(tfcc_isa isa);

#endif
