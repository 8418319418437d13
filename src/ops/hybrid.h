/* Dynamic-range ("hybrid") quantization of the conv-family operators: float32 input and
 * output, int8 constant weights (per-tensor or per-channel, zero point 0), activations
 * quantized to int8 at run time, int32 accumulation (docs/quantization.md "Hybrid").
 * CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED call these from small hooks in their
 * init / prepare / eval when tfcc_hybrid_applies. */
#ifndef TFCC_OPS_HYBRID_H
#define TFCC_OPS_HYBRID_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/hybrid/dwconv.h"
#include "kernels/hybrid/quantize.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-gemm/gemm.h"
#include "ops/op.h"

typedef enum tfcc_hyb_op {
  TFCC_HYB_CONV = 0,
  TFCC_HYB_DW = 1,
  TFCC_HYB_FC = 2,
  TFCC_HYB_BMM = 3 /* BATCH_MATMUL with a constant rhs: a FULLY_CONNECTED */
} tfcc_hyb_op;

typedef struct tfcc_hybrid {
  tfcc_hyb_op op;
  tfcc_hyb_scheme scheme;
  bool combined; /* out = acc * (scale * fscale) + bias (builtin conv / FC) */
  bool xnn;      /* TFLITE mode on an XNNPACK-delegated node (qd8; 1x1 conv per pixel) */
  int32_t act;
  int32_t n, kdim;    /* output channels, depth (conv: fh * fw * in_c) */
  const int8_t *w;    /* the weights as [n][kdim] (model memory, or w_own) */
  int8_t *w_own;      /* BATCH_MATMUL without adj_y: rhs [K, N] transposed; grouped CONV_2D
                      (TFLITE mode): the filter spread to all in_c input channels, zero
                      outside each output channel's group; else NULL */
  int32_t dense_in_c; /* grouped CONV_2D spread that way: the input channels, else 0 */
  const void *src;    /* the weights tensor's data */
  float *fscale;      /* filter scales (n entries, or 1 when fscale_stride is 0) */
  size_t fscale_stride;
  int32_t *wsum; /* [n] column sums (GEMM ops) */
  float *wsumf;  /* [n] the same as floats where the output stage may use them (tfcc_q8_hybrid's
                   wsumf: kdim <= TFCC_Q8_HYB_FMA_MAX_K, u8 x s8 kernel), else NULL */
  const int32_t *w32; /* depthwise: the filter widened to int32 (fast kernel): w32_own, or a
                         block of the weights cache (TFCC_BLOCK_HYB_DW32, read only) */
  int32_t *w32_own;
  tfcc_q8_dw_packed dwv;         /* depthwise, depth multiplier 1: packed for the q8 row kernel with
                            its hybrid output (int8 input; k NULL: none on this CPU) */
  tfcc_q8_packed packed;         /* GEMM ops: weights packed for the q8 GEMM (k NULL: none) */
  bool packed_borrowed;          /* packed.w lies in the weights cache (not freed) */
  const tfcc_qz_kernel *qz;      /* vectorised f32 -> int8 element (qd8) */
  tfcc_q8_hybrid_row_fn row;     /* vectorised GEMM output stage (kernels/hybrid/hyb_out.h) */
  tfcc_q8_hybrid_tile_fn tile;   /* the same, a whole tile at a time */
  tfcc_hyb_minmax_fn minmax;     /* vectorised min/max of the qd8 quantizer */
  tfcc_hyb_qd8_rows_fn qd8_rows; /* vectorised qd8 of many rows (groups of one row or pixel) */
  tfcc_hyb_round_fn rnd;         /* vectorised element of the sym / asym quantizers */
  tfcc_hyb_dwconv_fn dw;         /* vectorised depthwise kernel (kernels/hybrid/dwconv.h) */
} tfcc_hybrid;

/* True when node input in_idx is float32 and input w_idx an int8 tensor (a hybrid node). */
bool tfcc_hybrid_applies(const tfcc_init_ctx *ctx, int32_t in_idx, int32_t w_idx);

/* init: weights, scales, scheme for the model's quant_compat. asym_inputs: FULLY_CONNECTED's
 * asymmetric_quantize_inputs option (REFERENCE mode). *out is malloc'ed (tfcc_hybrid_free). */
