/* Hybrid conv-family operators (hybrid.h): which arithmetic a node gets, the weights prepared
 * once, run-time quantization of the input into scratch, then the q8 GEMM with the hybrid
 * output stage (CONV_2D, FULLY_CONNECTED) or the hybrid depthwise kernel.
 *
 * Arithmetic (measured against TensorFlow Lite, docs/quantization.md "Hybrid"):
 *   TFLITE mode (XNNPACK's qd8 path for CONV_2D and FULLY_CONNECTED): qd8 quantization per
 *     image for CONV_2D, per row for FULLY_CONNECTED and for a 1x1 stride-1 unpadded CONV_2D
 *     (XNNPACK turns those into a fully connected node), ((float)acc * s) * fs + b.
 *   REFERENCE mode (builtin kernels): CONV_2D per image, symmetric for per-tensor filters and
 *     asymmetric for per-channel ones; FULLY_CONNECTED per row, asymmetric when its
 *     asymmetric_quantize_inputs option is set, else symmetric; acc * (s * fs) + b.
 *   DEPTHWISE_CONV_2D, both modes (XNNPACK does not take it): builtin asymmetric per image,
 *     ((float)acc * s) * fs + b.
 *   BATCH_MATMUL with a constant rhs: as FULLY_CONNECTED in both modes.
 * In TFLITE mode a model with hybrid nodes also runs float32 CONV_2D and LOGISTIC in
 * XNNPACK's exact arithmetic (tfcc_hybrid_xnn_float, kernels/tflite-f32/tflite_f32.h). */
#include "ops/hybrid.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/hybrid/dwconv.h"
#include "kernels/hybrid/hyb_out.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/ref/quant_util.h"
#include "ops/classic_dynamic.h"
#include "ops/conv_common.h"
#include "base/threadpool.h"
#include "base/weights_mem.h"

/* A CONV_2D / FULLY_CONNECTED weights tensor in the hybrid format of TF 1.x's converters:
 * symmetric int8 values in a tensor typed uint8, one scale. TFLite's builtin kernels read its
 * bytes as int8 and ignore the zero point (conv.cc and fully_connected.cc EvalHybrid:
 * GetTensorData<int8_t>(filter)); XNNPACK's delegate takes no uint8 filter for a float node, so
 * such a node always runs the builtin arithmetic. DEPTHWISE_CONV_2D refuses uint8 (TFLite too). */
static bool legacy_u8_weights(const tfcc_ir_node *n, const tfcc_ir_tensor *w) {
  return n && w->dtype == TFCC_UINT8 && w->quant.count == 1 &&
         (n->builtin == TFCC_OP_CONV_2D || n->builtin == TFCC_OP_FULLY_CONNECTED);
}

bool tfcc_hybrid_applies(const tfcc_init_ctx *ctx, int32_t in_idx, int32_t w_idx) {
  const tfcc_ir_tensor *in = tfcc_conv_ir_input(ctx, in_idx), *w = tfcc_conv_ir_input(ctx, w_idx);
  return in && w && in->dtype == TFCC_FLOAT32 &&
         (w->dtype == TFCC_INT8 || legacy_u8_weights(ctx->node, w));
}

/* ops: whether XNNPACK's delegate declines this node for its input's declared rank: a CONV_2D /
 * DEPTHWISE_CONV_2D whose input the file declares with a rank other than 4 (converters write []
 * where the shape is only known while running, e.g. behind a RESIZE to a size computed from
 * SHAPE), or a MEAN whose input is not rank 4 (the delegate's spatial MEAN; the trailing-axes
 * MEAN, which it takes at any rank, is decided apart in reduce_common.c). The delegate checks
 * the declared rank when it partitions the graph and leaves such a node to TFLite's builtin
 * kernels. Any other operator: false. */
static bool xnn_declines_input_rank(const tfcc_init_ctx *ctx) {
  const tfcc_ir_node *n = ctx->node;
  if (!n || !ctx->sg || n->n_inputs < 1 || n->inputs[0] < 0 || n->inputs[0] >= ctx->sg->n_tensors)
    return false;
  if (n->builtin != TFCC_OP_CONV_2D && n->builtin != TFCC_OP_DEPTHWISE_CONV_2D &&
      n->builtin != TFCC_OP_MEAN)
    return false;
  return ctx->sg->tensors[n->inputs[0]].rank != 4;
}

/* whether XNNPACK's delegates decline a float DEPTHWISE_CONV_2D for its filter: they
 * take a static filter only, and of the DEQUANTIZEs producing one they unpack float16 (LiteRT:
 * also int8) constants alone. A filter that is not constant, or that tfcc folded at load from a
 * DEQUANTIZE of uint8 weights (TOCO's dynamic-range MobileNetV2 depthwise layers), is a run-time
 * tensor to them: the node runs TFLite's builtin kernel in both builds (a hybrid HED edge
 * detector: LiteRT and the classic interpreter both match the builtin order bit for bit). */
static bool xnn_declines_dw_filter(const tfcc_init_ctx *ctx) {
  const tfcc_ir_node *n = ctx->node;
  const tfcc_ir_subgraph *sg = ctx->sg;
  if (!n || n->builtin != TFCC_OP_DEPTHWISE_CONV_2D || n->n_inputs < 2 || n->inputs[1] < 0 ||
      n->inputs[1] >= sg->n_tensors)
    return false;
  const int32_t f = n->inputs[1];
  if (sg->tensors[f].dtype != TFCC_FLOAT32) return false;
  if (!sg->tensors[f].data) return true;
  const int32_t p = sg->tensors[f].fold_node; /* the folded producer, found by the folder */
  if (!sg->tensors[f].folded || p < 0 || p >= sg->n_nodes) return false;
  const tfcc_ir_node *d = &sg->nodes[p];
  return d->builtin == TFCC_OP_DEQUANTIZE && d->n_inputs >= 1 && d->n_outputs >= 1 &&
         d->outputs[0] == f && d->inputs[0] >= 0 && d->inputs[0] < sg->n_tensors &&
         sg->tensors[d->inputs[0]].dtype == TFCC_UINT8;
}

/* whether the int8 weights of a hybrid node were expanded from a sparse encoding: read by the
 * node itself (the reader densified them, `from_sparse`) or by a DENSIFY that tfcc folded at
 * load. TFLite's delegate takes neither (it unpacks only float DENSIFY outputs; LiteRT.js fails
 * to delegate such a node), so both builds run the builtin kernels on them (sphy61). */
static bool weights_from_sparse(const tfcc_init_ctx *ctx, const tfcc_ir_tensor *w) {
  if (w->from_sparse) return true;
  const tfcc_ir_node *n = ctx->node;
  const tfcc_ir_subgraph *sg = ctx->sg;
  if (!n || !sg || !w->folded || w->fold_node < 0 || w->fold_node >= sg->n_nodes) return false;
  const tfcc_ir_node *d = &sg->nodes[w->fold_node];
  return d->builtin == TFCC_OP_DENSIFY && !d->custom_code && d->n_outputs >= 1 &&
         n->n_inputs >= 2 && d->outputs[0] == n->inputs[1];
}

static bool hybrid_in_subgraph_scan(const tfcc_ir_subgraph *sg) {
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *n = &sg->nodes[i];
    /* EXPAND_DEPTHWISE_CONV_2D: a hybrid expand fused with its float depthwise (inputs 0 and
       1 the expand's), so the subgraph stays hybrid when that was its only hybrid node */
    if (n->builtin != TFCC_OP_CONV_2D && n->builtin != TFCC_OP_DEPTHWISE_CONV_2D &&
        n->builtin != TFCC_OP_FULLY_CONNECTED && n->builtin != TFCC_OP_EXPAND_DEPTHWISE_CONV_2D)
      continue;
    if (n->n_inputs < 2 || n->inputs[0] < 0 || n->inputs[1] < 0 || n->inputs[0] >= sg->n_tensors ||
        n->inputs[1] >= sg->n_tensors)
      continue;
    const tfcc_ir_tensor *w = &sg->tensors[n->inputs[1]];
    if (sg->tensors[n->inputs[0]].dtype == TFCC_FLOAT32 &&
        (w->dtype == TFCC_INT8 || legacy_u8_weights(n, w)))
      return true;
  }
  return false;
}

/* gtcrn57: any subgraph of g that runs, sg among them (sg alone without g). LiteRT's delegate
 * takes the float nodes of every subgraph alike, so the rule is the model's, not the
 * subgraph's: GTCRN-Micro's dynamic-range LSTM loops hold float-only WHILE bodies (their
 * FULLY_CONNECTED weights under 1024 elements stay float) between hybrid layers, and their
 * float FULLY_CONNECTED of 973 rows in tfcc's order was an ulp off XNNPACK's on 49,264 of
 * 128,436 values, which the next hybrid node's run-time quantization turned into 0.0052 at
 * the output. */
