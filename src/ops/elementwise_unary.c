/* Elementwise unary operators (ABS, NEG, EXP, LOG, SQRT, RSQRT, SQUARE, FLOOR, CEIL, ROUND, SIN,
 * COS, LOGICAL_NOT). */
#include "ops/binary_common.h"

#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/xnn_quant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ unary */

static const char *unary_name(tfcc_unop op) {
  static const char *n[] = {"ABS",   "NEG",  "EXP",   "LOG", "SQRT", "RSQRT",      "SQUARE",
                            "FLOOR", "CEIL", "ROUND", "SIN", "COS",  "LOGICAL_NOT"};
  return n[op];
}

/* Quantized unary variants tfcc implements: ABS int8 / int16 (int16 only when quantized),
 * SQRT int8 / int16. */
static bool unary_quantized(tfcc_unop op, const tfcc_tensor *in) {
  if (op == TFCC_UN_ABS)
    return in->dtype == TFCC_INT8 || (in->dtype == TFCC_INT16 && in->quant && in->quant->count > 0);
  if (op == TFCC_UN_SQRT) return in->dtype == TFCC_INT8 || in->dtype == TFCC_INT16;
  return false;
}

static tfcc_status unary_qparams(tfcc_op_ctx *ctx, tfcc_unop op, tfcc_unary_q *q) {
  const char *name = unary_name(op);
  float si = 0.f, so = 0.f;
  int32_t zi = 0, zo = 0;
  tfcc_status st;
  if ((st = tfcc_elem_quant(ctx, name, "input", ctx->in[0], &si, &zi)) != TFCC_OK) return st;
  if ((st = tfcc_elem_quant(ctx, name, "output", ctx->out[0], &so, &zo)) != TFCC_OK) return st;
  if (op == TFCC_UN_ABS && ctx->in[0]->dtype == TFCC_INT16)
    TFCC_OP_CHECK(ctx, zi == 0 && zo == 0, TFCC_ERR_UNSUPPORTED,
                  "%s: int16 needs zero points 0 (got %d, output %d)", name, (int)zi, (int)zo);
  tfcc_unary_q_prepare_abs(q, si, zi, so, zo);
  return TFCC_OK;
}

tfcc_status tfcc_unary_prepare(tfcc_op_ctx *ctx, tfcc_unop op) {
  const char *name = unary_name(op);
  tfcc_status st = tfcc_elem_check_io(ctx, name, 1, 1);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, o->dtype == in->dtype, TFCC_ERR_DTYPE, "%s: output dtype %s, expected %s",
                name, tfcc_dtype_name(o->dtype), tfcc_dtype_name(in->dtype));
  if (unary_quantized(op, in)) {
    tfcc_unary_q q;
    if ((st = unary_qparams(ctx, op, &q)) != TFCC_OK) return st;
  } else {
    TFCC_OP_CHECK(ctx, tfcc_ref_unary_supported(op, in->dtype), TFCC_ERR_UNSUPPORTED,
                  "%s: dtype %s not supported", name, tfcc_dtype_name(in->dtype));
  }
  return tfcc_tensor_set_shape(o, in->rank, in->dims, ctx->err);
}

tfcc_status tfcc_unary_eval(tfcc_op_ctx *ctx, tfcc_unop op) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *o = ctx->out[0];
  const int64_t n = tfcc_tensor_elements(in);
  if (unary_quantized(op, in)) {
    tfcc_unary_q q;
    tfcc_status st = unary_qparams(ctx, op, &q);
    if (st != TFCC_OK) return st;
    if (op == TFCC_UN_ABS) {
      tfcc_ref_abs_q(in->dtype, in->data, o->data, n, &q);
      return TFCC_OK;
    }
    int64_t bad = tfcc_ref_sqrt_q(in->dtype, in->data, o->data, n, &q);
    TFCC_OP_CHECK(ctx, bad < 0, TFCC_ERR_RUNTIME,
                  "SQRT: input element %lld is negative (only defined for non-negative values)",
                  (long long)bad);
    return TFCC_OK;
  }
  if (!tfcc_ref_unary(op, in->dtype, in->data, o->data, n))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: no kernel for %s", unary_name(op),
                        tfcc_dtype_name(in->dtype));
  return TFCC_OK;
}
