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
      from += tfcc_mirror_index(idx[d], before[d], in_dims[d], offset) * is[d];
    memcpy(dst + (size_t)n * es, src + (size_t)from * es, es);
    for (int32_t d = rank - 1; d >= 0; d--) {
      if (++idx[d] < out_dims[d]) break;
      idx[d] = 0;
    }
  }
}

/* SPACE_TO_BATCH_ND and its inverse walk the same pairs: batched pixel (b, h, w) is space
 * pixel (b % space_b, h * block_h + off_h - top, w * block_w + off_w - left) with
 * (off_h, off_w) = (b / space_b) / block_w, % block_w. to_batch: src is the space tensor, dst
 * the batched one (pad bytes where the space pixel is outside); else src is batched, dst space
 * (outside: dropped). */
static void space_batch_copy(const uint8_t *src, uint8_t *dst, const int32_t space_dims[4],
                             const int32_t batched_dims[4], int32_t block_h, int32_t block_w,
                             int32_t top, int32_t left, size_t es, bool to_batch,
                             uint8_t pad_byte) {
  const int32_t sp_b = space_dims[0], sp_h = space_dims[1], sp_w = space_dims[2];
  const int32_t bt_b = batched_dims[0], bt_h = batched_dims[1], bt_w = batched_dims[2];
  const size_t row = (size_t)space_dims[3] * es;
  if (sp_b == 0) return;
  for (int32_t b = 0; b < bt_b; b++) {
    const int32_t sb = b % sp_b, spatial = b / sp_b;
    const int32_t off_h = spatial / block_w, off_w = spatial % block_w;
    for (int32_t h = 0; h < bt_h; h++) {
      const int64_t y = (int64_t)h * block_h + off_h - top;
      const bool y_in = y >= 0 && y < sp_h;
      if (!y_in && !to_batch) continue;
      for (int32_t w = 0; w < bt_w; w++) {
        const int64_t x = (int64_t)w * block_w + off_w - left;
        const size_t bo = (((size_t)b * bt_h + h) * bt_w + w) * row;
        if (!y_in || x < 0 || x >= sp_w) {
          if (to_batch) memset(dst + bo, pad_byte, row);
          continue;
        }
        const size_t so = (((size_t)sb * sp_h + (size_t)y) * sp_w + (size_t)x) * row;
        if (to_batch)
          memcpy(dst + bo, src + so, row);
        else
          memcpy(dst + so, src + bo, row);
      }
    }
  }
}

void tfcc_ref_space_to_batch(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                             int32_t block_h, int32_t block_w, int32_t pad_top, int32_t pad_left,
                             uint8_t pad_byte, size_t es, void *out) {
  space_batch_copy(in, out, in_dims, out_dims, block_h, block_w, pad_top, pad_left, es, true,
                   pad_byte);
}

void tfcc_ref_batch_to_space(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                             int32_t block_h, int32_t block_w, int32_t crop_top, int32_t crop_left,
                             size_t es, void *out) {
  space_batch_copy(in, out, out_dims, in_dims, block_h, block_w, crop_top, crop_left, es, false, 0);
}