static bool hybrid_in_model_scan(const tfcc_graph *g, const tfcc_ir_subgraph *sg) {
  if (sg && hybrid_in_subgraph_scan(sg)) return true;
  for (int32_t s = 0; g && s < g->n_subgraphs; s++)
    if (&g->subgraphs[s] != sg && !g->subgraphs[s].unrunnable &&
        hybrid_in_subgraph_scan(&g->subgraphs[s]))
      return true;
  return false;
}

void tfcc_hybrid_in_model_note(tfcc_graph *g) {
  const uint8_t h = hybrid_in_model_scan(g, NULL) ? 2 : 1;
  for (int32_t s = 0; s < g->n_subgraphs; s++) g->subgraphs[s].hybrid = h;
}

/* The answer noted after the passes, or a scan (the passes' own queries: fuse_expand_dwconv,
 * nodes the constant folder inits) */
bool tfcc_hybrid_in_model(const tfcc_graph *g, const tfcc_ir_subgraph *sg) {
  if (sg && sg->hybrid) return sg->hybrid == 2;
  return hybrid_in_model_scan(g, sg);
}

bool tfcc_hybrid_xnn_float(const tfcc_init_ctx *ctx) {
  if (ctx->quant_compat != TFCC_QUANT_COMPAT_TFLITE || !ctx->sg) return false;
  if (xnn_declines_input_rank(ctx) || xnn_declines_dw_filter(ctx))
    return false; /* ops: not delegated, builtin kernels */
  return tfcc_hybrid_in_model(ctx->graph, ctx->sg);
}

/* Whether the classic interpreter makes a tensor of sg dynamic while preparing it
 * (tfcc_classic_output_dynamic: an operator whose shape-deciding input is not a constant of the
 * file, e.g. sweep23's RESIZE to a size computed by SHAPE / STRIDED_SLICE / PACK, ref9's FILL of
 * computed dims (mit-bih's pq_model), lead49's RESHAPE by a computed shape (the Nested U-Net
 * speech enhancers), ref10's full table). Its XNNPACK delegate supports static-sized tensors
 * only, so ModifyGraphWithDelegate fails for the whole subgraph and every float node runs the
 * builtin kernels, one on no path from the dynamic tensor too (a hybrid style transfer
 * network: its float MEAN is the builtin's sequential sum divided by n in tfweb, not the
 * delegate's). A node a pass removed counts: TFLite prepares it. */
static bool classic_has_dynamic_tensor(const tfcc_ir_subgraph *sg) {
  for (int32_t i = 0; i < sg->n_nodes; i++)
    if (tfcc_classic_output_dynamic(sg, &sg->nodes[i])) return true;
  return false;
}

/* a WHILE whose outputs the classic interpreter sizes while running (while.cc makes
 * them dynamic when its body has a dynamic tensor or gives a loop variable another shape): the
 * body's outputs declared with other dims than its inputs, or a body tensor other than its
 * inputs that the converter declared with an unknown dimension (-1 in its shape signature: a
 * SLICE / CONCATENATION of computed sizes, DPCRN's GRU loops), or a body with a computed-size
 * RESIZE. Probed on the classic interpreter (tfweb): a WHILE whose loop variable grows leaves
 * every node of the calling subgraph to the builtin kernels (an ADD after it clamps inf to
 * FLT_MAX), a WHILE with a static body does not (its ADD keeps inf: delegated). */
static bool classic_dynamic_while(const tfcc_graph *g, const tfcc_ir_node *n) {
  if (!g || n->builtin != TFCC_OP_WHILE || n->opts.kind != TFCC_OPTIONS_SUBGRAPHS) return false;
  const int32_t bi = n->opts.subgraphs.second;
  if (bi < 0 || bi >= g->n_subgraphs) return false;
  const tfcc_ir_subgraph *b = &g->subgraphs[bi];
  if (b->n_inputs != b->n_outputs) return true;
  for (int32_t k = 0; k < b->n_outputs; k++) {
    const int32_t i = b->inputs[k], o = b->outputs[k];
    if (i < 0 || o < 0 || i >= b->n_tensors || o >= b->n_tensors) return true;
    const tfcc_ir_tensor *ti = &b->tensors[i], *to = &b->tensors[o];
    if (ti->rank != to->rank || memcmp(ti->dims, to->dims, sizeof(int32_t) * (size_t)ti->rank))
      return true;
  }
  for (int32_t t = 0; t < b->n_tensors; t++) {
    const tfcc_ir_tensor *tt = &b->tensors[t];
    bool input = false;
    for (int32_t k = 0; k < b->n_inputs && !input; k++) input = b->inputs[k] == t;
    if (input || !tt->has_signature) continue;
    for (int32_t d = 0; d < tt->rank; d++)
      if (tt->signature[d] < 0) return true;
  }
  return classic_has_dynamic_tensor(b);
}

/* A dynamic tensor of sg (classic_has_dynamic_tensor, classic_dynamic_while) makes the classic
 * interpreter's ModifyGraphWithDelegate fail for sg. */
static bool classic_declines_subgraph(const tfcc_graph *g, const tfcc_ir_subgraph *sg) {
  if (classic_has_dynamic_tensor(sg)) return true;
  for (int32_t i = 0; i < sg->n_nodes; i++)
    if (!sg->nodes[i].removed && classic_dynamic_while(g, &sg->nodes[i])) return true;
  return false;
}

/* The classic interpreter runs every node of sg with its builtin kernels: it hands the delegate
 * the subgraphs in order and stops at the first that fails (ref9: so a WHILE body behind a
 * primary subgraph that failed runs builtin too, DPCRN's GRU loops). */
static bool classic_undelegated_scan(const tfcc_graph *g, const tfcc_ir_subgraph *sg) {
  if (classic_declines_subgraph(g, sg)) return true;
  for (int32_t t = 0; g && t < g->n_subgraphs && &g->subgraphs[t] != sg; t++)
    if (!g->subgraphs[t].unrunnable && classic_declines_subgraph(g, &g->subgraphs[t])) return true;
  return false;
}

void tfcc_classic_undelegated_note(const tfcc_graph *g, tfcc_ir_subgraph *sg) {
  sg->classic_undelegated = classic_undelegated_scan(g, sg) ? 2 : 1;
}

/* The answer noted after the passes, or a scan (nodes the constant folder inits during them) */
static bool classic_undelegated(const tfcc_graph *g, const tfcc_ir_subgraph *sg) {
  if (sg->classic_undelegated) return sg->classic_undelegated == 2;
  return classic_undelegated_scan(g, sg);
}

bool tfcc_classic_undelegated(const tfcc_graph *g, const tfcc_ir_subgraph *sg) {
  return sg && classic_undelegated(g, sg);
}

bool tfcc_ref_builtin_float_range(const tfcc_init_ctx *ctx) {
  return ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE && ctx->sg &&
         classic_undelegated(ctx->graph, ctx->sg);
}

bool tfcc_hybrid_ref_delegated_float(const tfcc_init_ctx *ctx) {
  if (ctx->quant_compat != TFCC_QUANT_COMPAT_REFERENCE || !ctx->sg) return false;
  if (xnn_declines_input_rank(ctx) || xnn_declines_dw_filter(ctx)) return false;
  return tfcc_hybrid_in_model(ctx->graph, ctx->sg) && !classic_undelegated(ctx->graph, ctx->sg);
}

bool tfcc_hybrid_ref_builtin_float(const tfcc_init_ctx *ctx) {
  return ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE && ctx->sg &&
         (tfcc_hybrid_in_model(ctx->graph, ctx->sg) || classic_undelegated(ctx->graph, ctx->sg));
}

/* The float convolution / depthwise in XNNPACK's order (ops): rows of the batch-flattened
 * output split into tasks of 4 rows (1 below 64 rows); k NULL: c4 the convolution of the nr2
 * kernel, else the depthwise, dw its vector kernel (depth multiplier 1) or NULL (the portable
 * loop). */
typedef struct xnn_rows_job {
  const tfcc_tflite_f32_kernel *k;
  bool c4;
  tfcc_xnn_conv_rows_fn c4_rows; /* c4: the vector nr2 kernel, or NULL (the portable loop) */
  tfcc_xnn_dwconv_rows_fn dw;
  const tfcc_conv_geom *g;
  const float *in, *wp, *bias;
  int32_t ocp, rows_per_task, rows;
  float lo, hi;
  float *out;
} xnn_rows_job;

static void xnn_rows_task(void *ctx, size_t t, int thread) {
  (void)thread;
  const xnn_rows_job *j = ctx;
  const int32_t r0 = (int32_t)t * j->rows_per_task;
  const int32_t r1 = r0 + j->rows_per_task < j->rows ? r0 + j->rows_per_task : j->rows;
  if (j->k)
    j->k->conv_rows(j->g, j->in, j->wp, j->ocp, j->bias, j->lo, j->hi, j->out, r0, r1);
  else if (j->c4 && j->c4_rows)
    j->c4_rows(j->g, j->in, j->wp, j->ocp, j->bias, j->lo, j->hi, j->out, r0, r1);
  else if (j->c4)
    tfcc_xnn_conv_c4_f32_rows(j->g, j->in, j->wp, j->ocp, j->bias, j->lo, j->hi, j->out, r0, r1);
  else if (j->dw)
    j->dw(j->g, j->in, j->wp, j->bias, j->lo, j->hi, j->out, r0, r1);
  else
    tfcc_xnn_dwconv_f32_rows(j->g, j->in, j->wp, j->bias, j->lo, j->hi, j->out, r0, r1);
}

