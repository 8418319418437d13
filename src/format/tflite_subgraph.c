/* TFLite loader: one subgraph (tensors, inputs/outputs, operators, name) and its dataflow. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/fb_verify.h"
#include "format/tflite_custom_options.h"
#include "format/tflite_options.h"
#include "format/tflite_read_ctx.h"
#include "format/tflite_schema.h"

/* Reads an [int] tensor-index vector: every entry must be a tensor of the subgraph, or -1
 * where allow_optional. */
static tfcc_status read_indices(tfl_ctx *c, const tfcc_fb_table *t, int field, int32_t n_tensors,
                                bool allow_optional, int32_t *count, int32_t **out,
                                const char *what) {
  tfcc_fb_vec v;
  tfcc_status st = tfcc_fbv_vector(t, field, 4, &v, NULL, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "%s", what);
  st = tfl_alloc(c, v.count, sizeof(int32_t), 4, (void **)out, what);
  if (st != TFCC_OK) return st;
  *count = (int32_t)v.count; /* v.count * 4 fits in the file (< 2^31) */
  for (uint32_t i = 0; i < v.count; i++) {
    int32_t idx = tfcc_fb_vec_i32(&v, i);
    if (idx == -1 && allow_optional) {
      (*out)[i] = -1;
      continue;
    }
    if (idx < 0 || idx >= n_tensors)
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "%s %u refers to tensor %d of %d", what,
                          i, (int)idx, (int)n_tensors);
    (*out)[i] = idx;
  }
  return TFCC_OK;
}

/* Bytes stored outside the FlatBuffer (large models): [offset, offset + size) of the file.
 * Offsets 0 and 1 mean "not used", as for buffers. */
static tfcc_status external_bytes(tfl_ctx *c, uint64_t off, uint64_t size, const uint8_t **p,
                                  size_t *n) {
  if (off > c->size || size > c->size - off)
    return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                        "large custom options at offset %llu size %llu past end of file "
                        "(size %zu)",
                        (unsigned long long)off, (unsigned long long)size, c->size);
  *p = c->file + off;
  *n = (size_t)size;
  return TFCC_OK;
}

