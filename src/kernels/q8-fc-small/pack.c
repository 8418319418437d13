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

size_t tfcc_q8_fcs_bytes(int32_t n, int32_t kdim) {
  if (n <= 0 || kdim <= 0) return 0;
  const size_t npad = ((size_t)n + 15) & ~(size_t)15, kpairs = ((size_t)kdim + 1) / 2;
  return round64(kpairs * npad * 2 * sizeof(int16_t)) + 3 * round64(npad * sizeof(int32_t));
}

/* Everything but the block's contents: sizes, parameters, the arrays' places in block. */
static void describe(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                     const void *src, const tfcc_conv_requant *r, const void *block,
                     tfcc_q8_fcs_packed *out) {
  const size_t npad = ((size_t)n + 15) & ~(size_t)15, kpairs = ((size_t)kdim + 1) / 2;
  const size_t w_bytes = round64(kpairs * npad * 2 * sizeof(int16_t));
  const size_t col_bytes = round64(npad * sizeof(int32_t));
  const uint8_t *mem = block;
  out->w = (const int16_t *)(const void *)mem;
  out->bias = (const int32_t *)(const void *)(mem + w_bytes);
  out->fp32 = r->scale != NULL;
  if (out->fp32) {
    out->scale = (const float *)(const void *)(mem + w_bytes + col_bytes);
  } else {
    out->mult = (const int32_t *)(const void *)(mem + w_bytes + col_bytes);
    out->shift = (const int32_t *)(const void *)(mem + w_bytes + 2 * col_bytes);
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
}

/* The block's contents (tfcc_q8_fcs_bytes, zeroed by the caller) for out's layout. */
static void fill(const tfcc_q8_fcs_packed *out, const void *src, const int32_t *bias,
                 const tfcc_conv_requant *r, void *block) {
  const size_t npad = (size_t)out->npad, n = (size_t)out->n, kdim = (size_t)out->kdim;
  const size_t w_bytes = round64((size_t)out->kpairs * npad * 2 * sizeof(int16_t));
  const size_t col_bytes = round64(npad * sizeof(int32_t));
  uint8_t *mem = block;
  int16_t *w = (int16_t *)(void *)mem;
  int32_t *pb = (int32_t *)(void *)(mem + w_bytes);
  float *scale = (float *)(void *)(mem + w_bytes + col_bytes);
  int32_t *mult = (int32_t *)(void *)(mem + w_bytes + col_bytes);
  int32_t *shift = (int32_t *)(void *)(mem + w_bytes + 2 * col_bytes);
  const int32_t fo = r->filter_offset, io = r->input_offset;
  for (size_t c = 0; c < n; c++) {
    int64_t sum = 0;
    for (size_t kk = 0; kk < kdim; kk++) {
      const int32_t wf = weight_at(src, out->is_signed, c * kdim + kk) + fo;
      w[((kk / 2) * npad + c) * 2 + (kk & 1)] = (int16_t)wf;
      sum += wf;
    }
    /* bias + io * sum, modulo 2^32 (the reference's int32 wrap) */
    const uint64_t b = (uint64_t)(int64_t)(bias ? bias[c] : 0) + (uint64_t)((int64_t)io * sum);
    pb[c] = (int32_t)(uint32_t)b;
    const size_t q = c * (size_t)r->mult_stride;
    if (out->fp32) {
      scale[c] = r->scale[q];
    } else {
      mult[c] = r->mult[q];
      shift[c] = r->shift[q];
    }
  }
}

bool tfcc_q8_fcs_pack_into(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                           const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                           void *block, tfcc_q8_fcs_packed *out) {
  memset(out, 0, sizeof *out);
  if (!k || tfcc_q8_fcs_refuse(n, kdim, src, is_signed, r)) return false;
  memset(block, 0, tfcc_q8_fcs_bytes(n, kdim));
  describe(k, is_signed, n, kdim, src, r, block, out);
  fill(out, src, bias, r, block);
  return true;
}

bool tfcc_q8_fcs_adopt(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                       const void *src, const tfcc_conv_requant *r, const void *block,
                       tfcc_q8_fcs_packed *out) {
  memset(out, 0, sizeof *out);
  if (!k || !block || tfcc_q8_fcs_refuse(n, kdim, src, is_signed, r)) return false;
  describe(k, is_signed, n, kdim, src, r, block, out);
  return true;
}

bool tfcc_q8_fcs_pack(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                      const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                      tfcc_q8_fcs_packed *out) {
  memset(out, 0, sizeof *out);
  if (!k || tfcc_q8_fcs_refuse(n, kdim, src, is_signed, r)) return false;
  void *mem = aligned_alloc(64, tfcc_q8_fcs_bytes(n, kdim));
  if (!mem || !tfcc_q8_fcs_pack_into(k, is_signed, n, kdim, src, bias, r, mem, out)) {
    free(mem);
    return false;
  }
  out->mem = mem;
  return true;
}