/* Runs j (its kernel fields set) over g's output rows: the node's input and output, filter wp. */
static void xnn_rows_run(tfcc_op_ctx *ctx, xnn_rows_job *j, const tfcc_conv_geom *g,
                         const float *wp, const float *bias, float lo, float hi) {
  j->g = g;
  j->in = ctx->in[0]->data;
  j->wp = wp;
  j->bias = bias;
  j->rows = g->batches * g->out_h;
  j->lo = lo;
  j->hi = hi;
  j->out = ctx->out[0]->data;
  if (j->rows <= 0 || j->g->out_w <= 0) return;
  j->rows_per_task = j->rows >= 64 ? 4 : 1;
  tfcc_threadpool_run(ctx->pool, (size_t)((j->rows + j->rows_per_task - 1) / j->rows_per_task),
                      xnn_rows_task, j);
}

void tfcc_hybrid_xnn_conv(tfcc_op_ctx *ctx, const tfcc_tflite_f32_kernel *k, const float *wp,
                          int32_t ocp, const tfcc_conv_geom *g, const float *bias, float lo,
                          float hi) {
  xnn_rows_job j = {.k = k, .ocp = ocp};
  xnn_rows_run(ctx, &j, g, wp, bias, lo, hi);
}

void tfcc_hybrid_xnn_conv_c4(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const float *wp,
                             int32_t ocp, const float *bias, float lo, float hi) {
  xnn_rows_job j = {
      .c4 = true,
      .ocp = ocp,
      .c4_rows = ctx->ks && ctx->ks->tflite_f32 ? ctx->ks->tflite_f32->conv_c4_rows : NULL};
  xnn_rows_run(ctx, &j, g, wp, bias, lo, hi);
}

void tfcc_hybrid_xnn_dwconv(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const float *filter,
                            const float *bias, float lo, float hi) {
  const tfcc_xnn_dwconv_rows_fn dw = g->in_c == g->out_c && ctx->ks && ctx->ks->tflite_f32
                                         ? ctx->ks->tflite_f32->dwconv_rows
                                         : NULL;
  xnn_rows_job j = {.dw = dw};
  xnn_rows_run(ctx, &j, g, filter, bias, lo, hi);
}

void tfcc_hybrid_free(tfcc_hybrid *h) {
  if (!h) return;
  free(h->fscale);
  free(h->wsum);
  free(h->wsumf);
  free(h->w32_own);
  free(h->w_own);
  if (h->packed.k && !h->packed_borrowed) tfcc_q8_packed_free(&h->packed);
  tfcc_q8_dw_packed_free(&h->dwv);
  free(h);
}

static const char *op_name(tfcc_hyb_op op) {
  return op == TFCC_HYB_CONV  ? "CONV_2D"
         : op == TFCC_HYB_DW  ? "DEPTHWISE_CONV_2D"
         : op == TFCC_HYB_BMM ? "BATCH_MATMUL"
                              : "FULLY_CONNECTED";
}

static tfcc_status hybrid_init(const tfcc_init_ctx *ctx, const tfcc_ir_tensor *w_slice,
                               tfcc_hyb_op op, int32_t act, bool asym_inputs, bool adj_y,
                               tfcc_hybrid **out);

tfcc_status tfcc_hybrid_init(const tfcc_init_ctx *ctx, tfcc_hyb_op op, int32_t act,
                             bool asym_inputs, tfcc_hybrid **out) {
  return hybrid_init(ctx, NULL, op, act, asym_inputs, false, out);
}

tfcc_status tfcc_hybrid_bmm_init(const tfcc_init_ctx *ctx, bool adj_x, bool adj_y, bool asym_inputs,
                                 tfcc_hybrid **out) {
  *out = NULL;
  const tfcc_ir_tensor *w = tfcc_conv_ir_input(ctx, 1);
  if (adj_x)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "BATCH_MATMUL: hybrid (float32 lhs, int8 rhs) with adj_x unsupported");
  if (w->rank < 2)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "BATCH_MATMUL: rhs rank %d, expected >= 2",
                        (int)w->rank);
  for (int32_t i = 0; i + 2 < w->rank; i++)
    if (w->dims[i] != 1)
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                          "BATCH_MATMUL: hybrid int8 rhs with batch dimension %d = %d unsupported",
                          (int)i, (int)w->dims[i]);
  return hybrid_init(ctx, NULL, TFCC_HYB_BMM, 0, asym_inputs, adj_y, out);
}

int64_t tfcc_hybrid_bmm_rhs_batches(const tfcc_init_ctx *ctx) {
  const tfcc_ir_tensor *w = tfcc_conv_ir_input(ctx, 1);
  int64_t rb = 1;
  for (int32_t i = 0; w && i + 2 < w->rank; i++) {
    if (w->dims[i] <= 0) return 0;
    rb *= w->dims[i];
    if (rb > INT32_MAX) return 0;
  }
  return w && w->rank >= 2 ? rb : 0;
}

/* The state one rhs matrix's hybrid keeps besides its weights (the struct, scales, column sums,
 * a packed panel's padding): 0.9 KiB measured for a 1 x 1 matrix (60,000 of them: 53 MB). */
#define HYB_BMM_MATRIX_STATE 1024

tfcc_status tfcc_hybrid_bmm_rhs_check(const tfcc_init_ctx *ctx, int64_t rb) {
  const tfcc_ir_tensor *w = tfcc_conv_ir_input(ctx, 1);
  if (!w || w->rank < 2 || rb <= 0 || !w->data)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "BATCH_MATMUL: int8 rhs of %lld matrices",
                        (long long)rb);
  const uint64_t per = (uint64_t)w->dims[w->rank - 2] * (uint64_t)w->dims[w->rank - 1];
  if (w->data_bytes / (uint64_t)rb < per)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "BATCH_MATMUL: int8 rhs shape/data mismatch");
  /* the hybrids' state at most 4 x the rhs's bytes + 4 MiB: any count of matrices of 256 bytes
     or more, up to 4096 smaller ones (a [2^24, 1, 1] rhs of 16 MB made 15 GB of hybrids) */
  const uint64_t state = (uint64_t)rb * HYB_BMM_MATRIX_STATE;
  if (state > 4 * (uint64_t)rb * per + ((uint64_t)4 << 20))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "BATCH_MATMUL: hybrid int8 rhs of %lld matrices of %llu bytes: one hybrid "
                        "each would keep %llu MiB (limit: 4 x the rhs's bytes + 4 MiB, about %d "
                        "bytes a matrix)",
                        (long long)rb, (unsigned long long)per, (unsigned long long)(state >> 20),
                        HYB_BMM_MATRIX_STATE);
  return TFCC_OK;
}

tfcc_status tfcc_hybrid_bmm_init_slice(const tfcc_init_ctx *ctx, bool adj_x, bool adj_y,
                                       bool asym_inputs, int64_t b, tfcc_hybrid **out) {
  *out = NULL;
  const tfcc_ir_tensor *w = tfcc_conv_ir_input(ctx, 1);
  const int64_t rb = tfcc_hybrid_bmm_rhs_batches(ctx);
  if (adj_x)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "BATCH_MATMUL: hybrid (float32 lhs, int8 rhs) with adj_x unsupported");
  if (!w || w->rank < 2 || rb <= 0 || b < 0 || b >= rb)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "BATCH_MATMUL: rhs matrix %lld of %lld",
                        (long long)b, (long long)rb);
  /* the matrix's own scales: one for the tensor, or one per output column (the last axis, the
     one before with adj_y); a scale per rhs batch is not a column scale */
  const int32_t col_axis = w->rank - (adj_y ? 2 : 1);
  if (w->quant.count > 1 && w->quant.axis != col_axis)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "BATCH_MATMUL: hybrid rhs with %d scales along axis %d (one scale, or "
                        "one per output column along axis %d, is supported)",
                        (int)w->quant.count, (int)w->quant.axis, (int)col_axis);
  const size_t per = (size_t)w->dims[w->rank - 2] * (size_t)w->dims[w->rank - 1];
  if (!w->data || w->data_bytes < (size_t)rb * per)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "BATCH_MATMUL: int8 rhs shape/data mismatch");
  tfcc_ir_tensor m = *w; /* rhs matrix b: [K, N] ([N, K] with adj_y) */
  m.rank = 2;
  m.dims[0] = w->dims[w->rank - 2];
  m.dims[1] = w->dims[w->rank - 1];
  m.data = (const int8_t *)w->data + (size_t)b * per;
  m.data_bytes = per;
  m.quant.axis = w->quant.count > 1 ? col_axis - (w->rank - 2) : w->quant.axis;
  tfcc_status st = hybrid_init(ctx, &m, TFCC_HYB_BMM, 0, asym_inputs, adj_y, out);
  if (st == TFCC_OK) (*out)->src = w->data; /* prepare checks the tensor's data */
  return st;
}