tfcc_status tfl_read_operator(tfl_ctx *c, const tfcc_fb_table *t, int32_t ni, int32_t n_tensors,
                              tfcc_ir_node *node) {
  uint32_t opcode;
  tfcc_status st = tfcc_fbv_u32(t, TFL_OP_OPCODE_INDEX, 0, &opcode, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "operator %d", (int)ni);
  if (opcode >= c->n_opcodes)
    return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                        "operator %d: opcode index %u out of range (%u operator codes)", (int)ni,
                        opcode, c->n_opcodes);
  const tfl_opcode *oc = &c->opcodes[opcode];
  node->builtin = oc->builtin;
  node->version = oc->version;
  node->custom_code = oc->custom_code;
  const char *name = oc->custom_code ? oc->custom_code : tfcc_builtin_name(oc->builtin);
  char what[96];
  snprintf(what, sizeof what, "operator %d (%s): input", (int)ni, name);
  st = read_indices(c, t, TFL_OP_INPUTS, n_tensors, true, &node->n_inputs, &node->inputs, what);
  if (st != TFCC_OK) return st;
  snprintf(what, sizeof what, "operator %d (%s): output", (int)ni, name);
  st = read_indices(c, t, TFL_OP_OUTPUTS, n_tensors, false, &node->n_outputs, &node->outputs, what);
  if (st != TFCC_OK) return st;
  snprintf(what, sizeof what, "operator %d (%s): intermediate", (int)ni, name);
  st = read_indices(c, t, TFL_OP_INTERMEDIATES, n_tensors, true, &node->n_intermediates,
                    &node->intermediates, what);
  if (st != TFCC_OK) return st;

  tfcc_fb_vec custom, mutating;
  tfcc_fb_table options, options2;
  bool has_custom;
  uint64_t large_off, large_size;
  if ((st = tfcc_fbv_u8(t, TFL_OP_BUILTIN_OPTIONS_TYPE, 0, &node->options_type, c->err)) !=
          TFCC_OK ||
      (st = tfcc_fbv_subtable(t, TFL_OP_BUILTIN_OPTIONS, &options, c->err)) != TFCC_OK ||
      (st = tfcc_fbv_u8(t, TFL_OP_BUILTIN_OPTIONS_2_TYPE, 0, &node->options2_type, c->err)) !=
          TFCC_OK ||
      (st = tfcc_fbv_subtable(t, TFL_OP_BUILTIN_OPTIONS_2, &options2, c->err)) != TFCC_OK ||
      (st = tfcc_fbv_vector(t, TFL_OP_CUSTOM_OPTIONS, 1, &custom, &has_custom, c->err)) !=
          TFCC_OK ||
      (st = tfcc_fbv_vector(t, TFL_OP_MUTATING_VARIABLE_INPUTS, 1, &mutating, NULL, c->err)) !=
          TFCC_OK ||
      (st = tfcc_fbv_u64(t, TFL_OP_LARGE_CUSTOM_OPTIONS_OFFSET, 0, &large_off, c->err)) !=
          TFCC_OK ||
      (st = tfcc_fbv_u64(t, TFL_OP_LARGE_CUSTOM_OPTIONS_SIZE, 0, &large_size, c->err)) != TFCC_OK)
    return tfcc_err_prefix(c->err, "operator %d (%s)", (int)ni, name);
  /* A union value without its type (or a type without a value) reads as "no options", as
   * TFLite's builtin_options_as_X() does. */
  if (node->options_type == 0) memset(&options, 0, sizeof options);
  if (!options.buf) node->options_type = 0;
  if (node->options2_type == 0) memset(&options2, 0, sizeof options2);
  if (!options2.buf) node->options2_type = 0;
  st = tfl_read_options(node->builtin, node->options_type, &options, &node->opts, c->err);
  if (st == TFCC_OK)
    st = tfl_read_options2(node->builtin, node->options2_type, &options2, &node->opts, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "operator %d (%s)", (int)ni, name);
  if (large_off > 1) {
    st = external_bytes(c, large_off, large_size, &node->custom_options, &node->custom_options_len);
    if (st != TFCC_OK) return tfcc_err_prefix(c->err, "operator %d (%s)", (int)ni, name);
  } else if (has_custom) {
    node->custom_options = custom.data;
    node->custom_options_len = custom.count;
  }
  if (node->builtin == TFCC_OP_CUSTOM) {
    st = tfl_read_custom_options(node->custom_code, node->custom_options, node->custom_options_len,
                                 &node->opts, c->err);
    if (st != TFCC_OK) return tfcc_err_prefix(c->err, "operator %d (%s)", (int)ni, name);
  }
  return TFCC_OK;
}

/* FULLY_CONNECTED with int4 / int2 weights: TFLite's Prepare refuses any non-zero weights zero
 * point ("Unsupported filter quantization zero-point value."). The loader unpacks such weights
 * to int8, after which the operator cannot tell them from int8 ones, so the file's tensor type
 * is read again here. */
