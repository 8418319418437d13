/* DENSIFY: expands a constant sparse tensor (float32, float16, int8) into its dense form once
 * at model init (TFLite FormatConverter semantics); eval copies the stored dense data. The
 * dense data is block TFCC_BLOCK_DENSIFY of the weights cache (its size follows from the
 * shape): a warm load uses the cache's copy in place and does not read the sparse tensor. */
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/densify.h"
#include "ops/shape_ops_util.h"

#define OP "DENSIFY"

typedef struct densify_params {
  size_t bytes;
  const uint8_t *data; /* own, or a block of the weights cache (read only) */
  uint8_t own[];
} densify_params;

static tfcc_status densify_init(tfcc_init_ctx *ctx) {
  const tfcc_ir_node *node = ctx->node;
  if (node->n_inputs != 1 || node->n_outputs != 1)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        OP ": %d inputs and %d outputs, expected 1 and 1", (int)node->n_inputs,
                        (int)node->n_outputs);
  int32_t ti = node->inputs[0];
  if (ti < 0 || ti >= ctx->sg->n_tensors)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, OP ": input tensor %d does not exist",
                        (int)ti);
  const tfcc_ir_tensor *t = &ctx->sg->tensors[ti];
  if (!t->sparsity || !t->data)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        OP ": input tensor %d must be a constant sparse tensor", (int)ti);
  size_t es;
  switch (t->dtype) {
    case TFCC_FLOAT32: es = 4; break;
    case TFCC_FLOAT16: es = 2; break;
    case TFCC_INT8: es = 1; break;
    default:
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, OP ": dtype %s is not supported",
                          tfcc_dtype_name(t->dtype));
  }
  int64_t n = tfcc_shape_elements(t->rank, t->dims);
  if (n < 0 || (uint64_t)n > ((uint64_t)1 << 40) / es)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, OP ": tensor %d has an invalid shape",
                        (int)ti);
  const size_t bytes = (size_t)n * es;
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_DENSIFY);
  const void *hit = tfcc_packed_get(&key, bytes);
  densify_params *p = malloc(sizeof(*p) + (hit ? 0 : bytes));
  if (!p)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, OP ": cannot allocate %zu bytes", bytes);
  p->bytes = bytes;
  p->data = hit ? hit : p->own;
  if (!hit) {
    tfcc_status st = tfcc_ref_densify(t->sparsity, t->rank, t->dims, t->data,
                                      (int64_t)(t->data_bytes / es), es, p->own, ctx->err);
    if (st) {
      free(p);
      return tfcc_err_prefix(ctx->err, OP " tensor %d", (int)ti);
    }
    tfcc_packed_put(&key, p->own, bytes);
  }
  ctx->params = p;
  return TFCC_OK;
}

static tfcc_status densify_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_so_check_arity(ctx, OP, 1, 1, 1);
  if (st) return st;
  const densify_params *p = ctx->params;
  TFCC_OP_CHECK(ctx, p != NULL, TFCC_ERR_STATE, OP ": not initialized");
  tfcc_tensor *in;
  if ((st = tfcc_so_input(ctx, 0, OP, &in))) return st;
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0; d < in->rank; d++) dims[d] = in->dims[d];
  TFCC_OP_CHECK(ctx, (size_t)tfcc_tensor_elements(in) * tfcc_dtype_size(in->dtype) == p->bytes,
                TFCC_ERR_SHAPE, OP ": input shape does not match the densified %zu bytes",
                p->bytes);
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status densify_eval(tfcc_op_ctx *ctx) {
  const densify_params *p = ctx->params;
  size_t n = ctx->out[0]->bytes < p->bytes ? ctx->out[0]->bytes : p->bytes;
  memcpy(ctx->out[0]->data, p->data, n);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_densify = {
    .name = OP, .init = densify_init, .prepare = densify_prepare, .eval = densify_eval};
