/* TFLite loader: output dtypes that TFLite's kernels set in Prepare.
 *
 * Many TFLite kernels do not check the output type the file declares: their Prepare writes
 * it (add.cc `output->type = input2->type`, comparisons.cc `output->type = kTfLiteBool`, ...),
 * so a file whose ADD output is declared float32 for uint8 inputs runs in TFLite as a uint8
 * ADD whose output keeps the declared quantization (LiteRT's testdata add_quantized.bin). The
 * reader does the same once, in execution order (a later node reads the dtype an earlier one
 * set), so that operators, passes and the planner see the dtype TFLite runs. Only the kernels
 * that assign the type unconditionally are listed; every other operator's declared output type
 * is checked by the operator as before. */
#include "format/tflite_read_ctx.h"
#include "ops/binary_common.h"

/* Rule: the output dtype is input `from`'s dtype (from >= 0), or the fixed dtype `fixed`. */
typedef struct out_rule {
  int32_t builtin;
  int8_t from;
  tfcc_dtype fixed;
} out_rule;

#define FROM(op, k) \
  { TFCC_OP_##op, (k), TFCC_FLOAT32 }
#define FIXED(op, dt) \
  { TFCC_OP_##op, -1, (dt) }

static const out_rule k_rules[] = {
    /* binary arithmetic: add.cc, sub.cc, div.cc, squared_difference.cc take input 2's type */
    FROM(ADD, 1),
    FROM(SUB, 1),
    FROM(DIV, 1),
    FROM(SQUARED_DIFFERENCE, 1),
    FROM(MAXIMUM, 0),
    FROM(MINIMUM, 0),
    FROM(POW, 0),
    FROM(FLOOR_DIV, 0),
    FROM(FLOOR_MOD, 0),
    FROM(ADD_N, 0),
    FROM(BITWISE_XOR, 0),
    FROM(RIGHT_SHIFT, 0),
    FROM(LOGICAL_AND, 0),
    FROM(LOGICAL_OR, 0),
    FROM(PRELU, 0),
    /* unary and data movement */
    FROM(CEIL, 0),
    FROM(FLOOR, 0),
    FROM(ROUND, 0),
    FROM(EXP, 0),
    FROM(NEG, 0),
    FROM(ZEROS_LIKE, 0),
    FROM(EXPAND_DIMS, 0),
    FROM(GATHER, 0),
    FROM(GATHER_ND, 0),
    FROM(MATRIX_DIAG, 0),
    FROM(MATRIX_SET_DIAG, 0),
    FROM(RESIZE_BILINEAR, 0),
    FROM(RESIZE_NEAREST_NEIGHBOR, 0),
    FROM(DYNAMIC_UPDATE_SLICE, 0),
    FROM(DENSIFY, 0),
    FROM(FAKE_QUANT, 0),
    FROM(SELECT, 1),
    FROM(SELECT_V2, 1),
    FROM(FILL, 1),
    FROM(SCATTER_ND, 1),
    FROM(SPARSE_TO_DENSE, 2),
    /* fixed types */
    FIXED(EQUAL, TFCC_BOOL),
    FIXED(NOT_EQUAL, TFCC_BOOL),
    FIXED(LESS, TFCC_BOOL),
    FIXED(LESS_EQUAL, TFCC_BOOL),
    FIXED(GREATER, TFCC_BOOL),
    FIXED(GREATER_EQUAL, TFCC_BOOL),
    FIXED(DEQUANTIZE, TFCC_FLOAT32),
    FIXED(RANK, TFCC_INT32),
    FIXED(BUCKETIZE, TFCC_INT32),
    FIXED(WHERE, TFCC_INT64),
};

static const out_rule *rule_for(int32_t builtin) {
  for (size_t i = 0; i < sizeof k_rules / sizeof k_rules[0]; i++)
    if (k_rules[i].builtin == builtin) return &k_rules[i];
  return NULL;
}

static bool packed_or_float8(tfcc_dtype dt) {
  return dt == TFCC_INT4 || dt == TFCC_INT2 || dt == TFCC_UINT4 || dt == TFCC_FLOAT8_E4M3FN ||
         dt == TFCC_FLOAT8_E5M2;
}

/* Index of the first zero point of q outside dtype dt's storage range, or -1. */
static int32_t zero_point_outside(const tfcc_quant *q, tfcc_dtype dt) {
  int32_t lo, hi;
  tfcc_elem_qrange(dt, &lo, &hi);
  for (int32_t i = 0; i < q->count; i++)
    if (q->zero_point[i] < lo || q->zero_point[i] > hi) return i;
  return -1;
}

tfcc_status tfl_prepare_output_dtypes(tfl_ctx *c, tfcc_ir_subgraph *sg) {
  for (int32_t n = 0; n < sg->n_nodes; n++) {
    const tfcc_ir_node *node = &sg->nodes[n];
    const out_rule *r = node->custom_code ? NULL : rule_for(node->builtin);
    if (!r || node->n_outputs < 1 || node->outputs[0] < 0) continue;
    if (r->from >= node->n_inputs || (r->from >= 0 && node->inputs[r->from] < 0)) continue;
    tfcc_ir_tensor *out = &sg->tensors[node->outputs[0]];
    const tfcc_dtype dt = r->from >= 0 ? sg->tensors[node->inputs[r->from]].dtype : r->fixed;
    /* Only operator-written tensors change (the dataflow check refuses the others as outputs);
     * a constant keeps the type its bytes were read with. */
    if (out->dtype == dt || out->data || out->is_variable) continue;
    /* The reader's packed and raw-byte types (int4 / int2 / uint4 constants read as int8 /
     * uint8, float8 in the standard build's reference kernels only) keep the operators' own
     * dtype checks. */
    if (packed_or_float8(out->dtype) || packed_or_float8(dt)) continue;
    const int32_t z = zero_point_outside(&out->quant, dt);
    if (z >= 0)
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                          "operator %d (%s): output tensor %d (%s) is declared %s with zero point "
                          "%d, outside %s, the type TFLite's Prepare gives it",
                          (int)n, tfcc_builtin_name(node->builtin), (int)node->outputs[0],
                          out->name, tfcc_dtype_name(out->dtype), (int)out->quant.zero_point[z],
                          tfcc_dtype_name(dt));
    out->dtype = dt;
  }
  return TFCC_OK;
}
