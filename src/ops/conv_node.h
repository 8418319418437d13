/* What CONV_2D and DEPTHWISE_CONV_2D share around their own fast paths: the parameters every
 * such node keeps (window options, quantization, the float32 and 8-bit packings, the hybrid
 * path), their init and release, the opening of prepare, and the geometry probe of the
 * macs / kernel queries. Each operator's parameters start with a tfcc_conv_node. */
#ifndef TFCC_OPS_CONV_NODE_H
#define TFCC_OPS_CONV_NODE_H

#include <stdbool.h>

#include "ops/conv_common.h"
#include "ops/f32_fast.h"
#include "ops/hybrid.h"
#include "ops/q8_fast.h"

typedef struct tfcc_conv_node {
  tfcc_window_opts o;
  tfcc_conv_qparams q;
  tfcc_f32_fast f32; /* float32 packing (CONV_2D; DEPTHWISE_CONV_2D: its fallback log only) */
  tfcc_q8_fast q8;   /* int8/uint8 packing */
  tfcc_hybrid *hyb;  /* float32 input with int8 filter (ops/hybrid.h), else NULL */
  bool depthwise;
} tfcc_conv_node;

/* Init of n (zeroed) for ctx's node: the packings' once-only state, the window options of its
 * Conv2DOptions or (depthwise) DepthwiseConv2DOptions, then the hybrid path where
 * tfcc_hybrid_applies, else the quantization parameters. On failure free n with
 * tfcc_conv_node_free. */
tfcc_status tfcc_conv_node_init(tfcc_conv_node *n, const tfcc_init_ctx *ctx, bool depthwise);
void tfcc_conv_node_free(tfcc_conv_node *n);

/* The geometry of ctx's tensors (tfcc_conv_geom_make; used by prepare and eval). */
tfcc_status tfcc_conv_node_geom(const tfcc_conv_node *n, const tfcc_op_ctx *ctx, tfcc_conv_geom *g);

/* The opening of prepare (n NULL: "<name> not initialised"): the inputs there, their dtypes
 * (tfcc_conv_check_types; the hybrid path checks its own), the geometry. */
tfcc_status tfcc_conv_node_prepare_open(const tfcc_conv_node *n, tfcc_op_ctx *ctx, const char *name,
                                        tfcc_conv_geom *g);
/* The hybrid path's prepare and the output shape. */
tfcc_status tfcc_conv_node_prepare_hybrid(const tfcc_conv_node *n, tfcc_op_ctx *ctx,
                                          const tfcc_conv_geom *g);
/* A quantized input needs its parameters, per tensor or per output channel. */
tfcc_status tfcc_conv_node_check_quant(const tfcc_conv_node *n, const tfcc_op_ctx *ctx,
                                       const tfcc_conv_geom *g);

/* The 8-bit packing's requantization for this input dtype, and why it cannot pack (NULL: it
 * can; tfcc_q8_fast_refuse). */
const char *tfcc_conv_node_q8_refuse(const tfcc_conv_node *n, const tfcc_op_ctx *ctx,
                                     tfcc_conv_requant *r);

/* The geometry at the tensors' stored shapes (tfcc_op_probe_ctx), for the macs and kernel
 * queries; false where there is none. */
bool tfcc_conv_node_probe(const tfcc_conv_node *n, const tfcc_op_ctx *ctx, tfcc_conv_geom *g);

#endif
