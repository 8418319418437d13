/* Packs 8-bit weights into the panel layout of one micro-kernel (see gemm.h). */
#include <stdlib.h>
#include <string.h>

#include "base/weights_mem.h"
#include "kernels/q8-gemm/gemm.h"

size_t tfcc_q8_pack_layout(const tfcc_q8_gemm_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                           const tfcc_conv_requant *r, tfcc_q8_packed *out) {
  memset(out, 0, sizeof *out);
  const int32_t kb = tfcc_q8_gemm_k_block(k);
  if (n <= 0 || kdim <= 0 || kdim > INT32_MAX - (kb - 1)) return 0;
  out->k = k;
  out->n = n;
  out->kdim = kdim;
  out->kpad = (kdim + kb - 1) / kb * kb;
  out->is_signed = is_signed;
  const uint8_t wx = k->w_xor;
  out->kz = !wx ? r->filter_offset : is_signed ? r->filter_offset - 128 : r->filter_offset + 128;
  out->fp32 = r->scale != NULL;
  const size_t nr = (size_t)k->nr;
  const size_t panels = ((size_t)n + nr - 1) / nr;
  const size_t panel = tfcc_q8_panel_bytes(out);
  if (panels > (SIZE_MAX - 63) / panel) return 0;
  return (panels * panel + 63) & ~(size_t)63;
}

bool tfcc_q8_pack(const tfcc_q8_gemm_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                  const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                  tfcc_q8_packed *out) {
  const size_t bytes = tfcc_q8_pack_layout(k, is_signed, n, kdim, r, out);
  if (!bytes) return false;
  uint8_t *w = tfcc_wmem_alloc(bytes); /* huge pages, populated: few first-touch faults */
  if (!w) return false;
  tfcc_q8_pack_fill(out, src, bias, r, w, bytes);
  return true;
}

void tfcc_q8_pack_fill(tfcc_q8_packed *out, const void *src, const int32_t *bias,
                       const tfcc_conv_requant *r, uint8_t *w, size_t bytes) {
  const tfcc_q8_gemm_kernel *k = out->k;
  const int32_t n = out->n, kdim = out->kdim;
  const bool is_signed = out->is_signed;
  const uint8_t wx = k->w_xor;
  const bool stored_signed = is_signed != (wx != 0); /* how the stored bytes are read */
  const size_t nr = (size_t)k->nr;
  const size_t panels = ((size_t)n + nr - 1) / nr;
  const size_t panel = tfcc_q8_panel_bytes(out);
  memset(w, 0, bytes);
  const uint8_t *s = src;
  const uint32_t io = (uint32_t)r->input_offset;
  const uint32_t kconst = (uint32_t)kdim * io * (uint32_t)out->kz;
  const bool pairs = tfcc_q8_gemm_pair_layout(k), c2 = tfcc_q8_gemm_c2_layout(k);
  for (size_t p = 0; p < panels; p++) {
    uint8_t *dst = w + p * panel;
    int32_t *pb = (int32_t *)(void *)dst;
    float *ps = (float *)(void *)(dst + nr * 4);
    uint8_t *pw = dst + nr * 8;
    const size_t n0 = p * nr, nc = (size_t)n - n0 < nr ? (size_t)n - n0 : nr;
    for (size_t j = 0; j < nc; j++) {
      const uint8_t *row = s + (n0 + j) * (size_t)kdim;
      uint32_t sum = 0;
      for (size_t kk = 0; kk < (size_t)kdim; kk++) {
        const uint8_t v = (uint8_t)(row[kk] ^ wx);
        if (pairs)
          pw[(kk / 8) * nr * 8 + (j / 2) * 16 + (j % 2) * 8 + kk % 8] = v;
        else if (c2) {
          const int16_t e = stored_signed ? (int16_t)(int8_t)v : (int16_t)v;
          memcpy(pw + ((kk / 2) * nr * 2 + j * 2 + kk % 2) * 2, &e, 2);
        } else
          pw[(kk / 4) * nr * 4 + j * 4 + kk % 4] = v;
        sum += stored_signed ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)v;
      }
      const uint32_t b = bias ? (uint32_t)bias[n0 + j] : 0u;
      /* activations xor 0x80 in the kernel: x + 128 (int8), x - 128 (uint8) */
      const uint32_t xfix = !k->x_xor ? 0u : is_signed ? 0u - 128u * sum : 128u * sum;
      pb[j] = (int32_t)(b + io * sum + kconst + xfix);
      ps[j] = r->scale ? r->scale[(n0 + j) * (size_t)r->mult_stride] : 0.0f;
    }
  }
  out->w = w;
}

void tfcc_q8_packed_free(tfcc_q8_packed *p) {
  if (!p) return;
  tfcc_wmem_free(p->w);
  p->w = NULL;
}
