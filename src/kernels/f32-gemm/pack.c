/* Packs N x K weights into the panel layout of one micro-kernel (see gemm.h). */
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-gemm/gemm.h"

size_t tfcc_f32_packed_bytes(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim) {
  const size_t nr = (size_t)k->nr;
  const size_t panels = ((size_t)(n > 0 ? n : 0) + nr - 1) / nr;
  const size_t bytes = panels * nr * ((size_t)(kdim > 0 ? kdim : 0) + 1) * sizeof(float);
  return (bytes + 63) & ~(size_t)63;
}

void tfcc_f32_pack_into(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                        size_t ld_n, size_t ld_k, const float *bias, float *w,
                        tfcc_f32_packed *out) {
  const size_t nr = (size_t)k->nr;
  const size_t panels = ((size_t)n + nr - 1) / nr;
  const size_t panel = nr * ((size_t)kdim + 1);
  for (size_t p = 0; p < panels; p++) {
    float *dst = w + p * panel;
    const size_t n0 = p * nr;
    const size_t nc = (size_t)n - n0 < nr ? (size_t)n - n0 : nr;
    if (bias)
      for (size_t j = 0; j < nc; j++) dst[j] = bias[n0 + j];
    else
      for (size_t j = 0; j < nc; j++) dst[j] = 0.0f;
    for (size_t j = nc; j < nr; j++) dst[j] = 0.0f;
    dst += nr;
    for (size_t kk = 0; kk < (size_t)kdim; kk++, dst += nr) {
      if (ld_n == 1) { /* B stored K x N (BATCH_MATMUL rhs): rows copy straight */
        memcpy(dst, src + kk * ld_k + n0, nc * sizeof(float));
      } else {
        for (size_t j = 0; j < nc; j++) dst[j] = src[(n0 + j) * ld_n + kk * ld_k];
      }
      for (size_t j = nc; j < nr; j++) dst[j] = 0.0f;
    }
  }
  out->k = k;
  out->n = n;
  out->kdim = kdim;
  out->w = w;
}

bool tfcc_f32_pack(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                   size_t ld_n, size_t ld_k, const float *bias, tfcc_f32_packed *out) {
  memset(out, 0, sizeof *out);
  if (n < 0 || kdim < 0) return false;
  const size_t bytes = tfcc_f32_packed_bytes(k, n, kdim);
  float *w = aligned_alloc(64, bytes ? bytes : 64);
  if (!w) return false;
  tfcc_f32_pack_into(k, n, kdim, src, ld_n, ld_k, bias, w, out);
  return true;
}

void tfcc_f32_packed_free(tfcc_f32_packed *p) {
  if (!p) return;
  free(p->w);
  p->w = NULL;
}