static tfcc_status check_packed_fc_weights(tfl_ctx *c, const tfcc_fb_table *t,
                                           const tfcc_fb_vec *tensors, int32_t si,
                                           const tfcc_ir_subgraph *sg) {
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *node = &sg->nodes[i];
    if (node->builtin != TFCC_OP_FULLY_CONNECTED || node->n_inputs < 2 || node->inputs[1] < 0)
      continue;
    const int32_t wi = node->inputs[1];
    tfcc_fb_table tt;
    int8_t type;
    tfcc_status st = tfcc_fbv_vec_table(t, tensors, (uint32_t)wi, &tt, c->err);
    if (st == TFCC_OK) st = tfcc_fbv_i8(&tt, TFL_TENSOR_TYPE, 0, &type, c->err);
    if (st != TFCC_OK) return tfcc_err_prefix(c->err, "subgraph %d: tensor %d", (int)si, (int)wi);
    if (type != TFCC_INT4 && type != TFCC_INT2) continue;
    const tfcc_ir_tensor *w = &sg->tensors[wi];
    for (int32_t k = 0; k < w->quant.count; k++)
      if (w->quant.zero_point && w->quant.zero_point[k] != 0)
        return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                            "subgraph %d: operator %d (FULLY_CONNECTED): weights tensor %d (%s) "
                            "is %s with zero point %d at index %d (TFLite runs int4 / int2 "
                            "weights only with zero point 0)",
                            (int)si, (int)i, (int)wi, w->name, tfcc_dtype_name((tfcc_dtype)type),
                            (int)w->quant.zero_point[k], (int)k);
  }
  return TFCC_OK;
}

/* ops: blockwise quantization (QuantizationDetails BlockwiseQuantization) is run only on int4
 * FULLY_CONNECTED weights (ops/fc_blockwise.h), as TFLite's kernels do; any other reader of such
 * a tensor would see int8 values without scales. */
static tfcc_status check_blockwise_uses(tfl_ctx *c, const tfcc_fb_table *t,
                                        const tfcc_fb_vec *tensors, int32_t si,
                                        const tfcc_ir_subgraph *sg) {
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *node = &sg->nodes[i];
    const char *name = node->custom_code ? node->custom_code : tfcc_builtin_name(node->builtin);
    for (int32_t k = 0; k < node->n_inputs; k++) {
      const int32_t ti = node->inputs[k];
      if (ti < 0 || sg->tensors[ti].block_size <= 0) continue;
      if (node->builtin != TFCC_OP_FULLY_CONNECTED || k != 1)
        return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                            "subgraph %d: operator %d (%s): input %d is tensor %d (%s) with "
                            "blockwise quantization, which runs only as FULLY_CONNECTED weights",
                            (int)si, (int)i, name, (int)k, (int)ti, sg->tensors[ti].name);
      tfcc_fb_table tt;
      int8_t type;
      tfcc_status st = tfcc_fbv_vec_table(t, tensors, (uint32_t)ti, &tt, c->err);
      if (st == TFCC_OK) st = tfcc_fbv_i8(&tt, TFL_TENSOR_TYPE, 0, &type, c->err);
      if (st != TFCC_OK) return tfcc_err_prefix(c->err, "subgraph %d: tensor %d", (int)si, (int)ti);
      if (type != TFCC_INT4)
        return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                            "subgraph %d: operator %d (FULLY_CONNECTED): blockwise-quantized "
                            "weights tensor %d (%s) is %s (TFLite's kernels take int4 only)",
                            (int)si, (int)i, (int)ti, sg->tensors[ti].name,
                            tfcc_dtype_name((tfcc_dtype)type));
    }
  }
  return TFCC_OK;
}

/* ops: a tensor of no elements that an operator reads and none writes, not a subgraph input nor
 * a variable, is a constant of no bytes whatever its buffer holds: there is nothing in it to read (older
 * converters give every tensor a buffer without a data vector; TFLite runs such files: the
 * pose classifier of LiteRT's sample app reshapes to [] with a [0] shape tensor of that kind). */
