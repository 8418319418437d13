/* Precision bf16 (TFCC_PRECISION_BF16) for the float32 conv-family operators: the weights
 * packed once per model for the bf16 GEMM (src/kernels/bf16-gemm), at the first prepare under
 * a mutex like f32_fast.h, when the model asked for bf16 and a bf16 kernel runs at the
 * model's dispatch level. Otherwise the operator keeps its float32 paths (the model logs one
 * KERNEL_FALLBACK at load saying why, src/runtime/model.c). Lives in the operator's
 * model-level params. */
#ifndef TFCC_OPS_BF16_FAST_H
#define TFCC_OPS_BF16_FAST_H

#include <stdatomic.h>
#include <stdbool.h>

#include "kernels/bf16-gemm/conv.h"
#include "kernels/bf16-gemm/gemm.h"
#include "ops/op.h"
#include "ops/pack_once.h"

typedef struct tfcc_bf16_fast {
  tfcc_pack_once once;
  bool wanted; /* the model's precision is bf16 */
  tfcc_bf16_packed packed;
  tfcc_packed_key key; /* block TFCC_BLOCK_BF16_GEMM of the weights cache: the panels */
} tfcc_bf16_fast;

/* init, at the operator's init: the model's precision (tfcc_init_ctx.precision) and the node's
 * weights-cache key. The packing (its size follows from the weights' shape and the bf16 kernel,
 * which the cache's kernel level fixes) is taken from the cache where it holds it, else packed
 * and offered to it. */
void tfcc_bf16_fast_init(tfcc_bf16_fast *f, const tfcc_init_ctx *ctx);
void tfcc_bf16_fast_free(tfcc_bf16_fast *f);

/* The packing for these weights, or NULL (eval: no locking). */
static inline const tfcc_bf16_packed *tfcc_bf16_fast_get(const tfcc_bf16_fast *f, const void *src) {
  return f->wanted && tfcc_pack_once_ready(&f->once, src) ? &f->packed : NULL;
}

/* CONV_2D (float32, groups 1) prepare: packs the OHWI filter once and sets ctx->scratch_bytes;
 * false when the node stays on its float32 paths (precision f32, grouped, non-constant
 * weights, no bf16 kernel at ctx->isa, out of memory). Once packed, the weights are given
 * back for owner (the first member of ctx->params, ops/packed_store.h tfcc_packed_give). */
bool tfcc_bf16_fast_conv_prepare(tfcc_bf16_fast *f, tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                                 tfcc_packed_owner *owner);
/* CONV_2D eval: runs the bf16 convolution if prepare packed it; false otherwise. */
bool tfcc_bf16_fast_conv_eval(const tfcc_bf16_fast *f, tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                              float lo, float hi);
/* FULLY_CONNECTED (float32): the same for weights [units, accum], `batches` input rows. */
bool tfcc_bf16_fast_fc_prepare(tfcc_bf16_fast *f, tfcc_op_ctx *ctx, int32_t batches, int32_t units,
                               int32_t accum, tfcc_packed_owner *owner);
bool tfcc_bf16_fast_fc_eval(const tfcc_bf16_fast *f, tfcc_op_ctx *ctx, int32_t batches,
                            int32_t units, int32_t accum, float lo, float hi);
/* Kernel name for the profile when bf16 runs (rows == 1: the GEMV name), else NULL. */
const char *tfcc_bf16_fast_kernel(const tfcc_bf16_fast *f, const tfcc_op_ctx *ctx, int32_t rows);

#endif
