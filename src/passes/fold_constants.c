/* Pass fold_constants (TFCC_PASS_FOLD_CONSTANTS): a node whose inputs are all constants is
 * computed once at load (its operator initialised here), its outputs become constants of the
 * model (shared by every session) and the node is removed. This folds float16-weight
 * DEQUANTIZE, DENSIFY of sparse weights and constant shape arithmetic, so run() never repeats
 * that work and later passes see plain float32 weights. Such outputs are marked `folded`
 * (TFLite computes them at run time, which some operators' choice of kernel follows). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op.h"
#include "ops/work_estimate.h"
#include "passes/passes.h"

#define TFCC_FOLD_ALIGN 64

/* Bytes of constants computed at load, at most: 4 x the file (float16 or int8 weights
 * dequantized to float32, densified sparse weights) plus 16 MiB. Past it a node is left to run
 * at run time, as TFLite runs it, under the run's deadline: a small hostile file must not make
 * the load compute (and keep) gigabytes (fuzz_model_run: an 880-byte model folding a
 * STABLEHLO_RNG_BIT_GENERATOR into 335 MB, a CAST of a FILL taking minutes). */
static size_t fold_budget(const tfcc_graph *g) {
  const size_t extra = (size_t)16 << 20;
  return g->file_size > (SIZE_MAX - extra) / 4 ? SIZE_MAX : 4 * g->file_size + extra;
}

static bool foldable(const tfcc_ir_subgraph *sg, const tfcc_ir_node *n) {
  if (!n->op || n->removed || n->n_outputs == 0 || n->n_intermediates > 0) return false;
  if (n->op->state_bytes || n->op->stateful)
    return false; /* per-session state (RANDOM_*), variables, subgraph calls */
  bool any_input = false;
  for (int32_t k = 0; k < n->n_inputs; k++) {
    int32_t t = n->inputs[k];
    if (t < 0) continue;
    const tfcc_ir_tensor *it = &sg->tensors[t];
    if (!it->data || it->is_variable) return false;
    any_input = true;
  }
  if (!any_input) return false;
  for (int32_t k = 0; k < n->n_outputs; k++) {
    int32_t t = n->outputs[k];
    if (t < 0 || sg->tensors[t].data || sg->tensors[t].is_variable) return false;
    for (int32_t i = 0; i < sg->n_inputs; i++)
      if (sg->inputs[i] == t) return false;
  }
  return true;
}

