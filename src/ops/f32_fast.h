/* Float32 fast-path state shared by the conv-family operators: weights packed once per model
 * (at the first prepare, which model load runs; guarded for concurrent sessions), and the
 * once-only KERNEL_FALLBACK log. Lives in the operator's model-level params. */
#ifndef TFCC_OPS_F32_FAST_H
#define TFCC_OPS_F32_FAST_H

#include <stdatomic.h>
#include <stdbool.h>

#include "base/log.h"
#include "kernels/f32-gemm/gemm.h"
#include "ops/op.h"
#include "ops/pack_once.h"

typedef struct tfcc_f32_fast {
  tfcc_pack_once once;
  tfcc_f32_packed packed;
  atomic_bool logged;  /* KERNEL_FALLBACK written */
  tfcc_packed_key key; /* where a packing may come from / go to (packed_store.h) */
  bool borrowed;       /* packed.w lives in the weights cache (not freed here) */
} tfcc_f32_fast;

void tfcc_f32_fast_init(tfcc_f32_fast *f);
/* The packing is the block `block` of the init context's store (a weights cache), if any. */
static inline void tfcc_f32_fast_attach(tfcc_f32_fast *f, const tfcc_init_ctx *ctx,
                                        uint32_t block) {
  f->key = tfcc_init_block_key(ctx, block);
}
void tfcc_f32_fast_free(tfcc_f32_fast *f);

/* Packs B[n][k] = src[n * ld_n + k * ld_k] with bias once for the kernel of `isa`; later calls
 * return the same packing, the panels split across pool (may be NULL). NULL when packing
 * failed (out of memory). */
const tfcc_f32_packed *tfcc_f32_fast_pack(tfcc_f32_fast *f, tfcc_isa isa,
                                          struct tfcc_threadpool *pool, int32_t n, int32_t kdim,
                                          const float *src, size_t ld_n, size_t ld_k,
                                          const float *bias);
/* The same for an operator (params `owner`) that says consumed for src as soon as the packing
 * is made (owner NULL: tfcc_f32_fast_pack): a large source (N x K rows, ld_k 1) whose only
 * reader left is owner is packed in source order and its pages given back as it goes
 * (tfcc_f32_pack_stream, ops/packed_store.h tfcc_packed_give_prefix, recorded in owner); the
 * same bytes. */
const tfcc_f32_packed *tfcc_f32_fast_pack_consuming(tfcc_f32_fast *f, tfcc_isa isa,
                                                    struct tfcc_threadpool *pool, int32_t n,
                                                    int32_t kdim, const float *src, size_t ld_n,
                                                    size_t ld_k, const float *bias,
                                                    tfcc_packed_owner *owner);
/* The packing for this weights tensor, or NULL (eval: no locking). */
static inline const tfcc_f32_packed *tfcc_f32_fast_get(const tfcc_f32_fast *f, const void *src) {
  return tfcc_pack_once_ready(&f->once, src) ? &f->packed : NULL;
}

/* A constant (model-level) float tensor, or NULL-safe check for an absent optional one. */
static inline bool tfcc_f32_const_or_absent(const tfcc_tensor *t) {
  return !t || (t->dtype == TFCC_FLOAT32 && (t->is_const || t->known) && t->data);
}

/* Writes KERNEL_FALLBACK once per node (only when a SIMD level was available). */
void tfcc_f32_fast_fallback(tfcc_f32_fast *f, const tfcc_op_ctx *ctx, const char *op,
                            const char *reason);
/* The same with the caller's once-flag. */
void tfcc_f32_log_fallback_once(atomic_bool *logged, const tfcc_op_ctx *ctx, const char *op,
                                const char *reason);

#endif
