/* SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND as planned copies: the same bytes as
 * tfcc_ref_space_to_batch / tfcc_ref_batch_to_space (kernels/ref/pad.h, their reference twins),
 * for any element size.
 *
 * The batched tensor [block_h * block_w * B, H', W', C] is a transpose of a reshaped view of the
 * (padded or cropped) space tensor [B, H' * block_h, W' * block_w, C]: batch block (i, j) holds
 * the space pixels (h * block_h + i - top, w * block_w + j - left). Each block is one 4-D box
 * copy [B, rows, cols, C] (kernels/move's plan: runs of C elements, or a transpose / strided
 * copy when C is 1), over the rows and columns whose space pixel is inside; SPACE_TO_BATCH_ND
 * fills the rest of the block (padding) with the pad byte, row by row, and BATCH_TO_SPACE_ND
 * drops it (cropping). Nothing is allocated. Portable C. */
#ifndef TFCC_KERNELS_MOVE_SPACE_BATCH_H
#define TFCC_KERNELS_MOVE_SPACE_BATCH_H

#include <stddef.h>
#include <stdint.h>

/* Arguments as tfcc_ref_space_to_batch: in_dims the space [B, H, W, C], out_dims the batched
 * [block_h * block_w * B, (H + pads) / block_h, (W + pads) / block_w, C]. */
void tfcc_move_space_to_batch(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                              int32_t block_h, int32_t block_w, int32_t pad_top, int32_t pad_left,
                              uint8_t pad_byte, size_t es, void *out);

/* Arguments as tfcc_ref_batch_to_space: in_dims the batched tensor, out_dims the space one. */
void tfcc_move_batch_to_space(const void *in, const int32_t in_dims[4], const int32_t out_dims[4],
                              int32_t block_h, int32_t block_w, int32_t crop_top, int32_t crop_left,
                              size_t es, void *out);

/* Kernel name for the profile: the plan kind of the first block's copy ("move-runs", ...). */
const char *tfcc_move_space_batch_kind(const int32_t space_dims[4], const int32_t batched_dims[4],
                                       int32_t block_h, int32_t block_w, size_t es);

#endif