tfcc_status tfcc_pass_fold_constants(tfcc_pass_ctx *ctx, int32_t *changed) {
  tfcc_ir_subgraph *sg = ctx->sg;
  tfcc_err *err = ctx->err;
  for (int32_t ni = 0; ni < sg->n_nodes; ni++) {
    tfcc_ir_node *n = &sg->nodes[ni];
    if (!foldable(sg, n)) continue;
    tfcc_tensor views_in[16], views_out[8];
    tfcc_tensor *pin[16], *pout[8];
    if (n->n_inputs > 16 || n->n_outputs > 8) continue;
    if (n->op->init && !n->params) {
      tfcc_init_ctx ic = {.graph = ctx->graph,
                          .sg = sg,
                          .node = n,
                          .node_index = ni,
                          .err = err,
                          .isa = ctx->isa,
                          .ks = tfcc_kernel_set_for(ctx->isa),
                          .log = ctx->log,
                          .quant_compat = ctx->quant_compat};
      tfcc_status ist = n->op->init(&ic);
      n->params = ic.params;
      if (ist != TFCC_OK)
        return tfcc_err_prefix(err, "node %d (%s)", (int)ni, tfcc_node_op_name(n));
    }
    memset(views_in, 0, sizeof views_in);
    memset(views_out, 0, sizeof views_out);
    for (int32_t k = 0; k < n->n_inputs; k++) {
      pin[k] = NULL;
      if (n->inputs[k] < 0) continue;
      const tfcc_ir_tensor *it = &sg->tensors[n->inputs[k]];
      tfcc_tensor *v = &views_in[k];
      v->dtype = it->dtype;
      v->rank = it->rank;
      memcpy(v->dims, it->dims, sizeof v->dims);
      v->data = (void *)it->data;
      v->bytes = it->data_bytes;
      v->quant = &it->quant;
      v->is_const = v->known = true;
      v->index = n->inputs[k];
      pin[k] = v;
    }
    for (int32_t k = 0; k < n->n_outputs; k++) {
      const tfcc_ir_tensor *it = &sg->tensors[n->outputs[k]];
      tfcc_tensor *v = &views_out[k];
      v->dtype = it->dtype;
      v->rank = it->rank;
      memcpy(v->dims, it->dims, sizeof v->dims);
      v->quant = &it->quant;
      v->index = n->outputs[k];
      pout[k] = v;
    }
    tfcc_op_ctx c = {0};
    c.node = n;
    c.node_index = ni;
    c.params = n->params;
    c.in = pin;
    c.n_in = n->n_inputs;
    c.out = pout;
    c.n_out = n->n_outputs;
    c.err = err;
    c.isa = ctx->isa;
    c.ks = tfcc_kernel_set_for(ctx->isa);
    /* no log: a folded node never runs, so its KERNEL_FALLBACK note would be noise (a per-axis
       DEQUANTIZE of constant weights in QAT files, sweep63c); a node left unfolded notes it when
       its session prepares it. */
    c.log = NULL;
    tfcc_status st = n->op->prepare(&c);
    if (st != TFCC_OK && c.needs_data) { /* output shapes set while running (a custom operator's
                                            dynamic outputs): not folded, sized in each run */
      tfcc_err_clear(err);
      continue;
    }
    if (st != TFCC_OK) return tfcc_err_prefix(err, "node %d (%s)", (int)ni, tfcc_node_op_name(n));
    size_t out_bytes = 0;
    for (int32_t k = 0; k < n->n_outputs; k++) {
      if ((st = tfcc_tensor_update_bytes(pout[k], err)) != TFCC_OK)
        return tfcc_err_prefix(err, "node %d (%s)", (int)ni, tfcc_node_op_name(n));
      out_bytes = pout[k]->bytes > SIZE_MAX - out_bytes ? SIZE_MAX : out_bytes + pout[k]->bytes;
    }
    const size_t budget = fold_budget(ctx->graph);
    if (out_bytes > budget || ctx->graph->folded_bytes > budget - out_bytes) continue;
    /* nor quadratic work or large scratch (ops/work_estimate.h): left to the run */
    if (c.scratch_bytes > TFCC_FOLD_MAX_SCRATCH ||
        (n->op->macs && n->op->macs(&c) > TFCC_FOLD_MAX_WORK))
      continue;
    ctx->graph->folded_bytes += out_bytes;
    for (int32_t k = 0; k < n->n_outputs; k++) {
      pout[k]->data = tfcc_graph_alloc(ctx->graph, pout[k]->bytes, TFCC_FOLD_ALIGN);
      if (!pout[k]->data)
        return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "node %d: out of memory folding %zu bytes",
                            (int)ni, pout[k]->bytes);
    }
    /* 0 bytes: a defined address (a kernel may memset its 0 bytes; fuzz52's runtime fix) */
    static _Alignas(TFCC_FOLD_ALIGN) uint8_t no_scratch[TFCC_FOLD_ALIGN];
    void *scratch = NULL;
    if (c.scratch_bytes) {
      scratch = aligned_alloc(TFCC_FOLD_ALIGN, (c.scratch_bytes + TFCC_FOLD_ALIGN - 1) /
                                                   TFCC_FOLD_ALIGN * TFCC_FOLD_ALIGN);
      if (!scratch)
        return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "node %d: out of memory for scratch", (int)ni);
    }
    c.scratch = scratch ? scratch : no_scratch;
    st = n->op->eval(&c);
    free(scratch);
    if (st != TFCC_OK)
      return tfcc_err_prefix(err, "node %d (%s) folding constants", (int)ni, tfcc_node_op_name(n));
    for (int32_t k = 0; k < n->n_outputs; k++) {
      tfcc_ir_tensor *it = &sg->tensors[n->outputs[k]];
      it->data = pout[k]->data;
      it->data_bytes = pout[k]->bytes;
      it->folded = true;
      it->fold_node = ni;
      it->rank = pout[k]->rank;
      memcpy(it->dims, pout[k]->dims, sizeof it->dims);
    }
    n->removed = true;
    (*changed)++;
  }
  return TFCC_OK;
}
