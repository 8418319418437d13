/* What TensorFlow Lite's default XNNPACK delegate does with a node, where tfcc's default
 * arithmetic (TFCC_QUANT_COMPAT_TFLITE) depends on it beyond one operator's own choice. */
#ifndef TFCC_OPS_XNN_DELEGATE_H
#define TFCC_OPS_XNN_DELEGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

/* Internal quant_compat value (tfcc_init_ctx.quant_compat, never a model option): TFLite as it
 * runs when its XNNPACK delegate failed as a whole: TFLite's builtin kernels, as its default
 * (optimized) build runs them, for every node. Operators treat it as TFCC_QUANT_COMPAT_TFLITE
 * with a delegate that takes nothing: no XNNPACK arithmetic anywhere, and the builtin kernels'
 * own choices of the default build kept (the int8 CONV_2D / FULLY_CONNECTED single rounding of
 * ruy, ops/conv_common.c, ops/fully_connected.c). */
#define TFCC_QUANT_COMPAT_TFLITE_BUILTIN 2

/* RESIZE_BILINEAR: the delegate's partitioner takes the node (VisitResizeBilinearNode): an
 * 8-bit input of rank 4 with per-tensor quantization, a constant size, an 8-bit output of the
 * same dtype with per-tensor quantization, not both align_corners and half_pixel_centers. */
bool tfcc_xnn_takes_resize_bilinear(const tfcc_ir_tensor *in, const tfcc_ir_tensor *size,
                                    const tfcc_ir_tensor *out, bool align_corners,
                                    bool half_pixel_centers);

/* A node the partitioner takes but XNNPACK refuses, in any subgraph: a taken RESIZE_BILINEAR
 * whose input and output quantization differ (XNNPACK resizes without requantizing:
 * xnn_define_static_resize_bilinear_2d checks the parameters match), or a taken 8-bit CONV_2D,
 * DEPTHWISE_CONV_2D or FULLY_CONNECTED whose requantization scale (input scale * filter scale /
 * output scale) is 256 or more (XNNPACK's operator creation refuses it: "failed to create
 * XNNPACK runtime"). The delegate then fails to prepare, and TFLite restores the original
 * execution plan: every node of the model runs TFLite's builtin kernels. Returns true with the
 * first such node in *sg / *node and why XNNPACK refuses it in *why (a static string). */
bool tfcc_xnn_delegate_fails(const tfcc_graph *g, int32_t *sg, int32_t *node, const char **why);

#endif
