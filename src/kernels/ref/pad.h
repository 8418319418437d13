/* Padding kernels: constant pad, mirror pad, and the 4-D SPACE_TO_BATCH_ND /
 * BATCH_TO_SPACE_ND rearrangements (TFLite reference semantics). Elements are es bytes. */
#ifndef TFCC_KERNELS_REF_PAD_H
#define TFCC_KERNELS_REF_PAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* out (out_dims) = value everywhere, in placed at offset `before` per dimension. */
void tfcc_ref_pad_const(const void *in, int32_t rank, const int32_t *in_dims, const int64_t *before,
                        const int32_t *out_dims, const void *value, size_t es, void *out);

/* The input index of output index o along a dimension of `size` with `left` padding before it,
 * offset 1 (REFLECT) or 0 (SYMMETRIC): TFLite mirror_pad.cc GetInputDimension. Shared by
 * tfcc_ref_mirror_pad and its block-copy twin (kernels/move/mirror_pad.h). */
static inline int64_t tfcc_mirror_index(int64_t o, int64_t left, int64_t size, int64_t offset) {
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

/* MIRROR_PAD: REFLECT (symmetric = false, edge not repeated) or SYMMETRIC. Index mapping is
 * TFLite's GetInputDimension. Paddings must be <= dim - 1 (REFLECT) or <= dim (SYMMETRIC). */
void tfcc_ref_mirror_pad(const void *in, int32_t rank, const int32_t *in_dims,
                         const int64_t *before, const int32_t *out_dims, bool symmetric, size_t es,
                         void *out);

/* SPACE_TO_BATCH_ND on NHWC (3-D inputs are passed as [N, H, 1, C] with block_w 1, pad_left 0).
 * Padding positions are memset to the byte pad_byte (TFLite memsets the output zero point). */
void tfcc_ref_space_to_batch(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                             int32_t block_h, int32_t block_w, int32_t pad_top, int32_t pad_left,
                             uint8_t pad_byte, size_t es, void *out);

/* BATCH_TO_SPACE_ND on NHWC (same 3-D convention, crops_left 0). */
void tfcc_ref_batch_to_space(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                             int32_t block_h, int32_t block_w, int32_t crop_top, int32_t crop_left,
                             size_t es, void *out);

#endif
