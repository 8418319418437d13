/* Packs N x K float32 weights into bf16 pair panels of one micro-kernel (see gemm.h). */
#include <stdlib.h>

#include "kernels/bf16-gemm/gemm.h"

void tfcc_bf16_cvt_scalar(const float *src, uint16_t *dst, size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] = tfcc_bf16_from_f32(src[i]);
}

size_t tfcc_bf16_pack_layout(const tfcc_bf16_gemm_kernel *k, int32_t n, int32_t kdim,
                             tfcc_bf16_packed *out) {
  memset(out, 0, sizeof *out);
  if (n < 0 || kdim < 0) return 0;
  const size_t nr = (size_t)k->nr, ka = (size_t)k->kalign;
  const size_t kpad = ((size_t)kdim + ka - 1) / ka * ka;
  if (kpad > INT32_MAX) return 0;
  out->k = k;
  out->n = n;
  out->kdim = kdim;
  out->kpad = (int32_t)kpad;
  const size_t panels = ((size_t)n + nr - 1) / nr;
  const size_t panel = tfcc_bf16_panel_bytes(out); /* a multiple of 64: NR is */
  if (panels && panel > SIZE_MAX / panels) {
    memset(out, 0, sizeof *out);
    return 0;
  }
  return panels * panel;
}

void tfcc_bf16_pack_into(const tfcc_bf16_packed *layout, const float *src, size_t ld_n, size_t ld_k,
                         const float *bias, void *mem) {
  const size_t nr = (size_t)layout->k->nr, kpad = (size_t)layout->kpad;
  const size_t n = (size_t)layout->n, kdim = (size_t)layout->kdim;
  const size_t panels = (n + nr - 1) / nr;
  const size_t panel = tfcc_bf16_panel_bytes(layout);
  unsigned char *w = mem;
  for (size_t p = 0; p < panels; p++) {
    float *b = (float *)(void *)(w + p * panel);
    uint16_t *dst = (uint16_t *)(void *)(b + nr);
    const size_t n0 = p * nr;
    const size_t nc = n - n0 < nr ? n - n0 : nr;
    for (size_t j = 0; j < nr; j++) b[j] = bias && j < nc ? bias[n0 + j] : 0.0f;
    for (size_t kk = 0; kk < kpad; kk += 2, dst += 2 * nr) {
      for (size_t j = 0; j < nr; j++) {
        const float *col = src + (n0 + j) * ld_n;
        dst[2 * j] = j < nc && kk < kdim ? tfcc_bf16_from_f32(col[kk * ld_k]) : 0;
        dst[2 * j + 1] = j < nc && kk + 1 < kdim ? tfcc_bf16_from_f32(col[(kk + 1) * ld_k]) : 0;
      }
    }
  }
}

void tfcc_bf16_pack_adopt(tfcc_bf16_packed *layout, const void *mem) {
  layout->w = (void *)(uintptr_t)mem; /* read only: the kernels never write the panels */
  layout->borrowed = true;
}

bool tfcc_bf16_pack(const tfcc_bf16_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                    size_t ld_n, size_t ld_k, const float *bias, tfcc_bf16_packed *out) {
  const size_t bytes = tfcc_bf16_pack_layout(k, n, kdim, out);
  if (!out->k) return false;
  unsigned char *w = aligned_alloc(64, bytes ? (bytes + 63) & ~(size_t)63 : 64);
  if (!w) {
    memset(out, 0, sizeof *out);
    return false;
  }
  tfcc_bf16_pack_into(out, src, ld_n, ld_k, bias, w);
  out->w = w;
  return true;
}

void tfcc_bf16_packed_free(tfcc_bf16_packed *p) {
  if (!p) return;
  if (!p->borrowed) free(p->w);
  p->w = NULL;
  p->borrowed = false;
}
