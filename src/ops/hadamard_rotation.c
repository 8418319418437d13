/* aeq.hadamard_rotation (a custom operator every standard TFLite build registers,
 * kernels/hadamard_rotation.cc; the AI Edge Quantizer inserts it to rotate activations before
 * quantized layers): the input copied to the output, then each of the first
 * features x (size / hadamard_size) runs of hadamard_size values (per batch) transformed by the
 * normalized fast Walsh-Hadamard transform (kernels/ref/hadamard.c, bit-identical to TFLite).
 * As TFLite reads the shape: rank 3 is [batch, features, size], any other rank >= 2 is read as
 * [features, size, ...] (dims 0 and 1), so runs past those are copied unchanged, as are the
 * values past the last whole run; a hadamard_size that is not a power of two leaves the input
 * unchanged (TFLite's transform returns at once). float32, or int32 whose bits TFLite
 * transforms as float32 (its kernel reads data.f whatever the type): tfcc does the same. */

#include <string.h>

#include "kernels/ref/hadamard.h"
#include "ops/custom_params.h"

typedef struct hadamard_op {
  int32_t size;
} hadamard_op;

/* Runs TFLite transforms for this input shape (prepare checked rank >= 2). */
static int64_t runs_of(const hadamard_op *h, const tfcc_tensor *in) {
  if (!tfcc_hadamard_size_ok(h->size)) return 0;
  const bool r3 = in->rank == 3;
  const int64_t batch = r3 ? in->dims[0] : 1, features = in->dims[r3 ? 1 : 0],
                size = in->dims[r3 ? 2 : 1];
  return batch * features * (size / h->size);
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_status st = tfcc_custom_params_new(ctx, TFCC_OPTIONS_HADAMARD_ROTATION,
                                                "hadamard_size", sizeof(hadamard_op));
  if (st) return st;
  ((hadamard_op *)ctx->params)->size = ctx->node->opts.hadamard.hadamard_size;
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 1 && ctx->n_out == 1 && ctx->in[0] && ctx->out[0],
                TFCC_ERR_INVALID_MODEL, "%d inputs and %d outputs, expected 1 and 1",
                (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx,
                (in->dtype == TFCC_FLOAT32 || in->dtype == TFCC_INT32) && out->dtype == in->dtype,
                TFCC_ERR_DTYPE, "input %s, output %s: expected float32 (or int32) for both",
                tfcc_dtype_name(in->dtype), tfcc_dtype_name(out->dtype));
  TFCC_OP_CHECK(ctx, in->rank >= 2, TFCC_ERR_SHAPE,
                "input rank %d, expected at least 2 ([features, size] or [batch, features, "
                "size]; TFLite reads dims 0 and 1)",
                (int)in->rank);
  return tfcc_tensor_set_shape(out, in->rank, in->dims, ctx->err);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const hadamard_op *h = (const hadamard_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  if (out->data != in->data)
    memcpy(out->data, in->data, (size_t)tfcc_tensor_elements(in) * sizeof(float));
  tfcc_hadamard_f32((float *)out->data, runs_of(h, in), h->size);
  return TFCC_OK;
}

TFCC_OP_DEFINE(tfcc_op_hadamard_rotation, "aeq.hadamard_rotation", init, prepare, eval,
               .inplace_ok = true);