/* Depth multiplier 1 where the q8 depthwise has a row kernel (AVX512-VNNI): the filter packed
 * for it (no offsets, no bias: its hybrid output, kernels/q8-dwconv/dwconv.h). Anything else
 * (or no memory) keeps the int16 kernel. The packing, a q8 depthwise block with its
 * layout header, is block TFCC_BLOCK_HYB_DW of the weights cache (size from the shapes and the
 * kernel, which the cache's kernel level fixes; a hit's header is checked by adopt, used in
 * place, and the filter is not read). */
static void dw_rows_init(const tfcc_init_ctx *ctx, tfcc_hybrid *h, const tfcc_ir_tensor *w) {
  const tfcc_ir_tensor *x = tfcc_conv_ir_input(ctx, 0);
  if (!x || x->rank != 4 || w->rank != 4 || w->dims[0] != 1 || x->dims[3] != w->dims[3]) return;
  const tfcc_q8_dw_kernel *k = tfcc_q8_dw_select(ctx->isa);
  if (!k || !k->row_s) return;
  tfcc_conv_requant r;
  memset(&r, 0, sizeof r);
  const int32_t c = w->dims[3], fh = w->dims[1], fw = w->dims[2];
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_HYB_DW);
  const size_t bytes = tfcc_q8_dw_block_bytes(k, true, c, fh, fw, &r);
  const void *hit = bytes ? tfcc_packed_get(&key, bytes) : NULL;
  if (hit && tfcc_q8_dw_adopt(k, true, c, fh, fw, &r, hit, bytes, &h->dwv) && h->dwv.rows) return;
  memset(&h->dwv, 0, sizeof h->dwv); /* an adopted block without rows is not ours to free */
  if (!tfcc_q8_dw_pack(k, true, c, fh, fw, h->w, NULL, &r, &h->dwv) || !h->dwv.rows) {
    tfcc_q8_dw_packed_free(&h->dwv);
    memset(&h->dwv, 0, sizeof h->dwv);
    return;
  }
  tfcc_packed_put(&key, tfcc_q8_dw_block(&h->dwv), h->dwv.block_bytes);
}

/* Whether the row kernel takes every geometry of this node at any input width (dw_rows at
 * every out_w: tfcc_q8_dw_fits_any_width), its channels and filter being the packing's. Then
 * the int16 kernel's widened filter is not made. */
static bool dw_rows_any_width(const tfcc_init_ctx *ctx, const tfcc_hybrid *h) {
  if (!ctx->node || ctx->node->builtin != TFCC_OP_DEPTHWISE_CONV_2D) return false;
  const tfcc_depthwise_options *o = &ctx->node->opts.depthwise;
  return h->dwv.rows && h->dwv.w &&
         tfcc_q8_dw_fits_any_width(h->dwv.fh, h->dwv.fw, o->stride_w, o->dilation_w);
}

/* The int16 kernel's filter widened to int32 (w32), block TFCC_BLOCK_HYB_DW32 of the weights
 * cache (its size follows from the filter's; a hit is used in place, the filter not read for
 * it). False: no memory. */
static bool dw_widen(const tfcc_init_ctx *ctx, tfcc_hybrid *h, int64_t elems) {
  const size_t bytes = (size_t)elems * sizeof(int32_t);
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_HYB_DW32);
  const void *hit = tfcc_packed_get(&key, bytes);
  if (hit) {
    h->w32 = hit;
    return true;
  }
  h->w32_own = malloc(bytes);
  if (!h->w32_own) return false;
  for (int64_t i = 0; i < elems; i++) h->w32_own[i] = h->w[i];
  h->w32 = h->w32_own;
  tfcc_packed_put(&key, h->w32_own, bytes);
  return true;
}

/* The vector int16 kernel at geometry g (its widened filter made: not where the row kernel
 * takes every geometry), else the portable loop on the int8 filter. */
static bool dw_fast(const tfcc_hybrid *h, const tfcc_conv_geom *g) {
  return h->w32 && tfcc_hyb_dwconv_fast_applies(g);
}

/* The geometry runs on the row kernel (dw_rows_init), whose column span it fits
 * (tfcc_q8_dw_fits: else the vector kernel, which walks the taps only). */
static bool dw_rows(const tfcc_hybrid *h, const tfcc_conv_geom *g) {
  return h->dwv.rows && h->dwv.w && g->in_c == g->out_c && g->out_c == h->dwv.c &&
         g->filter_h == h->dwv.fh && g->filter_w == h->dwv.fw && tfcc_q8_dw_fits(g);
}

/* Grouped CONV_2D (the input's channels a multiple > 1 of the filter's): the input channel
 * count, else 0. */
static int32_t grouped_in_c(const tfcc_init_ctx *ctx, const tfcc_ir_tensor *w) {
  const tfcc_ir_tensor *x = tfcc_conv_ir_input(ctx, 0);
  if (!x || x->rank != 4 || w->rank != 4 || w->dims[3] <= 0 || x->dims[3] <= w->dims[3] ||
      x->dims[3] % w->dims[3] != 0)
    return 0;
  const int32_t groups = x->dims[3] / w->dims[3];
  return w->dims[0] % groups == 0 ? x->dims[3] : 0;
}

/* TFLITE mode: XNNPACK runs a grouped hybrid convolution as one qd8 convolution whose input is
 * quantized per image over all channels, each output channel summing its group's channels; the
 * same as a dense convolution whose filter is zero outside the group (bit-identical to LiteRT,
 * conformance conv_2d_hybrid_grouped_*). The filter [n, fh, fw, w_in_c] becomes [n, fh, fw,
 * in_c] (dense elements, at most TFCC_HYB_SPREAD_MAX: the caller checks) in h->w_own.
 * False: out of memory. */
#define TFCC_HYB_SPREAD_MAX ((int64_t)1 << 26)
static bool spread_groups(tfcc_hybrid *h, const tfcc_ir_tensor *w, int32_t in_c, int64_t dense) {
  const int32_t n = w->dims[0], taps = w->dims[1] * w->dims[2], fic = w->dims[3];
  const int32_t per_group = n / (in_c / fic);
  int8_t *d = calloc((size_t)dense, 1);
  if (!d) return false;
  const int8_t *src = w->data;
  for (int32_t o = 0; o < n; o++) {
    const int32_t c0 = o / per_group * fic;
    for (int32_t t = 0; t < taps; t++)
      memcpy(d + ((size_t)o * (size_t)taps + (size_t)t) * (size_t)in_c + (size_t)c0,
             src + ((size_t)o * (size_t)taps + (size_t)t) * (size_t)fic, (size_t)fic);
  }
  h->w_own = d;
  h->w = d;
  h->kdim = taps * in_c;
  h->dense_in_c = in_c;
  return true;
}

/* a GEMM op's q8 packing (h->packed's layout set here) followed by its int32 column
 * sums is block TFCC_BLOCK_HYB_Q8 of the weights cache: `bytes` long, the packing's
 * `packed_bytes` first; hit, when the cache holds it (read only, used in place). Its size follows
 * from the shapes and the q8 kernel, which the cache's kernel level fixes. */
typedef struct hyb_block {
  tfcc_packed_key key;
  tfcc_conv_requant r;
  size_t packed_bytes, bytes; /* 0: the shapes do not fit */
  const uint8_t *hit;
} hyb_block;

static void gemm_block(const tfcc_init_ctx *ctx, tfcc_hybrid *h, int32_t n, int32_t kdim,
                       bool uncached, hyb_block *b) {
  b->key = tfcc_init_block_key(ctx, TFCC_BLOCK_HYB_Q8);
  if (uncached) b->key.store = NULL;
  memset(&b->r, 0, sizeof b->r);
  b->r.filter_offset = -128; /* the weights given as uint8 w + 128 (below) */
  /* AMX panels hold 64 columns, wider than the c32 tile the hybrid stage reads: the
     selection without rows never picks them */
  const tfcc_q8_gemm_kernel *k = tfcc_q8_gemm_select_for(ctx->isa, 0, kdim, n);
  b->packed_bytes = tfcc_q8_pack_layout(k, false, n, kdim, &b->r, &h->packed);
  const size_t sums = ((size_t)n * sizeof(int32_t) + 63) & ~(size_t)63;
  b->bytes = b->packed_bytes && b->packed_bytes <= SIZE_MAX - sums ? b->packed_bytes + sums : 0;
  b->hit = b->bytes ? tfcc_packed_get(&b->key, b->bytes) : NULL;
}

