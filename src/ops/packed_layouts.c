/* Constant float layouts packed once at init (packed_layouts.h). */
#include "ops/packed_layouts.h"

#include <stdbool.h>
#include <stdint.h>

#include "base/weights_mem.h"
#include "kernels/hybrid/fc_eigen.h"

void tfcc_packed_layout_free(tfcc_packed_layout *l) {
  tfcc_wmem_free(l->own);
  l->own = NULL;
  l->data = NULL;
}

/* The cache's block of `bytes` (into l->data; NULL returned), else own memory for the caller to
 * fill and offer (NULL: out of memory too). */
static float *layout_own(const tfcc_packed_key *key, size_t bytes, tfcc_packed_layout *l) {
  const void *hit = tfcc_packed_get(key, bytes);
  if (hit) {
    l->data = hit;
    return NULL;
  }
  l->own = tfcc_wmem_alloc(bytes);
  return l->own;
}

void tfcc_packed_xnn_fc_tail(const tfcc_init_ctx *ctx, const tfcc_tflite_f32_kernel *k,
                             const float *wp, int32_t units, int32_t accum, tfcc_packed_layout *l) {
  const size_t n = k && wp ? k->fc_tail_floats(units, accum) : 0;
  if (!n || n > SIZE_MAX / sizeof(float)) return;
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_XNN_FC_TAIL);
  float *own = layout_own(&key, n * sizeof(float), l);
  if (!own) return;
  k->fc_tail_pack(wp, units, accum, own);
  tfcc_packed_put(&key, own, n * sizeof(float));
  l->data = own;
}

void tfcc_packed_transpose(const tfcc_init_ctx *ctx, uint32_t block, const float *w, int32_t n,
                           int32_t k, tfcc_packed_layout *l) {
  if (!w || n <= 0 || k <= 0 || (size_t)n > SIZE_MAX / sizeof(float) / (size_t)k) return;
  const size_t N = (size_t)n, K = (size_t)k, bytes = N * K * sizeof(float);
  const tfcc_packed_key key = tfcc_init_block_key(ctx, block);
  float *own = layout_own(&key, bytes, l);
  if (!own) return;
  for (size_t j = 0; j < N; j++)
    for (size_t p = 0; p < K; p++) own[p * N + j] = w[j * K + p];
  tfcc_packed_put(&key, own, bytes);
  l->data = own;
}

void tfcc_packed_fc_eigen(const tfcc_init_ctx *ctx, const float *w, int32_t units, int32_t accum,
                          tfcc_packed_layout *l) {
  const size_t n = w ? tfcc_fc_eigen_packed_floats(units, accum) : 0;
  if (!n || n > SIZE_MAX / sizeof(float)) return;
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_FC_EIGEN);
  float *own = layout_own(&key, n * sizeof(float), l);
  if (!own) return;
  tfcc_fc_eigen_pack(w, units, accum, own);
  tfcc_packed_put(&key, own, n * sizeof(float));
  l->data = own;
}

/* [out_c][kdim] (ko false) or [kdim][out_c] (ko true) as the XNNPACK conv packing. */
static void xnn_conv_layout(const tfcc_init_ctx *ctx, const float *w, bool ko, int32_t out_c,
                            int32_t kdim, tfcc_packed_layout *l, int32_t *ocp) {
  const size_t bytes = w ? tfcc_xnn_conv_packed_bytes(out_c, kdim) : 0;
  if (!bytes) return;
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_XNN_CONV);
  *ocp = tfcc_xnn_conv_ocp(out_c);
  float *own = layout_own(&key, bytes, l);
  if (!own) return;
  if (ko)
    tfcc_xnn_conv_pack_ko_into(w, out_c, kdim, own);
  else
    tfcc_xnn_conv_pack_into(w, out_c, kdim, own);
  tfcc_packed_put(&key, own, bytes);
  l->data = own;
}

void tfcc_packed_xnn_conv(const tfcc_init_ctx *ctx, const float *w_ohwi, int32_t out_c,
                          int32_t kdim, tfcc_packed_layout *l, int32_t *ocp) {
  xnn_conv_layout(ctx, w_ohwi, false, out_c, kdim, l, ocp);
}

void tfcc_packed_xnn_dw(const tfcc_init_ctx *ctx, const float *w_ko, int32_t out_c, int32_t kdim,
                        tfcc_packed_layout *l, int32_t *ocp) {
  xnn_conv_layout(ctx, w_ko, true, out_c, kdim, l, ocp);
}

void tfcc_packed_xnn_fc(const tfcc_init_ctx *ctx, const float *w, int32_t units, int32_t accum,
                        tfcc_packed_layout *l) {
  const size_t bytes = w ? tfcc_xnn_fc_packed_bytes(units, accum) : 0;
  if (!bytes) return;
  const tfcc_packed_key key = tfcc_init_block_key(ctx, TFCC_BLOCK_XNN_FC);
  float *own = layout_own(&key, bytes, l);
  if (!own) return;
  tfcc_xnn_fc_pack_into(w, units, accum, own);
  tfcc_packed_put(&key, own, bytes);
  l->data = own;
}
