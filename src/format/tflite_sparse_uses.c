/* TFLite loader: who may read a sparse constant (SparsityParameters). DENSIFY reads the stored
 * values as such; FULLY_CONNECTED reads sparse weights itself in the layouts TFLite's kernel
 * takes, and computes the FULLY_CONNECTED of the dense weights: those are expanded here, once,
 * into graph memory (charged to the load budget), so the operator and its packing see plain
 * constant weights. Any other reader is refused. */
#include <stdio.h>

#include "format/tflite_read_ctx.h"
#include "kernels/ref/densify.h"

/* NULL when FULLY_CONNECTED (input `in`) takes sparse weights w as TFLite's kernel does
 * (fully_connected.cc: levels dense then CSR, in traversal order, and either random sparse,
 * float32, or 1 x block blocks along dimension 1: float32 1x4, int8 1x16 with symmetric
 * weights and an int8 input, or (hybrid) a float32 input and one weight scale: the sparse
 * hybrid kernel multiplies by the tensor's single scale, which per-channel tensors lack);
 * else what it lacks. */
static const char *fc_sparse_layout_refused(const tfcc_ir_tensor *w, const tfcc_ir_tensor *in) {
  const tfcc_sparsity *sp = w->sparsity;
  if (w->rank != 2) return "weights of rank other than 2";
  if (sp->n_dim_meta < 2 || sp->dim_meta[0].format != 0 || sp->dim_meta[1].format != 1)
    return "levels other than dense then CSR";
  for (int32_t i = 0; i < sp->n_traversal; i++)
    if (sp->traversal_order[i] != i) return "a traversal order other than 0, 1, ...";
  const bool hybrid = in->dtype == TFCC_FLOAT32 && w->dtype != TFCC_FLOAT32;
  if (hybrid && w->dtype != TFCC_INT8) return "float input with sparse weights other than int8";
  if (hybrid && w->quant.count != 1)
    return "hybrid (float input) weights with other than one scale (TFLite's sparse hybrid "
           "kernel reads the tensor's single scale)";
  if (sp->n_dim_meta == 2) /* random sparse: float32 only */
    return w->dtype == TFCC_FLOAT32 ? NULL : "random (unblocked) sparsity of non-float32 weights";
  const int32_t block = sp->dim_meta[2].dense_size;
  if (sp->n_dim_meta != 3 || sp->n_block_map != 1 || sp->block_map[0] != 1)
    return "blocks other than 1 x N along dimension 1";
  if (w->dtype == TFCC_FLOAT32) return block == 4 ? NULL : "float32 blocks other than 1x4";
  if (w->dtype != TFCC_INT8 || (in->dtype != TFCC_INT8 && !hybrid))
    return "weights other than float32 or int8";
  if (block != 16) return "int8 blocks other than 1x16";
  for (int32_t c = 0; c < w->quant.count; c++)
    if (w->quant.zero_point[c] != 0) return "int8 weights with a nonzero zero point";
  return NULL;
}

/* Replaces sparse tensor ti's encoding by its dense form (read by FULLY_CONNECTED only). */
static tfcc_status densify_fc_weights(tfl_ctx *c, tfcc_ir_tensor *w, int32_t ti) {
  const int64_t n = tfcc_shape_elements(w->rank, w->dims);
  const size_t es = tfcc_dtype_size(w->dtype);
  const int64_t stored = (int64_t)(w->data_bytes / es);
  void *dense = NULL;
  char what[160];
  snprintf(what, sizeof what, "tensor %d (%s): dense FULLY_CONNECTED weights", (int)ti, w->name);
  /* read_sparsity charged this dense form (what DENSIFY would make of it); charged once
   * (review61: a 2,832-byte file with 1 MiB of dense weights was refused, charged twice) */
  tfcc_status st = tfl_alloc_charged(c, (size_t)n, es, 16, &dense, what);
  if (st != TFCC_OK) return st; /* `what` names the tensor */
  st = tfcc_ref_densify(w->sparsity, w->rank, w->dims, w->data, stored, es, dense, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "tensor %d (%s)", (int)ti, w->name);
  /* the stored values are read no more (review62: the runtime gives their pages back, unless
   * another tensor reads the same bytes; the index vectors, which another tensor's sparsity
   * may share, stay) */
  if ((st = tfl_note_copied(c, w->data, w->data_bytes)) != TFCC_OK) return st;
  w->data = dense;
  w->data_bytes = (size_t)n * es;
  w->sparsity = NULL;
  w->from_sparse = true;
  return TFCC_OK;
}