/* The weights h->w ([n][kdim] int8) packed into a new block of b->bytes as uint8 w + 128, a
 * slice of panels at a time (the converted copy of one slice, up to HYB_SLICE bytes, not of
 * the whole filter: ResNet-18's 2.4 MB layers were resident a third time during the load).
 * False: out of memory. */
#define HYB_SLICE ((size_t)256 << 10)
static bool pack_sliced(tfcc_hybrid *h, const hyb_block *b) {
  const size_t kdim = (size_t)h->kdim, nr = (size_t)h->packed.k->nr;
  const size_t panels = ((size_t)h->n + nr - 1) / nr;
  size_t per = HYB_SLICE / (nr * kdim); /* panels per slice */
  per = per ? per : 1;
  const size_t rows = (per < panels ? per : panels) * nr;
  uint8_t *wu = malloc(rows * kdim);
  uint8_t *buf = wu && b->bytes ? tfcc_wmem_alloc(b->bytes) : NULL;
  for (size_t p0 = 0; buf && p0 < panels; p0 += per) {
    const size_t p1 = p0 + per < panels ? p0 + per : panels;
    const size_t r0 = p0 * nr, r1 = p1 * nr < (size_t)h->n ? p1 * nr : (size_t)h->n;
    const int8_t *src = h->w + r0 * kdim;
    for (size_t i = 0; i < (r1 - r0) * kdim; i++) wu[i] = (uint8_t)src[i] ^ 0x80u;
    tfcc_q8_pack_fill_rows(&h->packed, wu, p0, p1, &b->r, buf, b->packed_bytes);
  }
  free(wu);
  return buf != NULL;
}

/* w_slice: the weights (a BATCH_MATMUL rhs matrix, tfcc_hybrid_bmm_init_slice), kept out of
 * the weights cache (its blocks are one per node); NULL: the node's input 1. */
static tfcc_status hybrid_init(const tfcc_init_ctx *ctx, const tfcc_ir_tensor *w_slice,
                               tfcc_hyb_op op, int32_t act, bool asym_inputs, bool adj_y,
                               tfcc_hybrid **out) {
  *out = NULL;
  const char *name = op_name(op);
  const tfcc_ir_tensor *w = w_slice ? w_slice : tfcc_conv_ir_input(ctx, 1),
                       *b = tfcc_conv_ir_input(ctx, 2);
  if (!w->data || w->sparsity || w->is_variable)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "%s: hybrid (float32 input, int8 weights) needs constant dense weights",
                        name);
  if (b && b->dtype != TFCC_FLOAT32)
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE, "%s: hybrid bias dtype %s, expected float32",
                        name, tfcc_dtype_name(b->dtype));
  int64_t elems;
  if (!tfcc_conv_count(w->rank, w->dims, &elems) || w->rank < 2 || w->data_bytes < (size_t)elems)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "%s: int8 weights shape/data mismatch",
                        name);
  /* output channels: dimension 0 (conv OHWI, FC [units, accum]), the last (depthwise,
     BATCH_MATMUL rhs [.., K, N]) or the one before (BATCH_MATMUL adj_y: [.., N, K]) */
  const int32_t n = op == TFCC_HYB_DW || (op == TFCC_HYB_BMM && !adj_y) ? w->dims[w->rank - 1]
                    : op == TFCC_HYB_BMM                                ? w->dims[w->rank - 2]
                                                                        : w->dims[0];
  if (n <= 0 || elems == 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: empty int8 weights", name);
  const int32_t qc = w->quant.count;
  if (qc != 1 && qc != n)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "%s: hybrid (float32 input) int8 weights have %d scales, expected 1 or %d",
                        name, (int)qc, (int)n);
  const bool legacy_u8 = w->dtype == TFCC_UINT8; /* zero point ignored, as TFLite does */
  for (int32_t i = 0; i < qc && !legacy_u8; i++)
    if (w->quant.zero_point && w->quant.zero_point[i] != 0)
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                          "%s: hybrid weights zero point %d (only symmetric int8 weights)", name,
                          (int)w->quant.zero_point[i]);
  tfcc_status st = tfcc_conv_check_act(act, ctx->err);
  if (st != TFCC_OK) return st;
  tfcc_hybrid *h = calloc(1, sizeof *h);
  if (!h) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for hybrid %s", name);
  h->op = op;
  h->act = act;
  h->n = n;
  h->kdim = (int32_t)(elems / n);
  h->w = w->data;
  h->src = w->data;
  h->fscale_stride = qc > 1 ? 1 : 0;
  h->qz = tfcc_qz_select(ctx->isa);
  h->row = tfcc_hyb_out_select(ctx->isa);
  h->tile = tfcc_hyb_out_tile_select(ctx->isa);
  h->minmax = tfcc_hyb_minmax_select(ctx->isa);
  h->dw = tfcc_hyb_dwconv_select(ctx->isa);
  h->rnd = tfcc_hyb_round_select(ctx->isa);
  h->qd8_rows = tfcc_hyb_qd8_rows_select(ctx->isa);
  /* ops: a node XNNPACK does not take (xnn_declines_input_rank, legacy uint8 weights) runs the
   * builtin kernels, as in REFERENCE mode; so do weights the file stores sparse
   * (weights_from_sparse): TFLite's sparse hybrid FULLY_CONNECTED (EvalSparseHybridImpl) is
   * builtin arithmetic (its delegate reads the stored values as a dense matrix, which computes
   * nothing meaningful), and a DENSIFY's int8 output is a run-time tensor to the delegate */
  const bool tflite = ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE &&
                      !xnn_declines_input_rank(ctx) && !legacy_u8 && !weights_from_sparse(ctx, w);
  /* ref9: the classic interpreter's conv.cc sees per-channel scales that are all equal as a
   * per-tensor filter (EvalHybrid) and multiplies by the tensor's legacy scale, 0 for any
   * per-channel quantization: every output is its bias, clamped (mit-bih's pq_model) */
  bool ref_equal_scales = op == TFCC_HYB_CONV && qc > 1 && w->quant.scale &&
                          ctx->quant_compat == TFCC_QUANT_COMPAT_REFERENCE;
  for (int32_t i = 1; i < qc && ref_equal_scales; i++)
    ref_equal_scales = w->quant.scale[i] == w->quant.scale[0];
  if (op == TFCC_HYB_DW) {
    h->scheme = TFCC_HYB_ASYM;
  } else if (tflite) {
    h->scheme = TFCC_HYB_QD8;
    h->xnn = true;
  } else if (op == TFCC_HYB_CONV) {
    h->scheme = qc > 1 && !ref_equal_scales ? TFCC_HYB_ASYM : TFCC_HYB_SYM;
    h->combined = true;
  } else if (op == TFCC_HYB_BMM) {
    h->scheme = asym_inputs ? TFCC_HYB_ASYM : TFCC_HYB_SYM;
    h->combined = true;
  } else {
    h->scheme = asym_inputs ? TFCC_HYB_ASYM : TFCC_HYB_SYM;
    h->combined = true;
  }
  h->fscale = malloc((size_t)qc * sizeof(float));
  if (!h->fscale) goto oom;
  memcpy(h->fscale, w->quant.scale, (size_t)qc * sizeof(float));
  if (ref_equal_scales) h->fscale[0] = 0.f, h->fscale_stride = 0;
  const int32_t group_in_c = op == TFCC_HYB_CONV && tflite ? grouped_in_c(ctx, w) : 0;
  /* the GEMM ops' packing and column sums are one block of the weights cache
   * (gemm_block): a hit needs neither the transposed nor the spread weights */
  hyb_block blk = {0};
  if (op != TFCC_HYB_DW) {
    const int32_t kdim = group_in_c > 0 ? w->dims[1] * w->dims[2] * group_in_c : h->kdim;
    if (!(group_in_c > 0 && (int64_t)n * kdim > TFCC_HYB_SPREAD_MAX))
      gemm_block(ctx, h, n, kdim, w_slice != NULL, &blk);
  }
  if (op == TFCC_HYB_BMM && !adj_y && !blk.hit) { /* [K, N] -> [N, K] */
    h->w_own = malloc((size_t)elems);
    if (!h->w_own) goto oom;
    const int8_t *src = w->data;
    for (int32_t k = 0; k < h->kdim; k++)
      for (int32_t c = 0; c < n; c++)
        h->w_own[(size_t)c * (size_t)h->kdim + (size_t)k] = src[(size_t)k * (size_t)n + (size_t)c];
    h->w = h->w_own;
  }
  if (group_in_c > 0) {
    const int64_t dense = (int64_t)n * w->dims[1] * w->dims[2] * group_in_c;
    if (dense > TFCC_HYB_SPREAD_MAX) {
      tfcc_hybrid_free(h);
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                          "CONV_2D hybrid: grouped convolution spread to %lld filter elements "
                          "(limit %lld)",
                          (long long)dense, (long long)TFCC_HYB_SPREAD_MAX);
    }
    if (blk.hit) { /* the shapes spread_groups sets, without the spread filter */
      h->kdim = w->dims[1] * w->dims[2] * group_in_c;
      h->dense_in_c = group_in_c;
    } else if (!spread_groups(h, w, group_in_c, dense)) {
      goto oom;
    }
    elems = dense;
  }
  if (op == TFCC_HYB_DW) {
    dw_rows_init(ctx, h, w);
    /* not where the row kernel runs every geometry (MobileNetV2 hybrid: 252 KB) */
    if (!dw_rows_any_width(ctx, h) && !dw_widen(ctx, h, elems)) goto oom;
  } else {
    h->wsum = malloc((size_t)n * sizeof(int32_t));
    if (!h->wsum) goto oom;
    if (blk.hit) {
      memcpy(h->wsum, blk.hit + blk.packed_bytes, (size_t)n * sizeof(int32_t));
      h->packed.w = (uint8_t *)(uintptr_t)blk.hit; /* read only: kernels never write it */
      h->packed_borrowed = true;
    } else {
      for (int32_t c = 0; c < n; c++) {
        int32_t s = 0;
        for (int32_t k = 0; k < h->kdim; k++) s += h->w[(size_t)c * (size_t)h->kdim + (size_t)k];
        h->wsum[c] = s;
      }
      /* The GEMM takes the activations as uint8 q + 128 (zero points + 128, to_gemm_bytes)
         against the weights packed as uint8 w + 128 with filter offset -128: where the
         kernel's products are u8 x s8 (x86) the weights are then stored as they are and the
         row term (gemm.h, kz = 0) drops out, so no row sums: acc = sum (q + 128) * w, and the
         output stage's acc - (zp + 128) * wsum is the same int32 as sum (q - zp) * w. */
      if (!pack_sliced(h, &blk)) goto oom;
      uint8_t *buf = h->packed.w;
      memcpy(buf + blk.packed_bytes, h->wsum, (size_t)n * sizeof(int32_t));
      tfcc_packed_put(&blk.key, buf, blk.bytes);
    }
    /* every eval of a GEMM op reads the packing and the sums only */
    tfcc_packed_consumed(&blk.key, h, w->data);
    const tfcc_q8_gemm_kernel *k = h->packed.k;
    /* u8 x s8 products taken as they are (x86): the accumulator is sum (q + 128) * w, whose
       magnitude is at most kdim * 255 * 128, exact in float up to TFCC_Q8_HYB_FMA_MAX_K */
    if (h->kdim <= TFCC_Q8_HYB_FMA_MAX_K && k->w_xor == 0x80u && k->x_xor == 0) {
      h->wsumf = malloc((size_t)n * sizeof(float));
      if (!h->wsumf) goto oom;
      for (int32_t c = 0; c < n; c++) h->wsumf[c] = (float)h->wsum[c];
    }
  }
  *out = h;
  return TFCC_OK;
