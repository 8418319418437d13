/* q8-fc-small packing: weights plus offsets, bias and requantization, once per model. */
#include <stdlib.h>
#include <string.h>

#include "kernels/q8-fc-small/fc_small.h"

static size_t round64(size_t v) { return (v + 63) & ~(size_t)63; }

static int32_t weight_at(const void *src, bool is_signed, size_t i) {
  return is_signed ? (int32_t)((const int8_t *)src)[i] : (int32_t)((const uint8_t *)src)[i];
}

const char *tfcc_q8_fcs_refuse(int32_t n, int32_t kdim, const void *src, bool is_signed,
                               const tfcc_conv_requant *r) {
  if (!src || n <= 0 || kdim <= 0) return "no constant weights";
  if (kdim > TFCC_Q8_FCS_MAX_K) return "depth over the small path's limit";
  if ((int64_t)n * kdim > TFCC_Q8_FCS_MAX_WEIGHTS) return "weights over the small path's limit";
  const int32_t fo = r->filter_offset;
  const int32_t wmin = is_signed ? -128 : 0, wmax = is_signed ? 127 : 255;
  if ((int64_t)wmin + fo < INT16_MIN || (int64_t)wmax + fo > INT16_MAX)
    return "weights offset does not fit 16 bits";
  return NULL;
}

void tfcc_q8_fcs_packed_free(tfcc_q8_fcs_packed *p) {
  if (!p) return;
  free(p->mem);
  memset(p, 0, sizeof *p);
}

bool tfcc_q8_fcs_pack(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                      const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                      tfcc_q8_fcs_packed *out) {
  memset(out, 0, sizeof *out);
  if (!k || tfcc_q8_fcs_refuse(n, kdim, src, is_signed, r)) return false;
  const size_t npad = ((size_t)n + 15) & ~(size_t)15, kpairs = ((size_t)kdim + 1) / 2;
  const size_t w_bytes = round64(kpairs * npad * 2 * sizeof(int16_t));
  const size_t col_bytes = round64(npad * sizeof(int32_t));
  const size_t total = w_bytes + 3 * col_bytes;
  uint8_t *mem = aligned_alloc(64, total);
  if (!mem) return false;
  memset(mem, 0, total);
  out->mem = mem;
  out->w = (int16_t *)(void *)mem;
  out->bias = (int32_t *)(void *)(mem + w_bytes);
  out->fp32 = r->scale != NULL;
  if (out->fp32) {
    out->scale = (float *)(void *)(mem + w_bytes + col_bytes);
  } else {
    out->mult = (int32_t *)(void *)(mem + w_bytes + col_bytes);
    out->shift = (int32_t *)(void *)(mem + w_bytes + 2 * col_bytes);
  }
  const int32_t fo = r->filter_offset, io = r->input_offset;
  for (size_t c = 0; c < (size_t)n; c++) {
    int64_t sum = 0;
    for (size_t kk = 0; kk < (size_t)kdim; kk++) {
      const int32_t wf = weight_at(src, is_signed, c * (size_t)kdim + kk) + fo;
      out->w[((kk / 2) * npad + c) * 2 + (kk & 1)] = (int16_t)wf;
      sum += wf;
    }
    /* bias + io * sum, modulo 2^32 (the reference's int32 wrap) */
    const uint64_t b = (uint64_t)(int64_t)(bias ? bias[c] : 0) + (uint64_t)((int64_t)io * sum);
    out->bias[c] = (int32_t)(uint32_t)b;
    const size_t q = c * (size_t)r->mult_stride;
    if (out->fp32) {
      out->scale[c] = r->scale[q];
    } else {
      out->mult[c] = r->mult[q];
      out->shift[c] = r->shift[q];
    }
  }
  out->k = k;
  out->src = src;
  out->n = n;
  out->kdim = kdim;
  out->npad = (int32_t)npad;
  out->kpairs = (int32_t)kpairs;
  out->is_signed = is_signed;
  out->zp = r->output_offset;
  out->act_min = r->act_min;
  out->act_max = r->act_max;
  out->lo = (float)(r->act_min - r->output_offset);
  out->hi = (float)(r->act_max - r->output_offset);
  return true;
}