static tfcc_status unwritten_empty_constants(tfl_ctx *c, tfcc_ir_subgraph *sg) {
  tfcc_status st = tfl_charge(c, (size_t)sg->n_tensors, "empty tensors");
  if (st != TFCC_OK) return st;
  uint8_t *written = calloc((size_t)sg->n_tensors + 1, 1);
  if (!written) return tfcc_err_set(c->err, TFCC_ERR_NO_MEMORY, "empty tensors: out of memory");
  /* bit 1: written (a subgraph input or an operator's output), bit 2: read by an operator */
  for (int32_t i = 0; i < sg->n_inputs; i++) written[sg->inputs[i]] |= 1;
  for (int32_t n = 0; n < sg->n_nodes; n++) {
    const tfcc_ir_node *node = &sg->nodes[n];
    for (int32_t k = 0; k < node->n_outputs; k++)
      if (node->outputs[k] >= 0) written[node->outputs[k]] |= 1;
    for (int32_t k = 0; k < node->n_inputs; k++)
      if (node->inputs[k] >= 0) written[node->inputs[k]] |= 2;
  }
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    tfcc_ir_tensor *x = &sg->tensors[i];
    if (written[i] == 2 && !x->data && !x->is_variable && !x->sparsity &&
        tfcc_shape_elements(x->rank, x->dims) == 0) {
      x->data = c->file;
      x->data_bytes = 0;
    }
  }
  free(written);
  return TFCC_OK;
}

/* Element i of an integer constant of type t, widened. */
static int64_t const_elem(tfcc_dtype t, const void *d, size_t i) {
  switch (t) {
    case TFCC_INT8: return ((const int8_t *)d)[i];
    case TFCC_UINT8: return ((const uint8_t *)d)[i];
    case TFCC_INT16: return ((const int16_t *)d)[i];
    default: return ((const int32_t *)d)[i];
  }
}

/* A per-tensor quantization scale of 0 (read_quant lets it through on a constant only) is what
 * TFLite's quantizer writes for an all-zero constant: allowed where TFLite's kernels give it its
 * meaning without dividing by it, on a dense int8 / uint8 / int16 / int32 constant whose values
 * are all its zero point, read only as input 0 of QUANTIZE (multiplier 0: the output's zero
 * point) or as an input of MUL (mul.cc: multiplier s1 * s2 / so = 0, every output its zero
 * point), and no output of the subgraph.
 * A positive denormal per-tensor scale (read_quant lets it through on an activation only) is
 * what the quantizer writes for such a MUL's product (AmbiqAI's nnse / nnsp LSTM: zeros x
 * sigmoid, 3.6e-43): allowed on the output of a MUL that reads a zero-scale constant (its
 * multiplier is 0 whatever the output scale, no division by it) read only by ADD or SUB (add.cc,
 * sub.cc general path: the input multiplier s / (2 * max(s1, s2)) is one QuantizeMultiplier
 * flushes to 0 below 2^-31; their int16 power-of-two path, whose shift by log2 of the scale
 * ratio is undefined there, is refused by the operator, ops/elementwise_arith.c) and no input
 * or output of the subgraph. Other readers stay refused: what TFLite computes from such a
 * scale is not checked there (a DEQUANTIZE would make denormal floats, a RESHAPE pass the
 * scale on). Anything else is refused as read_quant refuses
 * every other zero or denormal scale, naming why. */
static bool zero_scale(const tfcc_ir_subgraph *sg, int32_t ti) {
  return ti >= 0 && ti < sg->n_tensors && sg->tensors[ti].quant.count == 1 &&
         sg->tensors[ti].quant.scale[0] == 0.f;
}

static bool denormal_scale(const tfcc_ir_subgraph *sg, int32_t ti) {
  return ti >= 0 && ti < sg->n_tensors && sg->tensors[ti].quant.count == 1 &&
         sg->tensors[ti].quant.scale[0] > 0.f &&
         fpclassify(sg->tensors[ti].quant.scale[0]) == FP_SUBNORMAL;
}