oom:
  tfcc_hybrid_free(h);
  return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory preparing hybrid %s weights",
                      name);
}

const char *tfcc_hybrid_kernel(const tfcc_hybrid *h) {
  if (!h) return "ref";
  if (h->op == TFCC_HYB_DW) return h->dwv.rows ? "hybrid-dwconv-avx512vnni" : "hybrid-dwconv";
  return h->packed.k ? h->packed.k->name : "ref";
}

const char *tfcc_hybrid_dw_kernel(const tfcc_hybrid *h, const tfcc_conv_geom *g) {
  if (!h || h->op != TFCC_HYB_DW) return tfcc_hybrid_kernel(h);
  if (dw_rows(h, g)) return "hybrid-dwconv-avx512vnni";
  return dw_fast(h, g) ? "hybrid-dwconv-vec" : "hybrid-dwconv";
}

/* ---- scratch: [int8 input][zp per group][scale per group][GEMM scratch] */

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

typedef struct hyb_scratch {
  int8_t *q;
  int32_t *zp;
  float *scale;
  void *gemm;
} hyb_scratch;

/* The GEMM's float output stage: one quantization group per row (zero points and scales
 * from the row quantizer), the packed weights' column sums and filter scales. */
static tfcc_q8_hybrid output_stage(const tfcc_hybrid *h, const hyb_scratch *s, float *out,
                                   size_t out_stride, const tfcc_tensor *bias, float lo, float hi) {
  return (tfcc_q8_hybrid){.c = out,
                          .c_stride = out_stride,
                          .zp = s->zp,
                          .scale = s->scale,
                          .rows_per_group = 1,
                          .wsum = h->wsum,
                          .wsumf = h->wsumf,
                          .fscale = h->fscale,
                          .fscale_stride = h->fscale_stride,
                          .bias = bias ? bias->data : NULL,
                          .lo = lo,
                          .hi = hi,
                          .combined = h->combined,
                          .row = h->row,
                          .tile = h->tile};
}

static size_t scratch_layout(size_t elems, size_t groups, size_t gemm, void *base, hyb_scratch *s) {
  const size_t a = align64(elems), b = align64(groups * sizeof(int32_t)),
               c = align64(groups * sizeof(float));
  if (base && s) {
    uint8_t *p = base;
    s->q = (int8_t *)p;
    s->zp = (int32_t *)(void *)(p + a);
    s->scale = (float *)(void *)(p + a + b);
    s->gemm = p + a + b + c;
  }
  return a + b + c + gemm;
}

/* The quantized activations of a GEMM op as the GEMM takes them (see hybrid_init): uint8
 * q + 128 and zero points + 128, in place. */
static void to_gemm_bytes(int8_t *q, size_t n, int32_t *zp, size_t groups) {
  uint8_t *u = (uint8_t *)q;
  for (size_t i = 0; i < n; i++) u[i] ^= 0x80u;
  for (size_t g = 0; g < groups; g++) zp[g] += 128;
}

/* ---- quantization of the input, groups of `len` floats, in parallel */

typedef struct quant_job {
  tfcc_hyb_scheme scheme;
  const tfcc_qz_kernel *qz;
  tfcc_hyb_minmax_fn mm;
  tfcc_hyb_round_fn rnd;
  tfcc_hyb_qd8_rows_fn qd8_rows;
  const float *x;
  size_t len, groups, per_task;
  hyb_scratch *s;
  bool gemm; /* store the GEMM's bytes (to_gemm_bytes) */
} quant_job;

static void quant_task(void *ctx, size_t t, int thread) {
  (void)thread;
  const quant_job *j = ctx;
  const size_t g0 = t * j->per_task;
  const size_t g1 = g0 + j->per_task < j->groups ? g0 + j->per_task : j->groups;
  if (j->scheme == TFCC_HYB_QD8 && j->qd8_rows) { /* + 128 in the same pass */
    j->qd8_rows(j->x + g0 * j->len, j->len, g1 - g0, j->s->q + g0 * j->len, &j->s->scale[g0],
                &j->s->zp[g0], j->gemm ? 128 : 0);
    return;
  }
  for (size_t g = g0; g < g1; g++)
    tfcc_hyb_quantize_vec(j->scheme, j->x + g * j->len, j->len, j->s->q + g * j->len,
                          &j->s->scale[g], &j->s->zp[g], j->qz, j->mm, j->rnd);
  if (j->gemm) to_gemm_bytes(j->s->q + g0 * j->len, (g1 - g0) * j->len, &j->s->zp[g0], g1 - g0);
}

/* gemm: as the GEMM takes them (to_gemm_bytes), else int8 q (the portable depthwise). */
static void quantize_input(tfcc_threadpool *pool, const tfcc_hybrid *h, const float *x, size_t len,
                           size_t groups, hyb_scratch *s, bool gemm) {
  quant_job j = {h->scheme, h->qz, h->minmax, h->rnd, h->qd8_rows, x, len, groups, 1, s, gemm};
  /* about 16 KiB of input per task */
  const size_t want = len >= 4096 ? 1 : 4096 / len;
  j.per_task = want;
  const size_t tasks = (groups + want - 1) / want;
  tfcc_threadpool_run(tasks > 1 ? pool : NULL, tasks, quant_task, &j);
}

/* One large group (an image) quantized by all threads: min/max of chunks, the parameters, then
 * the element on chunks; the same values as one thread (min/max is exact in any order, the
 * element is per value). qd8 into int8, or (the depthwise kernels' inputs) asym into int16
 * q - zp or int8 q. */
#define TFCC_HYB_IMG_CHUNK 16384u
#define TFCC_HYB_IMG_MAX_CHUNKS 64u

enum { IMG_QD8, IMG_ASYM16, IMG_ASYM8 }; /* qd8 int8, asym int16 q - zp, asym int8 q */

typedef struct image_job {
  const tfcc_hybrid *h;
  const float *x;
  size_t len, chunk;
  void *q;
  int mode;
  bool zero;
  float inv;
  int32_t zp;
  float lo[TFCC_HYB_IMG_MAX_CHUNKS], hi[TFCC_HYB_IMG_MAX_CHUNKS];
  bool nan[TFCC_HYB_IMG_MAX_CHUNKS]; /* qd8: the chunk holds a NaN (quantize.h) */
} image_job;

