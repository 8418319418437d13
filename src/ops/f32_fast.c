/* Float32 fast-path state of the conv-family operators (packed weights);
 * the contract is in f32_fast.h. */
#include "ops/f32_fast.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tfcc_f32_fast_init(tfcc_f32_fast *f) {
  memset(f, 0, sizeof *f);
  tfcc_pack_once_init(&f->once);
  atomic_init(&f->logged, false);
}

void tfcc_f32_fast_free(tfcc_f32_fast *f) {
  if (!f) return;
  if (!f->borrowed) tfcc_f32_packed_free(&f->packed);
  f->borrowed = false;
  tfcc_pack_once_destroy(&f->once);
}

/* A source of this size or more, whose owner will say consumed for it, is packed in source
 * order while its pages are given back (tfcc_f32_pack_stream): the load's peak held such a
 * filter and its whole packing together (ResNet-18 f32: 9.4 MB, bench/README.md load56). */
#define STREAM_MIN_BYTES ((size_t)4 << 20)

typedef struct stream_release {
  const tfcc_packed_key *key;
  tfcc_packed_owner *owner;
  const void *src;
  size_t total; /* the source's bytes */
} stream_release;

static void stream_released(void *user, size_t bytes) {
  const stream_release *s = user;
  (void)tfcc_packed_give_prefix(s->key, s->owner, s->src, bytes, s->total);
}

const tfcc_f32_packed *tfcc_f32_fast_pack(tfcc_f32_fast *f, tfcc_isa isa,
                                          struct tfcc_threadpool *pool, int32_t n, int32_t kdim,
                                          const float *src, size_t ld_n, size_t ld_k,
                                          const float *bias) {
  return tfcc_f32_fast_pack_consuming(f, isa, pool, n, kdim, src, ld_n, ld_k, bias, NULL);
}

const tfcc_f32_packed *tfcc_f32_fast_pack_consuming(tfcc_f32_fast *f, tfcc_isa isa,
                                                    struct tfcc_threadpool *pool, int32_t n,
                                                    int32_t kdim, const float *src, size_t ld_n,
                                                    size_t ld_k, const float *bias,
                                                    tfcc_packed_owner *owner) {
  if (!tfcc_f32_fast_get(f, src) && tfcc_pack_once_begin(&f->once)) {
    const tfcc_f32_gemm_kernel *k = tfcc_f32_gemm_select(isa);
    const size_t bytes = tfcc_f32_packed_bytes(k, n, kdim);
    const void *hit = n >= 0 && kdim >= 0 ? tfcc_packed_get(&f->key, bytes) : NULL;
    if (hit) tfcc_f32_packed_view(k, n, kdim, hit, &f->packed);
    bool ok = hit != NULL;
    const stream_release rel = {&f->key, owner, src, (size_t)n * ld_n * sizeof(float)};
    if (!ok && owner && ld_k == 1 && n > 0 && kdim > 0 && rel.total >= STREAM_MIN_BYTES &&
        tfcc_packed_give_prefix(&f->key, owner, src, 0, rel.total))
      ok = tfcc_f32_pack_stream(pool, k, n, kdim, src, ld_n, bias, &f->packed, stream_released,
                                (void *)&rel);
    ok = ok || tfcc_f32_pack_pool(pool, k, n, kdim, src, ld_n, ld_k, bias, &f->packed);
    if (!hit && ok) tfcc_packed_put(&f->key, f->packed.w, bytes);
    f->borrowed = hit != NULL;
    tfcc_pack_once_end(&f->once, src, ok);
  }
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
