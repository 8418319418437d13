/* SELECT and SELECT_V2. */
#include "ops/binary_common.h"

#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/xnn_quant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ select */

static bool same_shape(const tfcc_tensor *a, const tfcc_tensor *b) {
  if (a->rank != b->rank) return false;
  for (int32_t i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

tfcc_status tfcc_select_prepare(tfcc_op_ctx *ctx, bool v2) {
  const char *name = v2 ? "SELECT_V2" : "SELECT";
  tfcc_status st = tfcc_elem_check_io(ctx, name, 3, 1);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *c = ctx->in[0], *x = ctx->in[1], *y = ctx->in[2];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, c->dtype == TFCC_BOOL, TFCC_ERR_DTYPE, "%s: condition dtype %s, expected bool",
                name, tfcc_dtype_name(c->dtype));
  TFCC_OP_CHECK(ctx, x->dtype == y->dtype, TFCC_ERR_DTYPE, "%s: input 2 dtype %s, expected %s",
                name, tfcc_dtype_name(y->dtype), tfcc_dtype_name(x->dtype));
  TFCC_OP_CHECK(ctx, o->dtype == x->dtype, TFCC_ERR_DTYPE, "%s: output dtype %s, expected %s", name,
                tfcc_dtype_name(o->dtype), tfcc_dtype_name(x->dtype));
  switch (x->dtype) {
    case TFCC_BOOL:
    case TFCC_FLOAT32:
    case TFCC_UINT8:
    case TFCC_INT8:
    case TFCC_INT16:
    case TFCC_INT32:
    case TFCC_INT64: break;
    default:
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: dtype %s not supported", name,
                          tfcc_dtype_name(x->dtype));
  }
  if (!v2 && !(same_shape(c, x) && same_shape(x, y))) {
    /* select.cc v1: a scalar condition, or rank 1 matching x's first dimension; x == y. */
    char sx[96], sy[96], sc[96];
    tfcc_shape_str(x->rank, x->dims, sx, sizeof sx);
    tfcc_shape_str(y->rank, y->dims, sy, sizeof sy);
    tfcc_shape_str(c->rank, c->dims, sc, sizeof sc);
    TFCC_OP_CHECK(ctx, same_shape(x, y), TFCC_ERR_SHAPE, "SELECT: inputs have shapes %s and %s", sx,
                  sy);
    bool low = c->rank == 0 || (c->rank == 1 && x->rank >= 1 && c->dims[0] == x->dims[0]);
    TFCC_OP_CHECK(ctx, low, TFCC_ERR_SHAPE,
                  "SELECT: condition shape %s must equal input shape %s, be a scalar, or be 1-D "
                  "of the inputs' first dimension",
                  sc, sx);
    return tfcc_tensor_set_shape(o, x->rank, x->dims, ctx->err);
  }
  const tfcc_tensor *in[3] = {c, x, y};
  return tfcc_elem_broadcast_shape(ctx, name, 3, in, o);
}

tfcc_status tfcc_select_eval(tfcc_op_ctx *ctx, bool v2) {
  const tfcc_tensor *c = ctx->in[0], *x = ctx->in[1], *y = ctx->in[2];
  tfcc_tensor *o = ctx->out[0];
  const size_t es = tfcc_dtype_size(x->dtype);
  if (!v2 && !(same_shape(c, x) && same_shape(x, y))) {
    const int64_t rows = c->rank == 0 ? 1 : c->dims[0];
    const int64_t total = tfcc_tensor_elements(x);
    tfcc_ref_select_rows(c->data, rows, rows > 0 ? total / rows : 0, x->data, y->data, o->data, es);
    return TFCC_OK;
  }
  const tfcc_tensor *in[3] = {c, x, y};
  tfcc_bcast bc;
  tfcc_elem_plan(&bc, 3, in, o);
  tfcc_ref_select(&bc, c->data, x->data, y->data, o->data, es);
  return TFCC_OK;
}