/* Each sparse tensor's readers, one pass over the operators: reads[ti] |= 1 for DENSIFY's input,
 * 2 for FULLY_CONNECTED's weights in a layout it takes; any other reader is an error naming it. */
static tfcc_status sparse_readers(tfl_ctx *c, int32_t si, const tfcc_ir_subgraph *sg,
                                  uint8_t *reads) {
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *node = &sg->nodes[i];
    const char *name = node->custom_code ? node->custom_code : tfcc_builtin_name(node->builtin);
    for (int32_t k = 0; k < node->n_inputs; k++) {
      const int32_t ti = node->inputs[k];
      if (ti < 0 || !sg->tensors[ti].sparsity) continue;
      const bool densify = node->builtin == TFCC_OP_DENSIFY && !node->custom_code && k == 0;
      const bool fc = node->builtin == TFCC_OP_FULLY_CONNECTED && !node->custom_code && k == 1;
      if (!densify && !fc)
        return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                            "subgraph %d: operator %d (%s): input %d is sparse tensor %d (%s); "
                            "only DENSIFY and FULLY_CONNECTED's weights read sparse tensors",
                            (int)si, (int)i, name, (int)k, (int)ti, sg->tensors[ti].name);
      const char *why = NULL;
      if (fc && node->inputs[0] < 0) why = "no input tensor";
      if (fc && !why)
        why = fc_sparse_layout_refused(&sg->tensors[ti], &sg->tensors[node->inputs[0]]);
      if (fc && !why && !sg->tensors[ti].data) why = "no constant data";
      if (why)
        return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                            "subgraph %d: operator %d (FULLY_CONNECTED): sparse weights tensor %d "
                            "(%s) have %s; TFLite's kernel takes random sparse float32, 1x4 "
                            "float32 or 1x16 int8 blocks (int8 or float32 input)",
                            (int)si, (int)i, (int)ti, sg->tensors[ti].name, why);
      reads[ti] |= fc ? 2 : 1;
    }
  }
  return TFCC_OK;
}

tfcc_status tfl_resolve_sparse_uses(tfl_ctx *c, int32_t si, tfcc_ir_subgraph *sg) {
  for (int32_t k = 0; k < sg->n_outputs; k++) {
    const int32_t ti = sg->outputs[k];
    if (ti >= 0 && sg->tensors[ti].sparsity)
      return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                          "subgraph %d: output %d is sparse tensor %d (%s); only DENSIFY and "
                          "FULLY_CONNECTED's weights read sparse tensors",
                          (int)si, (int)k, (int)ti, sg->tensors[ti].name);
  }
  bool any = false;
  for (int32_t ti = 0; ti < sg->n_tensors && !any; ti++) any = sg->tensors[ti].sparsity != NULL;
  if (!any) return TFCC_OK;
  uint8_t *reads = NULL;
  tfcc_status st = tfl_alloc(c, (size_t)sg->n_tensors, 1, 1, (void **)&reads, "sparse readers");
  if (st == TFCC_OK) st = sparse_readers(c, si, sg, reads);
  for (int32_t ti = 0; st == TFCC_OK && ti < sg->n_tensors; ti++) {
    if (reads[ti] == 3)
      return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                          "subgraph %d: sparse tensor %d (%s) is read by both DENSIFY and "
                          "FULLY_CONNECTED",
                          (int)si, (int)ti, sg->tensors[ti].name);
    if (reads[ti] == 2) st = densify_fc_weights(c, &sg->tensors[ti], ti);
  }
  return st;
}
