/* Graph passes at model load: the fixed list, run in order, each switchable off with its
 * TFCC_PASS_* bit in tfcc_model_options.disabled_passes (docs/passes.md). */
#ifndef TFCC_GRAPH_PASS_MANAGER_H
#define TFCC_GRAPH_PASS_MANAGER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/log.h"
#include "ir/ir.h"

/* What a pass works on. Passes run after operators are bound (node->op) and before their
 * init, except that the constant folder initialises the nodes it computes. */
typedef struct tfcc_pass_ctx {
  tfcc_graph *graph;
  tfcc_ir_subgraph *sg;
  tfcc_isa isa; /* for the kernels the constant folder runs */
  tfcc_err *err;
  const tfcc_logger *log;  /* may be NULL */
  int quant_compat;        /* tfcc_quant_compat, for the operators the constant folder inits */
  bool shapes_from_caller; /* sg is run by an operator (WHILE body, IF branch, ...): its input
                              shapes are the caller's at run time, not the stored ones */
} tfcc_pass_ctx;

/* A pass rewrites ctx->sg and counts the rewrites in *changed. */
typedef tfcc_status (*tfcc_pass_fn)(tfcc_pass_ctx *ctx, int32_t *changed);

typedef struct tfcc_pass_info {
  const char *name; /* "fuse_activation" */
  uint32_t bit;     /* TFCC_PASS_* */
  tfcc_pass_fn run;
} tfcc_pass_info;

/* The passes in the order they run. */
const tfcc_pass_info *tfcc_pass_list(int32_t *count);

/* Runs every pass not in `disabled` on every subgraph; logs (debug) what each changed. */
tfcc_status tfcc_run_passes(tfcc_graph *g, uint32_t disabled, tfcc_isa isa, const tfcc_logger *log,
                            int quant_compat, tfcc_err *err);

#endif