static tfcc_status zero_scale_err(tfl_ctx *c, int32_t si, const tfcc_ir_subgraph *sg, int32_t ti,
                                  const char *why) {
  const float s = sg->tensors[ti].quant.scale[0];
  if (s == 0.f)
    tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                 "tensor %d (%s): quantization scale 0 is 0 (zero); scales must be finite, "
                 "positive and normal (a scale of 0 is allowed on an all-zero-point constant "
                 "read only by QUANTIZE or MUL; this one is %s)",
                 (int)ti, sg->tensors[ti].name, why);
  else
    tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                 "tensor %d (%s): quantization scale 0 is %g (denormal); scales must be finite, "
                 "positive and normal (a denormal scale is allowed on the output of a MUL by a "
                 "zero-scale constant read only by ADD or SUB; this one is %s)",
                 (int)ti, sg->tensors[ti].name, (double)s, why);
  return si ? tfcc_err_prefix(c->err, "subgraph %d", (int)si) : TFCC_ERR_INVALID_MODEL;
}

/* Whether node nd is a MUL with a zero-scale input. */
static bool mul_by_zero_scale(const tfcc_ir_subgraph *sg, const tfcc_ir_node *nd) {
  if (nd->builtin != TFCC_OP_MUL) return false;
  for (int32_t k = 0; k < nd->n_inputs; k++)
    if (zero_scale(sg, nd->inputs[k])) return true;
  return false;
}

/* Each check is one pass over the tensors, the operators or a constant's bytes. */
static tfcc_status check_zero_scales(tfl_ctx *c, int32_t si, const tfcc_ir_subgraph *sg) {
  bool any = false;
  for (int32_t ti = 0; ti < sg->n_tensors; ti++) {
    if (denormal_scale(sg, ti)) {
      any = true;
      /* an activation another operator writes (the loop over the operators checks which; a
         tensor read that nothing writes is tfl_check_dataflow's), never a variable */
      if (sg->tensors[ti].is_variable) return zero_scale_err(c, si, sg, ti, "a variable tensor");
    }
    if (!zero_scale(sg, ti)) continue;
    any = true;
    const tfcc_ir_tensor *x = &sg->tensors[ti];
    const size_t esz = x->dtype == TFCC_INT8 || x->dtype == TFCC_UINT8 ? 1
                       : x->dtype == TFCC_INT16                        ? 2
                       : x->dtype == TFCC_INT32                        ? 4
                                                                       : 0;
    int64_t n = 1;
    for (int32_t d = 0; d < x->rank; d++) n *= x->dims[d] > 0 ? x->dims[d] : 0;
    if (!esz || !x->data || x->sparsity || x->data_bytes / esz < (size_t)n)
      return zero_scale_err(c, si, sg, ti, "not a dense integer constant");
    for (int64_t i = 0; i < n; i++)
      if (const_elem(x->dtype, x->data, (size_t)i) != x->quant.zero_point[0])
        return zero_scale_err(c, si, sg, ti, "a value other than its zero point");
  }
  if (!any) return TFCC_OK;
  for (int32_t o = 0; o < sg->n_outputs; o++)
    if (zero_scale(sg, sg->outputs[o]) || denormal_scale(sg, sg->outputs[o]))
      return zero_scale_err(c, si, sg, sg->outputs[o], "a subgraph output");
  for (int32_t i = 0; i < sg->n_inputs; i++)
    if (denormal_scale(sg, sg->inputs[i]))
      return zero_scale_err(c, si, sg, sg->inputs[i], "a subgraph input");
  for (int32_t ni = 0; ni < sg->n_nodes; ni++) {
    const tfcc_ir_node *nd = &sg->nodes[ni];
    for (int32_t k = 0; k < nd->n_inputs; k++) {
      const int32_t ti = nd->inputs[k];
      if (zero_scale(sg, ti) && !(k == 0 && nd->builtin == TFCC_OP_QUANTIZE) &&
          nd->builtin != TFCC_OP_MUL)
        return zero_scale_err(c, si, sg, ti, "read by an operator other than QUANTIZE or MUL");
      if (denormal_scale(sg, ti) && nd->builtin != TFCC_OP_ADD && nd->builtin != TFCC_OP_SUB)
        return zero_scale_err(c, si, sg, ti, "read by an operator other than ADD or SUB");
    }
    for (int32_t k = 0; k < nd->n_outputs; k++)
      if (denormal_scale(sg, nd->outputs[k]) && !mul_by_zero_scale(sg, nd))
        return zero_scale_err(c, si, sg, nd->outputs[k],
                              "not the output of a MUL by a zero-scale constant");
  }
  return TFCC_OK;
}

