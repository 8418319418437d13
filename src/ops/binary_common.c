/* Elementwise operator family: the shared checks, output shapes, broadcast plans and
 * quantization checks; each family is in its own file (elementwise_arith.c, _compare.c,
 * _logical.c, _select.c, _unary.c). */
#include "ops/binary_common.h"

#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/xnn_quant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/quant_util.h"

/* ------------------------------------------------------------------ helpers */

tfcc_status tfcc_elem_check_io(tfcc_op_ctx *ctx, const char *op, int32_t n_in, int32_t n_out) {
  TFCC_OP_CHECK(ctx, ctx->n_in == n_in, TFCC_ERR_INVALID_MODEL, "%s: %d inputs, expected %d", op,
                (int)ctx->n_in, (int)n_in);
  TFCC_OP_CHECK(ctx, ctx->n_out == n_out, TFCC_ERR_INVALID_MODEL, "%s: %d outputs, expected %d", op,
                (int)ctx->n_out, (int)n_out);
  for (int32_t i = 0; i < n_in; i++)
    TFCC_OP_CHECK(ctx, ctx->in[i] != NULL, TFCC_ERR_INVALID_MODEL, "%s: input %d is missing", op,
                  (int)i);
  for (int32_t i = 0; i < n_out; i++)
    TFCC_OP_CHECK(ctx, ctx->out[i] != NULL, TFCC_ERR_INVALID_MODEL, "%s: output %d is missing", op,
                  (int)i);
  for (int32_t i = 0; i < n_in; i++)
    TFCC_OP_CHECK(ctx, ctx->in[i]->rank >= 0 && ctx->in[i]->rank <= TFCC_MAX_RANK, TFCC_ERR_SHAPE,
                  "%s: input %d rank %d out of range", op, (int)i, (int)ctx->in[i]->rank);
  return TFCC_OK;
}

tfcc_status tfcc_elem_same_shape(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *a,
                                 const char *a_name, const tfcc_tensor *b, const char *b_name,
                                 const char *note) {
  bool same = a->rank == b->rank;
  for (int32_t i = 0; same && i < a->rank; i++) same = a->dims[i] == b->dims[i];
  if (same) return TFCC_OK;
  char sa[96], sb[96];
  tfcc_shape_str(a->rank, a->dims, sa, sizeof sa);
  tfcc_shape_str(b->rank, b->dims, sb, sizeof sb);
  return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "%s: %s shape %s and %s shape %s differ%s", op,
                      a_name, sa, b_name, sb, note);
}

/* The ranks and dimension arrays of the first n inputs (at most TFCC_BCAST_MAX_IN, the count
 * returned), as tfcc_bcast_* take them. */
static int32_t shapes_of(int32_t n, const tfcc_tensor *const *in, int32_t *ranks,
                         const int32_t **dims) {
  if (n > TFCC_BCAST_MAX_IN) n = TFCC_BCAST_MAX_IN;
  for (int32_t k = 0; k < n; k++) {
    ranks[k] = in[k]->rank;
    dims[k] = in[k]->dims;
  }
  return n;
}

tfcc_status tfcc_elem_broadcast_shape(tfcc_op_ctx *ctx, const char *op, int32_t n,
                                      const tfcc_tensor *const *in, tfcc_tensor *out) {
  int32_t ranks[TFCC_BCAST_MAX_IN] = {0};
  const int32_t *dims[TFCC_BCAST_MAX_IN] = {NULL};
  n = shapes_of(n, in, ranks, dims);
  for (int32_t k = 0; k < n; k++) {
    for (int32_t j = 0; j < in[k]->rank; j++)
      TFCC_OP_CHECK(ctx, in[k]->dims[j] >= 0, TFCC_ERR_SHAPE, "%s: input %d dimension %d is %d", op,
                    (int)k, (int)j, (int)in[k]->dims[j]);
  }
  int32_t out_rank = 0, out_dims[TFCC_MAX_RANK], bad = 0;
  if (!tfcc_bcast_shape(n, ranks, dims, &out_rank, out_dims, &bad)) {
    char s[3][96];
    for (int32_t k = 0; k < n; k++) tfcc_shape_str(in[k]->rank, in[k]->dims, s[k], sizeof s[k]);
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        "%s: input shapes %s and %s%s%s do not broadcast (output dimension %d)", op,
                        s[0], s[1], n > 2 ? " and " : "", n > 2 ? s[2] : "", (int)bad);
  }
  return tfcc_tensor_set_shape(out, out_rank, out_dims, ctx->err);
}

void tfcc_elem_plan(tfcc_bcast *bc, int32_t n, const tfcc_tensor *const *in,
                    const tfcc_tensor *out) {
  int32_t ranks[TFCC_BCAST_MAX_IN] = {0};
  const int32_t *dims[TFCC_BCAST_MAX_IN] = {NULL};
  n = shapes_of(n, in, ranks, dims);
  tfcc_bcast_plan(bc, n, ranks, dims, out->rank, out->dims);
}

void tfcc_elem_qrange(tfcc_dtype dt, int32_t *lo, int32_t *hi) {
  switch (dt) {
    case TFCC_UINT8:
      *lo = 0;
      *hi = 255;
      break;
    case TFCC_INT8:
      *lo = INT8_MIN;
      *hi = INT8_MAX;
      break;
    case TFCC_INT16:
      *lo = INT16_MIN;
      *hi = INT16_MAX;
      break;
    default:
      *lo = INT32_MIN;
      *hi = INT32_MAX;
      break;
  }
}

tfcc_status tfcc_elem_quant(tfcc_op_ctx *ctx, const char *op, const char *what,
                            const tfcc_tensor *t, float *scale, int32_t *zp) {
  TFCC_OP_CHECK(ctx, t->quant && t->quant->count >= 1 && t->quant->scale && t->quant->zero_point,
                TFCC_ERR_INVALID_MODEL, "%s: %s (%s) has no quantization parameters", op, what,
                tfcc_dtype_name(t->dtype));
  const float s = t->quant->scale[0];
  const int32_t z = t->quant->zero_point[0];
  TFCC_OP_CHECK(ctx, isfinite(s) && s > 0.f, TFCC_ERR_INVALID_MODEL,
                "%s: %s scale %g is not positive", op, what, (double)s);
  int32_t lo, hi;
  tfcc_elem_qrange(t->dtype, &lo, &hi);
  TFCC_OP_CHECK(ctx, z >= lo && z <= hi, TFCC_ERR_INVALID_MODEL,
                "%s: %s zero point %d out of range for %s", op, what, (int)z,
                tfcc_dtype_name(t->dtype));
  *scale = s;
  *zp = z;
  return TFCC_OK;
}
