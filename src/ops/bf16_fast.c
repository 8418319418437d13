/* Precision bf16 state of CONV_2D / FULLY_CONNECTED; the contract is in bf16_fast.h. */
#include "ops/bf16_fast.h"

#include <string.h>

#include "base/threadpool.h"

void tfcc_bf16_fast_init(tfcc_bf16_fast *f, const tfcc_init_ctx *ctx) {
  memset(f, 0, sizeof *f);
  tfcc_pack_once_init(&f->once);
  f->wanted = ctx->precision == TFCC_PRECISION_BF16;
  f->key = tfcc_init_block_key(ctx, TFCC_BLOCK_BF16_GEMM);
}

void tfcc_bf16_fast_free(tfcc_bf16_fast *f) {
  if (!f) return;
  tfcc_bf16_packed_free(&f->packed);
  tfcc_pack_once_destroy(&f->once);
}

static bool const_or_absent(const tfcc_tensor *t) {
  return !t || (t->dtype == TFCC_FLOAT32 && (t->is_const || t->known) && t->data);
}

/* The packing from the weights cache, else packed and offered to it. */
static bool pack_cached(tfcc_bf16_fast *f, const tfcc_bf16_gemm_kernel *k, int32_t n, int32_t kdim,
                        const float *src, size_t ld_n, const float *bias) {
  const size_t bytes = tfcc_bf16_pack_layout(k, n, kdim, &f->packed);
  if (!f->packed.k) return false;
  const void *hit = bytes ? tfcc_packed_get(&f->key, bytes) : NULL;
  if (hit) {
    tfcc_bf16_pack_adopt(&f->packed, hit);
    return true;
  }
  if (!tfcc_bf16_pack(k, n, kdim, src, ld_n, 1, bias, &f->packed)) return false;
  tfcc_packed_put(&f->key, f->packed.w, bytes);
  return true;
}

/* Packs B[n][k] = src[n * ld_n + k] once for the bf16 kernel of `isa`. Once packed, the
 * operator with params `owner` never reads the float32 weights again (cache57): its every later
 * prepare finds this packing for the same weights and shapes (the weights fix n and K; only a
 * grouped conv, which never packs, differs), and its eval runs it, so the weights are consumed
 * (the model may release them; a warm load leaves them unread). */
static const tfcc_bf16_packed *pack(tfcc_bf16_fast *f, tfcc_isa isa, int32_t n, int32_t kdim,
                                    const tfcc_tensor *w, size_t ld_n, const float *bias,
                                    tfcc_packed_owner *owner) {
  const float *src = w->data;
  const tfcc_bf16_gemm_kernel *k = tfcc_bf16_gemm_select(isa);
  if (f->wanted && k && !tfcc_bf16_fast_get(f, src) && tfcc_pack_once_begin(&f->once)) {
    const bool ok = pack_cached(f, k, n, kdim, src, ld_n, bias);
    if (ok) tfcc_packed_give(&f->key, owner, src, w->bytes);
    tfcc_pack_once_end(&f->once, src, ok);
  }
  return tfcc_bf16_fast_get(f, src);
}

static const tfcc_tensor *bias_of(const tfcc_op_ctx *ctx) {
  return ctx->n_in > 2 ? ctx->in[2] : NULL;
}

bool tfcc_bf16_fast_conv_prepare(tfcc_bf16_fast *f, tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                                 tfcc_packed_owner *owner) {
  const tfcc_tensor *w = ctx->in[1], *bias = bias_of(ctx);
  if (!f->wanted || ctx->in[0]->dtype != TFCC_FLOAT32 || g->in_c != g->filter_in_c ||
      !const_or_absent(w) || !const_or_absent(bias))
    return false;
  const int32_t K = g->filter_h * g->filter_w * g->filter_in_c;
  const tfcc_bf16_packed *p =
      pack(f, ctx->isa, g->out_c, K, w, (size_t)K, bias ? bias->data : NULL, owner);
  if (!p || p->n != g->out_c || p->kdim != K) return false;
  ctx->scratch_bytes = tfcc_bf16_conv_scratch_bytes(g, p, tfcc_threadpool_size(ctx->pool));
  return true;
}

bool tfcc_bf16_fast_conv_eval(const tfcc_bf16_fast *f, tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                              float lo, float hi) {
  if (!f->wanted || ctx->in[0]->dtype != TFCC_FLOAT32 || g->in_c != g->filter_in_c) return false;
  const tfcc_bf16_packed *p = tfcc_bf16_fast_get(f, ctx->in[1]->data);
  if (!p || p->n != g->out_c || p->kdim != g->filter_h * g->filter_w * g->filter_in_c ||
      ctx->scratch_bytes < tfcc_bf16_conv_scratch_bytes(g, p, tfcc_threadpool_size(ctx->pool)))
    return false;
  tfcc_bf16_conv(ctx->pool, g, p, ctx->in[0]->data, ctx->out[0]->data, lo, hi, ctx->scratch);
  return true;
}

bool tfcc_bf16_fast_fc_prepare(tfcc_bf16_fast *f, tfcc_op_ctx *ctx, int32_t batches, int32_t units,
                               int32_t accum, tfcc_packed_owner *owner) {
  const tfcc_tensor *w = ctx->in[1], *bias = bias_of(ctx);
  if (!f->wanted || ctx->in[0]->dtype != TFCC_FLOAT32 || units <= 0 || accum <= 0 ||
      !const_or_absent(w) || !const_or_absent(bias))
    return false;
  const tfcc_bf16_packed *p =
      pack(f, ctx->isa, units, accum, w, (size_t)accum, bias ? bias->data : NULL, owner);
  if (!p || p->n != units || p->kdim != accum) return false;
  ctx->scratch_bytes = tfcc_bf16_gemm_scratch_bytes(p, batches, tfcc_threadpool_size(ctx->pool));
  return true;
}

bool tfcc_bf16_fast_fc_eval(const tfcc_bf16_fast *f, tfcc_op_ctx *ctx, int32_t batches,
                            int32_t units, int32_t accum, float lo, float hi) {
  if (!f->wanted || ctx->in[0]->dtype != TFCC_FLOAT32) return false;
  const tfcc_bf16_packed *p = tfcc_bf16_fast_get(f, ctx->in[1]->data);
  if (!p || p->n != units || p->kdim != accum ||
      ctx->scratch_bytes <
          tfcc_bf16_gemm_scratch_bytes(p, batches, tfcc_threadpool_size(ctx->pool)))
    return false;
  tfcc_bf16_gemm(ctx->pool, p, batches, ctx->in[0]->data, (size_t)accum, ctx->out[0]->data,
                 (size_t)units, lo, hi, ctx->scratch);
  return true;
}

const char *tfcc_bf16_fast_kernel(const tfcc_bf16_fast *f, const tfcc_op_ctx *ctx, int32_t rows) {
  if (!f->wanted || !ctx->in[0] || ctx->in[0]->dtype != TFCC_FLOAT32 || !ctx->in[1]) return NULL;
  const tfcc_bf16_packed *p = tfcc_bf16_fast_get(f, ctx->in[1]->data);
  if (!p) return NULL;
  return rows == 1 ? p->k->name1 : p->k->name;
}