static void image_minmax_task(void *ctx, size_t t, int thread) {
  (void)thread;
  image_job *j = ctx;
  const size_t off = t * j->chunk, n = j->len - off < j->chunk ? j->len - off : j->chunk;
  j->h->minmax(j->x + off, n, &j->lo[t], &j->hi[t]);
  j->nan[t] = j->mode == IMG_QD8 && tfcc_hyb_any_nan(j->x + off, n);
}

static void image_element_task(void *ctx, size_t t, int thread) {
  (void)thread;
  const image_job *j = ctx;
  const size_t off = t * j->chunk, n = j->len - off < j->chunk ? j->len - off : j->chunk;
  const bool c16 = j->mode == IMG_ASYM16;
  void *q = c16 ? (void *)((int16_t *)j->q + off) : (void *)((int8_t *)j->q + off);
  if (j->mode == IMG_QD8)
    j->h->qz->quantize_xnn(j->x + off, (int8_t *)j->q + off, n, j->inv, j->zp, TFCC_INT8);
  else if (j->zero)
    memset(q, 0, n * (c16 ? sizeof(int16_t) : 1));
  else
    j->h->rnd(j->x + off, n, j->inv, j->zp, -128, 127, q, c16);
}

static void quantize_image(tfcc_threadpool *pool, const tfcc_hybrid *h, const float *x, size_t len,
                           void *q, int mode, float *scale, int32_t *zp) {
  size_t chunks = len / TFCC_HYB_IMG_CHUNK;
  if (chunks > TFCC_HYB_IMG_MAX_CHUNKS) chunks = TFCC_HYB_IMG_MAX_CHUNKS;
  const bool par = tfcc_threadpool_size(pool) > 1 && chunks >= 2 &&
                   (mode != IMG_QD8 || (h->qz && h->qz->quantize_xnn));
  if (!par) {
    if (mode == IMG_ASYM16)
      tfcc_hyb_quantize_asym_centered(x, len, q, scale, zp, h->minmax, h->rnd);
    else if (mode == IMG_ASYM8)
      tfcc_hyb_quantize_vec(TFCC_HYB_ASYM, x, len, q, scale, zp, h->qz, h->minmax, h->rnd);
    else
      h->qd8_rows(x, len, 1, q, scale, zp, 0);
    return;
  }
  image_job job = {h, x, len, 0, q, mode, false, 0.0f, 0, {0}, {0}, {0}}, *j = &job;
  j->chunk = ((len + chunks - 1) / chunks + 63) & ~(size_t)63;
  chunks = (len + j->chunk - 1) / j->chunk;
  tfcc_threadpool_run(pool, chunks, image_minmax_task, j);
  float lo = j->lo[0], hi = j->hi[0];
  for (size_t t = 1; t < chunks; t++) {
    lo = j->lo[t] < lo ? j->lo[t] : lo;
    hi = j->hi[t] > hi ? j->hi[t] : hi;
  }
  if (mode != IMG_QD8) {
    j->zero = !tfcc_hyb_asym_params(lo, hi, scale, zp);
    j->inv = 1.0f / *scale;
  } else {
    tfcc_hyb_qd8_params(lo, hi, &j->inv, zp, scale);
    for (size_t t = 0; t < chunks; t++)
      if (j->nan[t]) *scale = NAN; /* as LiteRT's qd8 (quantize.h) */
  }
  j->zp = *zp;
  tfcc_threadpool_run(pool, chunks, image_element_task, j);
}

/* ---- conv / depthwise */

/* XNNPACK runs a 1x1 stride-1 unpadded convolution as a fully connected node: one
 * quantization group per pixel. */
static bool conv_per_pixel(const tfcc_hybrid *h, const tfcc_conv_geom *g) {
  return h->xnn && h->op == TFCC_HYB_CONV && g->filter_h == 1 && g->filter_w == 1 &&
         g->stride_h == 1 && g->stride_w == 1 && g->pad_h == 0 && g->pad_w == 0 &&
         g->out_h == g->in_h && g->out_w == g->in_w && g->in_c == g->filter_in_c &&
         g->in_c + g->out_c > 2;
}

static tfcc_status check_float_io(tfcc_op_ctx *ctx, const char *name) {
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (ctx->in[0]->dtype != TFCC_FLOAT32 ||
      (ctx->in[1]->dtype != TFCC_INT8 && ctx->in[1]->dtype != TFCC_UINT8) ||
      ctx->out[0]->dtype != TFCC_FLOAT32 || (bias && bias->dtype != TFCC_FLOAT32))
    return tfcc_err_set(ctx->err, TFCC_ERR_DTYPE,
                        "%s hybrid: input %s, filter %s, output %s, expected float32 / int8 / "
                        "float32 (float32 bias)",
                        name, tfcc_dtype_name(ctx->in[0]->dtype),
                        tfcc_dtype_name(ctx->in[1]->dtype), tfcc_dtype_name(ctx->out[0]->dtype));
  return TFCC_OK;
}

/* The fast depthwise's input: every image's int16 q - zp, then (depth multiplier > 1) every
 * image expanded to out_c channels (tfcc_hyb_dwconv_expand), 64-byte aligned. */
static size_t dw_fast_bytes(const tfcc_conv_geom *g) {
  const size_t elems = (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  return align64(elems * sizeof(int16_t)) +
         (size_t)g->batches * tfcc_hyb_dwconv_expanded_elems(g) * sizeof(int16_t);
}

static size_t conv_scratch(const tfcc_op_ctx *ctx, const tfcc_hybrid *h, const tfcc_conv_geom *g,
                           void *base, hyb_scratch *s) {
  const size_t elems = (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  if (h->op == TFCC_HYB_DW && dw_rows(h, g)) /* int8 q, the row kernel's buffers */
    return scratch_layout(elems, (size_t)g->batches,
                          tfcc_q8_dw_scratch_bytes(&h->dwv, g, tfcc_threadpool_size(ctx->pool)),
                          base, s);
  if (h->op == TFCC_HYB_DW) /* int16 q - zp for the fast kernel (+ its expansion), else int8 */
    return scratch_layout(dw_fast(h, g) ? dw_fast_bytes(g) : elems, (size_t)g->batches, 0, base, s);
  if (conv_per_pixel(h, g))
    return scratch_layout(
        elems, (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w,
        tfcc_q8_hybrid_scratch_bytes(NULL, &h->packed, tfcc_threadpool_size(ctx->pool)), base, s);
  return scratch_layout(
      elems, (size_t)g->batches,
      tfcc_q8_hybrid_scratch_bytes(g, &h->packed, tfcc_threadpool_size(ctx->pool)), base, s);
}

/* A grouped CONV_2D whose filter init spread to every input channel: the geometry of that
 * dense convolution in *ge (when the input still has those channels), else g. */
static const tfcc_conv_geom *spread_geom(const tfcc_hybrid *h, const tfcc_conv_geom *g,
                                         tfcc_conv_geom *ge) {
  if (!h->dense_in_c || g->in_c != h->dense_in_c) return g;
  *ge = *g;
  ge->filter_in_c = g->in_c;
  return ge;
}

tfcc_status tfcc_hybrid_conv_prepare(tfcc_op_ctx *ctx, const tfcc_hybrid *h,
                                     const tfcc_conv_geom *g) {
  const char *name = op_name(h->op);
  tfcc_status st = check_float_io(ctx, name);
  if (st != TFCC_OK) return st;
  if (ctx->in[1]->data != h->src)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "%s hybrid: weights changed after load", name);
  tfcc_conv_geom ge;
  g = spread_geom(h, g, &ge);
  if (h->op == TFCC_HYB_CONV && (g->in_c != g->filter_in_c || g->out_c != h->n))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "CONV_2D hybrid: grouped convolution (%d input, %d filter channels) "
                        "unsupported in REFERENCE mode (TFLite's builtin hybrid kernel does "
                        "not compute it; TFLITE mode runs it as XNNPACK does)",
                        (int)g->in_c, (int)g->filter_in_c);
  if (h->op == TFCC_HYB_DW && g->out_c != h->n)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "DEPTHWISE_CONV_2D hybrid: %d channels, filter %d", (int)g->out_c,
                        (int)h->n);
  ctx->scratch_bytes = conv_scratch(ctx, h, g, NULL, NULL);
  return TFCC_OK;
}

typedef struct dw_job {
  const tfcc_hybrid *h;
  const tfcc_conv_geom *g;
  const tfcc_conv_geom *gk; /* fast: the kernel's geometry (the expanded input's) */
  const int16_t *xk;        /* fast: the kernel's input, every image */
  const hyb_scratch *s;
  const float *bias;
  float lo, hi;
  float *out;
  int32_t rows_per_task, tasks_per_image;
  bool fast;
} dw_job;