tfcc_status tfl_read_subgraph(tfl_ctx *c, const tfcc_fb_table *t, int32_t si,
                              tfcc_ir_subgraph *sg) {
  tfcc_fb_vec tensors, ops;
  const char *name;
  uint32_t name_len;
  tfcc_status st;
  if ((st = tfcc_fbv_string(t, TFL_SUBGRAPH_NAME, &name, &name_len, c->err)) != TFCC_OK ||
      (st = tfcc_fbv_vector(t, TFL_SUBGRAPH_TENSORS, 4, &tensors, NULL, c->err)) != TFCC_OK ||
      (st = tfcc_fbv_vector(t, TFL_SUBGRAPH_OPERATORS, 4, &ops, NULL, c->err)) != TFCC_OK)
    return tfcc_err_prefix(c->err, "subgraph %d", (int)si);
  if ((st = tfl_strdup(c, name, name_len, &sg->name)) != TFCC_OK) return st;

  st = tfl_alloc(c, tensors.count, sizeof(tfcc_ir_tensor), 8, (void **)&sg->tensors, "tensors");
  if (st != TFCC_OK) return st;
  sg->n_tensors = (int32_t)tensors.count;
  for (uint32_t i = 0; i < tensors.count; i++) {
    tfcc_fb_table tt;
    st = tfcc_fbv_vec_table(t, &tensors, i, &tt, c->err);
    if (st != TFCC_OK) return tfcc_err_prefix(c->err, "subgraph %d: tensor %u", (int)si, i);
    st = tfl_read_tensor(c, &tt, si, (int32_t)i, &sg->tensors[i]);
    if (st != TFCC_OK) return si ? tfcc_err_prefix(c->err, "subgraph %d", (int)si) : st;
  }

  char what[48];
  snprintf(what, sizeof what, "subgraph %d: input", (int)si);
  st = read_indices(c, t, TFL_SUBGRAPH_INPUTS, sg->n_tensors, false, &sg->n_inputs, &sg->inputs,
                    what);
  if (st != TFCC_OK) return st;
  snprintf(what, sizeof what, "subgraph %d: output", (int)si);
  st = read_indices(c, t, TFL_SUBGRAPH_OUTPUTS, sg->n_tensors, false, &sg->n_outputs, &sg->outputs,
                    what);
  if (st != TFCC_OK) return st;

  st = tfl_alloc(c, ops.count, sizeof(tfcc_ir_node), 8, (void **)&sg->nodes, "operators");
  if (st != TFCC_OK) return st;
  sg->n_nodes = (int32_t)ops.count;
  for (uint32_t i = 0; i < ops.count; i++) {
    tfcc_fb_table ot;
    st = tfcc_fbv_vec_table(t, &ops, i, &ot, c->err);
    if (st != TFCC_OK) return tfcc_err_prefix(c->err, "subgraph %d: operator %u", (int)si, i);
    st = tfl_read_operator(c, &ot, (int32_t)i, sg->n_tensors, &sg->nodes[i]);
    if (st != TFCC_OK) return si ? tfcc_err_prefix(c->err, "subgraph %d", (int)si) : st;
  }
  st = check_packed_fc_weights(c, t, &tensors, si, sg);
  if (st != TFCC_OK) return st;
  st = check_blockwise_uses(c, t, &tensors, si, sg);
  if (st == TFCC_OK) st = tfl_resolve_sparse_uses(c, si, sg);
  if (st != TFCC_OK) return st;
  st = unwritten_empty_constants(c, sg);
  if (st == TFCC_OK) st = check_zero_scales(c, si, sg);
  if (st != TFCC_OK) return st;
  st = tfl_check_dataflow(c, sg);
  if (st == TFCC_OK) st = tfl_prepare_output_dtypes(c, sg);
  if (st != TFCC_OK && si) return tfcc_err_prefix(c->err, "subgraph %d", (int)si);
  return st;
}