tfcc_status tfcc_hybrid_init(const tfcc_init_ctx *ctx, tfcc_hyb_op op, int32_t act,
                             bool asym_inputs, tfcc_hybrid **out);
void tfcc_hybrid_free(tfcc_hybrid *h);
/* BATCH_MATMUL (float lhs, constant int8 rhs whose batch dimensions are all 1, adj_x false):
 * TFLite runs it as a FULLY_CONNECTED of the lhs rows (both builds, measured). */
tfcc_status tfcc_hybrid_bmm_init(const tfcc_init_ctx *ctx, bool adj_x, bool adj_y, bool asym_inputs,
                                 tfcc_hybrid **out);
/* BATCH_MATMUL whose constant int8 rhs has batches (the product of its dimensions before the
 * last two, tfcc_hybrid_bmm_rhs_batches: 0 when not a valid count): TFLite multiplies each lhs
 * matrix by its (broadcast) rhs matrix, the lhs quantized per row as in the FULLY_CONNECTED
 * above (DeepFilterNet's grouped linear layers: lhs [8, 1, K], rhs [8, K, N]). One hybrid per
 * rhs matrix b, made here from matrix b of the rhs (its packing not kept in the weights
 * cache, whose blocks are one per node); run with tfcc_hybrid_fc_eval_at on the matrices. */
int64_t tfcc_hybrid_bmm_rhs_batches(const tfcc_init_ctx *ctx);
/* Before the rb hybrids are made: the rhs's data holds rb matrices, and their hybrids' state
 * stays within 4 x the rhs's bytes + 4 MiB (any count of matrices of 256 bytes or more, up to
 * 4096 smaller ones); refused naming why otherwise. */
tfcc_status tfcc_hybrid_bmm_rhs_check(const tfcc_init_ctx *ctx, int64_t rb);
tfcc_status tfcc_hybrid_bmm_init_slice(const tfcc_init_ctx *ctx, bool adj_x, bool adj_y,
                                       bool asym_inputs, int64_t b, tfcc_hybrid **out);

/* Dtype checks (float32 input, output and bias; int8 filter) and scratch for a conv or
 * depthwise geometry (groups == 1 for CONV_2D, except a grouped one spread by init). */
tfcc_status tfcc_hybrid_conv_prepare(tfcc_op_ctx *ctx, const tfcc_hybrid *h,
                                     const tfcc_conv_geom *g);
tfcc_status tfcc_hybrid_conv_eval(tfcc_op_ctx *ctx, const tfcc_hybrid *h, const tfcc_conv_geom *g);
/* FULLY_CONNECTED: rows x accum input, units outputs. */
tfcc_status tfcc_hybrid_fc_prepare(tfcc_op_ctx *ctx, const tfcc_hybrid *h, int32_t rows,
                                   int32_t units, int32_t accum);
tfcc_status tfcc_hybrid_fc_eval(tfcc_op_ctx *ctx, const tfcc_hybrid *h, int32_t rows, int32_t units,
                                int32_t accum);
/* The same on rows x accum floats at x, units outputs a row at out (a BATCH_MATMUL matrix). */
tfcc_status tfcc_hybrid_fc_eval_at(tfcc_op_ctx *ctx, const tfcc_hybrid *h, const float *x,
                                   float *out, int32_t rows, int32_t units, int32_t accum);
/* TFLITE mode in a model with hybrid nodes: float32 LOGISTIC and CONV_2D take XNNPACK's exact
 * arithmetic (kernels/tflite-f32/tflite_f32.h), because run-time quantization downstream turns their
 * last-bit differences into quantization steps. */
bool tfcc_hybrid_xnn_float(const tfcc_init_ctx *ctx);
/* REFERENCE mode in a subgraph with hybrid nodes, for a node the classic interpreter's XNNPACK
 * delegate takes (it leaves only the hybrid nodes to the builtin kernels); false in a subgraph
 * where that interpreter makes a tensor dynamic (an operator whose shape-deciding input is not
 * a constant of the file, ops/classic_dynamic.h; a WHILE whose outputs are sized while
 * running), whose delegate then takes no node at all. */