static void dw_task(void *ctx, size_t t, int thread) {
  (void)thread;
  const dw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const size_t b = t / (size_t)j->tasks_per_image;
  const int32_t oy0 = (int32_t)(t % (size_t)j->tasks_per_image) * j->rows_per_task;
  const int32_t oy1 = oy0 + j->rows_per_task < g->out_h ? oy0 + j->rows_per_task : g->out_h;
  const size_t in_img = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  const size_t out_img = (size_t)g->out_h * (size_t)g->out_w * (size_t)g->out_c;
  if (j->fast) {
    const tfcc_conv_geom *gk = j->gk;
    const size_t k_img = (size_t)gk->in_h * (size_t)gk->in_w * (size_t)gk->in_c;
    j->h->dw(gk, j->xk + b * k_img, j->s->scale[b], j->h->w32, j->h->fscale, j->h->fscale_stride,
             j->bias, j->lo, j->hi, j->out + b * out_img, oy0, oy1);
    return;
  }
  tfcc_hyb_dwconv_rows(g, j->s->q + b * in_img, j->s->zp[b], j->s->scale[b], j->h->w, j->h->fscale,
                       j->h->fscale_stride, j->bias, j->lo, j->hi, j->out + b * out_img, oy0, oy1);
}

tfcc_status tfcc_hybrid_conv_eval(tfcc_op_ctx *ctx, const tfcc_hybrid *h, const tfcc_conv_geom *g) {
  tfcc_conv_geom ge;
  g = spread_geom(h, g, &ge);
  hyb_scratch s;
  const size_t need = conv_scratch(ctx, h, g, ctx->scratch, &s);
  if (!ctx->scratch || ctx->scratch_bytes < need)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "%s hybrid: scratch %zu bytes, need %zu",
                        op_name(h->op), ctx->scratch_bytes, need);
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  float lo, hi;
  tfcc_act_range_f32(h->act, &lo, &hi);
  const float *x = ctx->in[0]->data;
  float *out = ctx->out[0]->data;
  const size_t img = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  if (g->batches == 0 || g->out_h == 0 || g->out_w == 0) return TFCC_OK;
  if (img == 0) {
    /* no input values: every accumulator is 0 */
    const size_t n = (size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w;
    for (size_t i = 0; i < n; i++)
      for (int32_t c = 0; c < g->out_c; c++) {
        float v = bias ? ((const float *)bias->data)[c] : 0.0f;
        out[i * (size_t)g->out_c + (size_t)c] = v < lo ? lo : v > hi ? hi : v;
      }
    return TFCC_OK;
  }
  if (h->op == TFCC_HYB_DW && dw_rows(h, g)) {
    tfcc_conv_geom g1 = *g;
    g1.batches = 1;
    const size_t out_img = (size_t)g->out_h * (size_t)g->out_w * (size_t)g->out_c;
    for (int32_t b = 0; b < g->batches; b++) {
      int8_t *q = s.q + (size_t)b * img;
      quantize_image(ctx->pool, h, x + (size_t)b * img, img, q, IMG_ASYM8, &s.scale[b], &s.zp[b]);
      const tfcc_q8_dw_hyb hy = {s.scale[b], h->fscale, h->fscale_stride, bias ? bias->data : NULL,
                                 lo,         hi,        s.zp[b]};
      tfcc_q8_dwconv_hybrid(ctx->pool, &g1, &h->dwv, &hy, q, out + (size_t)b * out_img, s.gemm);
    }
    return TFCC_OK;
  }
  if (h->op == TFCC_HYB_DW) {
    const bool fast = dw_fast(h, g);
    const tfcc_conv_geom gk = tfcc_hyb_dwconv_expanded_geom(g);
    int16_t *q16 = (int16_t *)(void *)s.q, *xk = q16;
    if (fast) {
      for (int32_t b = 0; b < g->batches; b++)
        quantize_image(ctx->pool, h, x + (size_t)b * img, img, q16 + (size_t)b * img, IMG_ASYM16,
                       &s.scale[b], &s.zp[b]);
      const size_t ex = tfcc_hyb_dwconv_expanded_elems(g);
      if (ex) { /* depth multiplier > 1: one input channel per output channel */
        xk = (int16_t *)(void *)(s.q + align64((size_t)g->batches * img * sizeof(int16_t)));
        for (int32_t b = 0; b < g->batches; b++)
          tfcc_hyb_dwconv_expand(ctx->pool, g, q16 + (size_t)b * img, xk + (size_t)b * ex);
      }
    } else {
      quantize_input(ctx->pool, h, x, img, (size_t)g->batches, &s, false);
    }
    dw_job j = {h, g, &gk, xk, &s, bias ? bias->data : NULL, lo, hi, out, 1, 0, fast};
    j.rows_per_task = g->out_h >= 32 ? 4 : 1;
    j.tasks_per_image = (g->out_h + j.rows_per_task - 1) / j.rows_per_task;
    tfcc_threadpool_run(ctx->pool, (size_t)g->batches * (size_t)j.tasks_per_image, dw_task, &j);
    return TFCC_OK;
  }
  const tfcc_q8_hybrid hy = output_stage(h, &s, out, (size_t)g->out_c, bias, lo, hi);
  if (conv_per_pixel(h, g)) {
    const size_t rows = (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w;
    quantize_input(ctx->pool, h, x, (size_t)g->in_c, rows, &s, true);
    tfcc_q8_gemm_hybrid(ctx->pool, &h->packed, &hy, (int32_t)rows, s.q, (size_t)g->in_c, s.gemm);
    return TFCC_OK;
  }
  if (h->scheme == TFCC_HYB_QD8) {
    for (int32_t b = 0; b < g->batches; b++)
      quantize_image(ctx->pool, h, x + (size_t)b * img, img, s.q + (size_t)b * img, IMG_QD8,
                     &s.scale[b], &s.zp[b]);
    to_gemm_bytes(s.q, (size_t)g->batches * img, s.zp, (size_t)g->batches);
  } else {
    quantize_input(ctx->pool, h, x, img, (size_t)g->batches, &s, true);
  }
  tfcc_q8_conv_hybrid(ctx->pool, g, &h->packed, &hy, s.q, s.gemm);
  return TFCC_OK;
}

/* ---- fully connected */

static size_t fc_scratch(const tfcc_op_ctx *ctx, const tfcc_hybrid *h, int32_t rows, int32_t accum,
                         void *base, hyb_scratch *s) {
  return scratch_layout(
      (size_t)rows * (size_t)accum, (size_t)rows,
      tfcc_q8_hybrid_scratch_bytes(NULL, &h->packed, tfcc_threadpool_size(ctx->pool)), base, s);
}

tfcc_status tfcc_hybrid_fc_prepare(tfcc_op_ctx *ctx, const tfcc_hybrid *h, int32_t rows,
                                   int32_t units, int32_t accum) {
  const char *name = op_name(h->op);
  tfcc_status st = check_float_io(ctx, name);
  if (st != TFCC_OK) return st;
  if (ctx->in[1]->data != h->src)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "%s hybrid: weights changed after load", name);
  if (units != h->n || accum != h->kdim)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s hybrid: weights %dx%d, packed %dx%d", name,
                        (int)units, (int)accum, (int)h->n, (int)h->kdim);
  ctx->scratch_bytes = fc_scratch(ctx, h, rows, accum, NULL, NULL);
  return TFCC_OK;
}

tfcc_status tfcc_hybrid_fc_eval(tfcc_op_ctx *ctx, const tfcc_hybrid *h, int32_t rows, int32_t units,
                                int32_t accum) {
  return tfcc_hybrid_fc_eval_at(ctx, h, ctx->in[0]->data, ctx->out[0]->data, rows, units, accum);
}

tfcc_status tfcc_hybrid_fc_eval_at(tfcc_op_ctx *ctx, const tfcc_hybrid *h, const float *x,
                                   float *out, int32_t rows, int32_t units, int32_t accum) {
  hyb_scratch s;
  const size_t need = fc_scratch(ctx, h, rows, accum, ctx->scratch, &s);
  if (!ctx->scratch || ctx->scratch_bytes < need)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE,
                        "FULLY_CONNECTED hybrid: scratch %zu bytes, need %zu", ctx->scratch_bytes,
                        need);
  const tfcc_tensor *bias = ctx->n_in > 2 ? ctx->in[2] : NULL;
  float lo, hi;
  tfcc_act_range_f32(h->act, &lo, &hi);
  if (rows <= 0 || units <= 0) return TFCC_OK;
  if (accum <= 0) {
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < units; c++) {
        float v = bias ? ((const float *)bias->data)[c] : 0.0f;
        out[(size_t)r * (size_t)units + (size_t)c] = v < lo ? lo : v > hi ? hi : v;
      }
    return TFCC_OK;
  }
  quantize_input(ctx->pool, h, x, (size_t)accum, (size_t)rows, &s, true);
  const tfcc_q8_hybrid hy = output_stage(h, &s, out, (size_t)units, bias, lo, hi);
  tfcc_q8_gemm_hybrid(ctx->pool, &h->packed, &hy, rows, s.q, (size_t)accum, s.gemm);
  return TFCC_OK;
}
