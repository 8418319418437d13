/* Elementwise comparisons (EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL). */
#include "ops/binary_common.h"

#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/xnn_quant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ comparisons */

static const char *cmp_name(tfcc_cmpop op) {
  static const char *n[] = {"EQUAL", "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL"};
  return n[op];
}

/* uint8/int8 inputs with quantization compare after rescaling (comparisons.cc); without
 * quantization parameters they compare raw (TFLite would rescale by scale 0). */
/* Rescaled comparison (ComparisonQuantized): quantized uint8 / int8 always; quantized int16 for
 * EQUAL / NOT_EQUAL only (current comparisons.cc: EQUAL v5, NOT_EQUAL v4; the other comparisons
 * and unquantized int16 compare raw values). */
static bool cmp_quantized(const tfcc_tensor *a, tfcc_cmpop op) {
  const bool i16 = a->dtype == TFCC_INT16 && (op == TFCC_CMP_EQ || op == TFCC_CMP_NE);
  return (a->dtype == TFCC_UINT8 || a->dtype == TFCC_INT8 || i16) && a->quant &&
         a->quant->count >= 1;
}

tfcc_status tfcc_compare_prepare(tfcc_op_ctx *ctx, tfcc_cmpop op) {
  const char *name = cmp_name(op);
  tfcc_status st = tfcc_elem_check_io(ctx, name, 2, 1);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, a->dtype == b->dtype, TFCC_ERR_DTYPE, "%s: input 1 dtype %s, expected %s",
                name, tfcc_dtype_name(b->dtype), tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, o->dtype == TFCC_BOOL, TFCC_ERR_DTYPE, "%s: output dtype %s, expected bool",
                name, tfcc_dtype_name(o->dtype));
  bool ok;
  switch (a->dtype) {
    case TFCC_FLOAT32:
    case TFCC_INT16:
    case TFCC_INT32:
    case TFCC_INT64:
    case TFCC_UINT8:
    case TFCC_INT8: ok = true; break;
    case TFCC_BOOL: ok = op == TFCC_CMP_EQ || op == TFCC_CMP_NE; break;
    default: ok = false; break;
  }
  TFCC_OP_CHECK(ctx, ok, TFCC_ERR_UNSUPPORTED, "%s: dtype %s not supported", name,
                tfcc_dtype_name(a->dtype));
  if (cmp_quantized(a, op)) {
    float s = 0.f;
    int32_t z = 0;
    if ((st = tfcc_elem_quant(ctx, name, "input 0", a, &s, &z)) != TFCC_OK) return st;
    TFCC_OP_CHECK(ctx, cmp_quantized(b, op), TFCC_ERR_INVALID_MODEL,
                  "%s: input 1 has no quantization parameters but input 0 has", name);
    if ((st = tfcc_elem_quant(ctx, name, "input 1", b, &s, &z)) != TFCC_OK) return st;
  }
  const tfcc_tensor *in[2] = {a, b};
  return tfcc_elem_broadcast_shape(ctx, name, 2, in, o);
}

tfcc_status tfcc_compare_eval(tfcc_op_ctx *ctx, tfcc_cmpop op) {
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *o = ctx->out[0];
  const tfcc_tensor *in[2] = {a, b};
  tfcc_bcast bc;
  tfcc_elem_plan(&bc, 2, in, o);
  bool ok;
  if (cmp_quantized(a, op)) {
    tfcc_arith_q q;
    tfcc_arith_q_prepare_compare(&q, a->quant->scale[0], a->quant->zero_point[0],
                                 b->quant->scale[0], b->quant->zero_point[0]);
    ok = tfcc_ref_compare_q(op, a->dtype, &bc, a->data, b->data, o->data, &q);
  } else {
    ok = tfcc_ref_compare(op, a->dtype, &bc, a->data, b->data, o->data);
  }
  if (!ok)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: no kernel for %s", cmp_name(op),
                        tfcc_dtype_name(a->dtype));
  return TFCC_OK;
}
