/* 8-bit fast-path state shared by the conv-family operators (CONV_2D, FULLY_CONNECTED,
 * DEPTHWISE_CONV_2D):
 * weights packed once per model for the q8 GEMM (at the first prepare, which model load
 * runs; guarded for concurrent sessions), and the once-only KERNEL_FALLBACK log. Lives in
 * the operator's model-level params, next to tfcc_f32_fast. */
#ifndef TFCC_OPS_Q8_FAST_H
#define TFCC_OPS_Q8_FAST_H

#include <stdatomic.h>
#include <stdbool.h>

#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-gemm/gemm.h"
#include "ops/op.h"
#include "ops/pack_once.h"

typedef struct tfcc_q8_fast {
  tfcc_pack_once once;
  tfcc_q8_packed packed; /* GEMM weights (CONV_2D, FULLY_CONNECTED) */
  tfcc_q8_dw_packed dw;  /* depthwise weights */
  atomic_bool logged;
  tfcc_packed_key key; /* where the GEMM packing may come from / go to (packed_store.h) */
  bool borrowed;       /* packed.w lives in the weights cache (not freed here) */
} tfcc_q8_fast;

void tfcc_q8_fast_init(tfcc_q8_fast *f);
/* The GEMM (or depthwise) packing is block `block` of the init context's store (a weights
 * cache), if any. */
static inline void tfcc_q8_fast_attach(tfcc_q8_fast *f, const tfcc_init_ctx *ctx, uint32_t block) {
  f->key = tfcc_init_block_key(ctx, block);
}
void tfcc_q8_fast_free(tfcc_q8_fast *f);

/* Why the fast path cannot take an 8-bit node with these tensors and requantization (NULL:
 * it can): non-constant weights or bias, a zero point outside the storage type. */
const char *tfcc_q8_fast_refuse(const tfcc_tensor *in, const tfcc_tensor *w,
                                const tfcc_tensor *bias, const tfcc_conv_requant *r);

/* Packs once (N = n, K = kdim, weights src[n * kdim + k]; the panels split over pool) for the kernel that suits a GEMM of
 * `rows` rows (tfcc_q8_gemm_select_for); NULL when packing failed. */
const tfcc_q8_packed *tfcc_q8_fast_pack(tfcc_q8_fast *f, tfcc_isa isa, struct tfcc_threadpool *pool,
                                        bool is_signed, int64_t rows, int32_t n, int32_t kdim,
                                        const void *src, const int32_t *bias,
                                        const tfcc_conv_requant *r);

/* Depthwise: packs a [1, fh, fw, c] filter once; NULL when packing failed. */
const tfcc_q8_dw_packed *tfcc_q8_fast_pack_dw(tfcc_q8_fast *f, tfcc_isa isa, bool is_signed,
                                              int32_t c, int32_t fh, int32_t fw, const void *src,
                                              const int32_t *bias, const tfcc_conv_requant *r);
static inline const tfcc_q8_dw_packed *tfcc_q8_fast_get_dw(const tfcc_q8_fast *f, const void *src) {
  return tfcc_pack_once_ready(&f->once, src) && f->dw.w ? &f->dw : NULL;
}

/* The packing for this weights tensor, or NULL (eval: no locking). */
static inline const tfcc_q8_packed *tfcc_q8_fast_get(const tfcc_q8_fast *f, const void *src) {
  return tfcc_pack_once_ready(&f->once, src) && f->packed.w ? &f->packed : NULL;
}

#endif
