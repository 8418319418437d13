/* The graph passes (one per file) and the helpers they share. See docs/passes.md. */
#ifndef TFCC_GRAPH_PASSES_PASSES_H
#define TFCC_GRAPH_PASSES_PASSES_H

#include <stdbool.h>

#include "passes/pass_manager.h"

tfcc_status tfcc_pass_fold_constants(tfcc_pass_ctx *ctx, int32_t *changed);
tfcc_status tfcc_pass_drop_noops(tfcc_pass_ctx *ctx, int32_t *changed);
tfcc_status tfcc_pass_fold_batch_norm(tfcc_pass_ctx *ctx, int32_t *changed);
tfcc_status tfcc_pass_fuse_pad(tfcc_pass_ctx *ctx, int32_t *changed);
tfcc_status tfcc_pass_fuse_activation(tfcc_pass_ctx *ctx, int32_t *changed);
tfcc_status tfcc_pass_fuse_expand_dwconv(tfcc_pass_ctx *ctx, int32_t *changed);
tfcc_status tfcc_pass_fuse_residual_add(tfcc_pass_ctx *ctx, int32_t *changed);

/* ---- helpers (pass_util.c) */

/* Number of input slots of live (not removed) nodes that read tensor t; *only = the consuming
 * node when there is exactly one slot (else -1). */
int32_t tfcc_pass_consumers(const tfcc_ir_subgraph *sg, int32_t t, int32_t *only);
/* The live node that writes t, or -1. */
int32_t tfcc_pass_producer(const tfcc_ir_subgraph *sg, int32_t t);
bool tfcc_pass_is_graph_output(const tfcc_ir_subgraph *sg, int32_t t);
bool tfcc_pass_is_graph_input(const tfcc_ir_subgraph *sg, int32_t t);
/* Same quantization (count, axis, scales, zero points); both unquantized counts as same. */
bool tfcc_pass_same_quant(const tfcc_quant *a, const tfcc_quant *b);
/* Makes every live node that reads `from` read `to` instead. */
void tfcc_pass_replace_input(tfcc_ir_subgraph *sg, int32_t from, int32_t to);
/* The node's fused activation (from its options), or -1 if the passes leave the op's alone. */
int32_t tfcc_pass_activation(const tfcc_ir_node *n);
/* Sets the fused activation in the node's options (where tfcc_pass_activation is >= 0). */
void tfcc_pass_set_activation(tfcc_ir_node *n, int32_t act);
/* True if tensor t is a plain constant (data, not variable, not sparse) of dtype dt. */
bool tfcc_pass_is_const(const tfcc_ir_subgraph *sg, int32_t t, tfcc_dtype dt);
/* True if every graph input has a shape signature without dynamic (-1) dimensions: then
 * tfcc_session_resize_input cannot change any shape and stored shapes are the run shapes. */
bool tfcc_pass_static_shapes(const tfcc_ir_subgraph *sg);

#endif
