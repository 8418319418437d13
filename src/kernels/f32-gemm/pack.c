/* Packs N x K weights into the panel layout of one micro-kernel (see gemm.h). */
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-gemm/gemm.h"

bool tfcc_f32_pack(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                   size_t ld_n, size_t ld_k, const float *bias, tfcc_f32_packed *out) {
  memset(out, 0, sizeof *out);
  if (n < 0 || kdim < 0) return false;
  const size_t nr = (size_t)k->nr;
  const size_t panels = ((size_t)n + nr - 1) / nr;
  const size_t panel = nr * ((size_t)kdim + 1);
  size_t bytes = panels * panel * sizeof(float);
  bytes = (bytes + 63) & ~(size_t)63;
  float *w = aligned_alloc(64, bytes ? bytes : 64);
  if (!w) return false;
  memset(w, 0, bytes);
  for (size_t p = 0; p < panels; p++) {
    float *dst = w + p * panel;
    const size_t n0 = p * nr;
    const size_t nc = (size_t)n - n0 < nr ? (size_t)n - n0 : nr;
    if (bias)
      for (size_t j = 0; j < nc; j++) dst[j] = bias[n0 + j];
    dst += nr;
    for (size_t kk = 0; kk < (size_t)kdim; kk++, dst += nr)
      for (size_t j = 0; j < nc; j++) dst[j] = src[(n0 + j) * ld_n + kk * ld_k];
  }
  out->k = k;
  out->n = n;
  out->kdim = kdim;
  out->w = w;
  return true;
}

void tfcc_f32_packed_free(tfcc_f32_packed *p) {
  if (!p) return;
  free(p->w);
  p->w = NULL;
}
