/* LOGICAL_AND and LOGICAL_OR. */
#include "ops/binary_common.h"

#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/xnn_quant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ logical */

tfcc_status tfcc_logical_prepare(tfcc_op_ctx *ctx, bool is_or) {
  const char *name = is_or ? "LOGICAL_OR" : "LOGICAL_AND";
  tfcc_status st = tfcc_elem_check_io(ctx, name, 2, 1);
  if (st != TFCC_OK) return st;
  for (int32_t i = 0; i < 2; i++)
    TFCC_OP_CHECK(ctx, ctx->in[i]->dtype == TFCC_BOOL, TFCC_ERR_DTYPE,
                  "%s: input %d dtype %s, expected bool", name, (int)i,
                  tfcc_dtype_name(ctx->in[i]->dtype));
  TFCC_OP_CHECK(ctx, ctx->out[0]->dtype == TFCC_BOOL, TFCC_ERR_DTYPE,
                "%s: output dtype %s, expected bool", name, tfcc_dtype_name(ctx->out[0]->dtype));
  const tfcc_tensor *in[2] = {ctx->in[0], ctx->in[1]};
  return tfcc_elem_broadcast_shape(ctx, name, 2, in, ctx->out[0]);
}

tfcc_status tfcc_logical_eval(tfcc_op_ctx *ctx, bool is_or) {
  const tfcc_tensor *in[2] = {ctx->in[0], ctx->in[1]};
  tfcc_bcast bc;
  tfcc_elem_plan(&bc, 2, in, ctx->out[0]);
  tfcc_ref_logical(is_or, &bc, in[0]->data, in[1]->data, ctx->out[0]->data);
  return TFCC_OK;
}
