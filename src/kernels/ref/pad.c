/* Constant and mirror pad kernels, SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND;
 * the contract is in pad.h. */
#include "kernels/ref/pad.h"

#include <string.h>

#include "kernels/ref/copy.h"

void tfcc_ref_pad_const(const void *in, int32_t rank, const int32_t *in_dims, const int64_t *before,
                        const int32_t *out_dims, const void *value, size_t es, void *out) {
  int64_t os[16], is[16], n_out = 1, n_in = 1, off = 0;
  for (int32_t d = 0; d < rank; d++) {
    n_out *= out_dims[d];
    n_in *= in_dims[d];
  }
  tfcc_ref_fill(out, n_out, value, es);
  if (n_in == 0) return;
  tfcc_ref_strides(rank, out_dims, os);
  tfcc_ref_strides(rank, in_dims, is);
  for (int32_t d = 0; d < rank; d++) off += before[d] * os[d];
  tfcc_ref_copy_nd(rank, in_dims, in, 0, is, out, off, os, es);
}

/* TFLite mirror_pad.cc GetInputDimension. */
static int64_t mirror_index(int64_t o, int64_t left, int64_t size, int64_t offset) {
  if (o < left) {
    const int64_t orig = left + offset - 1;
    const int64_t m = orig - offset;
    return orig - (o < m ? o : m);
  }
  o -= left;
  if (o >= size) {
    o -= size;
    const int64_t orig = size - (1 + offset);
    return orig - (o < orig ? o : orig);
  }
  return o;
}

void tfcc_ref_mirror_pad(const void *in, int32_t rank, const int32_t *in_dims,
                         const int64_t *before, const int32_t *out_dims, bool symmetric, size_t es,
                         void *out) {
  int64_t is[16], total = 1;
  int32_t idx[16] = {0};
  for (int32_t d = 0; d < rank; d++) total *= out_dims[d];
  if (total == 0) return;
  tfcc_ref_strides(rank, in_dims, is);
  const int64_t offset = symmetric ? 0 : 1;
  const uint8_t *src = (const uint8_t *)in;
  uint8_t *dst = (uint8_t *)out;
  for (int64_t n = 0; n < total; n++) {
    int64_t from = 0;
    for (int32_t d = 0; d < rank; d++)
      from += mirror_index(idx[d], before[d], in_dims[d], offset) * is[d];
    memcpy(dst + (size_t)n * es, src + (size_t)from * es, es);
    for (int32_t d = rank - 1; d >= 0; d--) {
      if (++idx[d] < out_dims[d]) break;
      idx[d] = 0;
    }
  }
}

void tfcc_ref_space_to_batch(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                             int32_t block_h, int32_t block_w, int32_t pad_top, int32_t pad_left,
                             uint8_t pad_byte, size_t es, void *out) {
  const int32_t in_b = in_dims[0], in_h = in_dims[1], in_w = in_dims[2], depth = in_dims[3];
  const int32_t out_b = out_dims[0], out_h = out_dims[1], out_w = out_dims[2];
  const size_t row = (size_t)depth * es;
  const uint8_t *src = (const uint8_t *)in;
  uint8_t *dst = (uint8_t *)out;
  if (in_b == 0) return;
  for (int32_t b = 0; b < out_b; b++) {
    const int32_t ib = b % in_b;
    const int32_t shift_w = (b / in_b) % block_w, shift_h = (b / in_b) / block_w;
    for (int32_t h = 0; h < out_h; h++) {
      const int64_t y = (int64_t)h * block_h + shift_h - pad_top;
      for (int32_t w = 0; w < out_w; w++) {
        const int64_t x = (int64_t)w * block_w + shift_w - pad_left;
        uint8_t *o = dst + ((((size_t)b * out_h + h) * out_w + w)) * row;
        if (y < 0 || y >= in_h || x < 0 || x >= in_w)
          memset(o, pad_byte, row);
        else
          memcpy(o, src + ((((size_t)ib * in_h + (size_t)y) * in_w + (size_t)x)) * row, row);
      }
    }
  }
}

void tfcc_ref_batch_to_space(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                             int32_t block_h, int32_t block_w, int32_t crop_top, int32_t crop_left,
                             size_t es, void *out) {
  const int32_t in_b = in_dims[0], in_h = in_dims[1], in_w = in_dims[2], depth = in_dims[3];
  const int32_t out_b = out_dims[0], out_h = out_dims[1], out_w = out_dims[2];
  const size_t row = (size_t)depth * es;
  const uint8_t *src = (const uint8_t *)in;
  uint8_t *dst = (uint8_t *)out;
  if (out_b == 0) return;
  for (int32_t b = 0; b < in_b; b++) {
    const int32_t ob = b % out_b, spatial = b / out_b;
    const int32_t off_h = spatial / block_w, off_w = spatial % block_w;
    for (int32_t h = 0; h < in_h; h++) {
      const int64_t y = (int64_t)h * block_h + off_h - crop_top;
      if (y < 0 || y >= out_h) continue;
      for (int32_t w = 0; w < in_w; w++) {
        const int64_t x = (int64_t)w * block_w + off_w - crop_left;
        if (x < 0 || x >= out_w) continue;
        memcpy(dst + ((((size_t)ob * out_h + (size_t)y) * out_w + (size_t)x)) * row,
               src + ((((size_t)b * in_h + h) * in_w + w)) * row, row);
      }
    }
  }
}
