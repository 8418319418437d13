/* Float32 fast-path state of the conv-family operators (packed weights);
 * the contract is in f32_fast.h. */
#include "ops/f32_fast.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tfcc_f32_fast_init(tfcc_f32_fast *f) {
  memset(f, 0, sizeof *f);
  atomic_init(&f->state, 0);
  atomic_init(&f->logged, false);
  f->mu_ok = pthread_mutex_init(&f->mu, NULL) == 0;
}

void tfcc_f32_fast_free(tfcc_f32_fast *f) {
  if (!f) return;
  if (!f->borrowed) tfcc_f32_packed_free(&f->packed);
  f->borrowed = false;
  if (f->mu_ok) pthread_mutex_destroy(&f->mu);
  f->mu_ok = false;
}

const tfcc_f32_packed *tfcc_f32_fast_pack(tfcc_f32_fast *f, tfcc_isa isa,
                                          struct tfcc_threadpool *pool, int32_t n, int32_t kdim,
                                          const float *src, size_t ld_n, size_t ld_k,
                                          const float *bias) {
  const tfcc_f32_packed *p = tfcc_f32_fast_get(f, src);
  if (p) return p;
  if (!f->mu_ok) return NULL;
  pthread_mutex_lock(&f->mu);
  int st = atomic_load(&f->state);
  /* st == 1 with other weights (not expected: constants are model-level): no fast path,
   * never repack under a running session. */
  if (st == 0) {
    const tfcc_f32_gemm_kernel *k = tfcc_f32_gemm_select(isa);
    const size_t bytes = tfcc_f32_packed_bytes(k, n, kdim);
    const void *hit = n >= 0 && kdim >= 0 ? tfcc_packed_get(&f->key, bytes) : NULL;
    if (hit) {
      tfcc_f32_packed_view(k, n, kdim, hit, &f->packed);
      f->borrowed = true;
      f->src = src;
      atomic_store_explicit(&f->state, 1, memory_order_release);
    } else if (tfcc_f32_pack_pool(pool, k, n, kdim, src, ld_n, ld_k, bias, &f->packed)) {
      tfcc_packed_put(&f->key, f->packed.w, bytes);
      f->src = src;
      atomic_store_explicit(&f->state, 1, memory_order_release);
    } else {
      atomic_store(&f->state, 2);
    }
  }
  pthread_mutex_unlock(&f->mu);
  return tfcc_f32_fast_get(f, src);
}

TFCC_PRINTF(4, 5)
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...) {
  if (*len + 1 >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(buf + *len, cap - *len, fmt, ap);
  va_end(ap);
  if (w > 0) *len = *len + (size_t)w < cap ? *len + (size_t)w : cap - 1;
}

void tfcc_f32_fast_fallback(tfcc_f32_fast *f, const tfcc_op_ctx *ctx, const char *op,
                            const char *reason) {
  tfcc_f32_log_fallback_once(&f->logged, ctx, op, reason);
}

void tfcc_f32_log_fallback_once(atomic_bool *logged, const tfcc_op_ctx *ctx, const char *op,
                                const char *reason) {
  if (ctx->isa == TFCC_ISA_GENERIC || !ctx->log) return;
  if (atomic_exchange(logged, true)) return;
  char shapes[256];
  size_t len = 0;
  shapes[0] = 0;
  for (int32_t i = 0; i < ctx->n_in; i++) {
    const tfcc_tensor *t = ctx->in[i];
    if (!t) continue;
    append(shapes, sizeof shapes, &len, "%s[", len ? " " : "");
    for (int32_t d = 0; d < t->rank; d++)
      append(shapes, sizeof shapes, &len, "%s%d", d ? "," : "", (int)t->dims[d]);
    append(shapes, sizeof shapes, &len, "]");
  }
  tfcc_log(ctx->log, TFCC_LOG_WARN, TFCC_TAG_KERNEL_FALLBACK,
           "node %d (%s) inputs %s: reference kernel, %s", (int)ctx->node_index, op, shapes,
           reason);
}