/* Tensor roles for the dataflow check. */
enum { ROLE_NONE = 0, ROLE_CONSTANT = 1, ROLE_VARIABLE = 2, ROLE_INPUT = 3, ROLE_PRODUCED = 4 };

tfcc_status tfl_check_dataflow(tfl_ctx *c, const tfcc_ir_subgraph *sg) {
  tfcc_status st = tfl_charge(c, (size_t)sg->n_tensors, "dataflow check");
  if (st != TFCC_OK) return st;
  uint8_t *role = calloc((size_t)sg->n_tensors + 1, 1);
  int32_t *producer = calloc((size_t)sg->n_tensors + 1, sizeof(int32_t));
  if (!role || !producer) {
    free(role);
    free(producer);
    return tfcc_err_set(c->err, TFCC_ERR_NO_MEMORY, "dataflow check: out of memory");
  }
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    const tfcc_ir_tensor *x = &sg->tensors[i];
    /* As TFLite's verifier: a tensor whose buffer has data is constant. */
    role[i] = x->data ? ROLE_CONSTANT : x->is_variable ? ROLE_VARIABLE : ROLE_NONE;
  }
  for (int32_t i = 0; i < sg->n_inputs; i++)
    if (role[sg->inputs[i]] == ROLE_NONE) role[sg->inputs[i]] = ROLE_INPUT;
  for (int32_t n = 0; n < sg->n_nodes && st == TFCC_OK; n++) {
    const tfcc_ir_node *node = &sg->nodes[n];
    const char *name = node->custom_code ? node->custom_code : tfcc_builtin_name(node->builtin);
    for (int32_t k = 0; k < node->n_inputs && st == TFCC_OK; k++) {
      int32_t ti = node->inputs[k];
      /* A custom operator may read a tensor nothing writes: its scratch memory (an Ethos-U
         command stream's `*_scratch` tensors, which TFLite allocates in its arena). Whether
         the operator exists is the runtime's to say, naming it, before anything runs. */
      if (ti >= 0 && role[ti] == ROLE_NONE && node->builtin != TFCC_OP_CUSTOM) {
        const bool sentinel = sg->tensors[ti].buffer == 0 && c->buffer0.data;
        st = tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                          "operator %d (%s): input %d is tensor %d (%s), which is not constant, "
                          "not a variable, not a subgraph input and not produced by an earlier "
                          "operator%s",
                          (int)n, name, (int)k, (int)ti, sg->tensors[ti].name,
                          sentinel ? " (its data is in buffer 0, the empty sentinel, which TFLite "
                                     "reads as no data either)"
                                   : "");
      }
    }
    for (int32_t k = 0; k < node->n_outputs && st == TFCC_OK; k++) {
      int32_t ti = node->outputs[k];
      static const char *const what[] = {"", "a constant", "a variable", "a subgraph input",
                                         "already produced by operator"};
      if (role[ti] != ROLE_NONE) {
        if (role[ti] == ROLE_PRODUCED)
          st = tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                            "operator %d (%s): output %d is tensor %d (%s), already produced by "
                            "operator %d (cycle or duplicate producer)",
                            (int)n, name, (int)k, (int)ti, sg->tensors[ti].name, (int)producer[ti]);
        else
          st = tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                            "operator %d (%s): output %d is tensor %d (%s), which is %s", (int)n,
                            name, (int)k, (int)ti, sg->tensors[ti].name, what[role[ti]]);
      } else {
        role[ti] = ROLE_PRODUCED;
        producer[ti] = n;
      }
    }
  }
  free(role);
  free(producer);
  return st;
}