bool tfcc_hybrid_ref_delegated_float(const tfcc_init_ctx *ctx);
/* REFERENCE mode in a subgraph whose every node the classic interpreter runs with its
 * builtin kernels (a dynamic tensor: ops/classic_dynamic.h, or a WHILE whose outputs are sized
 * while running; its XNNPACK delegate then takes no node), any model: float operators with a
 * fused activation clamp to tfcc_act_range_f32_builtin's [-FLT_MAX, FLT_MAX], so inf + 1 is
 * FLT_MAX there (the delegate's range is +-inf). */
bool tfcc_ref_builtin_float_range(const tfcc_init_ctx *ctx);
/* Computes once, into sg->classic_undelegated, whether the classic interpreter delegates none of
 * sg's nodes (the test behind tfcc_ref_builtin_float_range and tfcc_hybrid_ref_delegated_float,
 * which then read it instead of scanning sg at every node's init): called for every subgraph
 * after the graph passes, which fold and remove the nodes it looks at. */
void tfcc_classic_undelegated_note(const tfcc_graph *g, tfcc_ir_subgraph *sg);
/* Whether the classic interpreter delegates none of sg's nodes (the noted answer, else a scan):
 * the graph passes ask it (in REFERENCE mode they leave such a subgraph's float nodes as
 * the builtin kernels run them). */
bool tfcc_classic_undelegated(const tfcc_graph *g, const tfcc_ir_subgraph *sg);
/* REFERENCE mode in a subgraph with hybrid nodes, for a float node that delegate does not take
 * at any rank (BATCH_MATMUL, GELU: the classic interpreter's builtin kernels, exact6);
 * also in any subgraph the classic interpreter delegates nothing of (tfcc_ref_builtin_float_range),
 * hybrid or not, where every float node runs its builtin kernel (CONV_2D, FULLY_CONNECTED ask
 * this and not tfcc_hybrid_ref_delegated_float). */
bool tfcc_hybrid_ref_builtin_float(const tfcc_init_ctx *ctx);
/* The model has a hybrid node: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED or (a fused hybrid
 * expand) EXPAND_DEPTHWISE_CONV_2D with float32 input and int8 weights, in sg or in any other
 * subgraph of g that runs (gtcrn57: a WHILE body without hybrid nodes runs its float nodes as
 * the delegate does, as its caller; g NULL: sg alone). The answer noted in sg->hybrid, else a
 * scan. "A subgraph with hybrid nodes" elsewhere in these comments means this. */
bool tfcc_hybrid_in_model(const tfcc_graph *g, const tfcc_ir_subgraph *sg);
/* Computes that answer once into every subgraph's hybrid field (every float node's init asks
 * it): called after the graph passes, as tfcc_classic_undelegated_note. */
void tfcc_hybrid_in_model_note(tfcc_graph *g);
/* Float32 CONV_2D in that arithmetic with weights packed by tfcc_xnn_conv_pack. */
struct tfcc_tflite_f32_kernel;
void tfcc_hybrid_xnn_conv(tfcc_op_ctx *ctx, const struct tfcc_tflite_f32_kernel *k, const float *wp,
                          int32_t ocp, const tfcc_conv_geom *g, const float *bias, float lo,
                          float hi);
/* Float32 CONV_2D of fewer than 8 output channels in that arithmetic (XNNPACK's nr2 kernel,
 * tfcc_xnn_conv_c4_f32_rows; weights packed by tfcc_xnn_conv_pack), in row tasks. */
void tfcc_hybrid_xnn_conv_c4(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const float *wp,
                             int32_t ocp, const float *bias, float lo, float hi);
/* ops: float32 DEPTHWISE_CONV_2D in that arithmetic (tfcc_xnn_dwconv_f32_rows), in row tasks. */
void tfcc_hybrid_xnn_dwconv(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const float *filter,
                            const float *bias, float lo, float hi);

/* Kernel name for inspect / bench. */
const char *tfcc_hybrid_kernel(const tfcc_hybrid *h);
/* DEPTHWISE_CONV_2D's kernel at geometry g: the q8 row kernel (`hybrid-dwconv-avx512vnni`),
 * the vector int16 body (`hybrid-dwconv-vec`, any depth multiplier) or the portable loop. */
const char *tfcc_hybrid_dw_kernel(const tfcc_hybrid *h, const tfcc_conv_geom *g);

#endif
