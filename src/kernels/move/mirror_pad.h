/* MIRROR_PAD as block copies: the same bytes as tfcc_ref_mirror_pad (kernels/ref/pad.h, its
 * reference twin), which computes every output element's source index dimension by dimension.
 *
 * Trailing dimensions without padding are merged into the copied unit (NHWC images padded in H
 * and W copy whole pixels). Then, outermost dimension first, the input's rows are written into
 * the middle of the output, and each padded row of a dimension is a copy of the output row it
 * mirrors (already complete): one memcpy of the whole row block. Along the innermost padded
 * dimension the padding units are single moves and the input row one memcpy. Nothing is
 * allocated; recursion depth is the rank. Portable C, no ISA-specific code. */
#ifndef TFCC_KERNELS_MOVE_MIRROR_PAD_H
#define TFCC_KERNELS_MOVE_MIRROR_PAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Arguments as tfcc_ref_mirror_pad: rank <= 16, out_dims[d] = in_dims[d] + before[d] + after[d],
 * paddings <= dim - 1 (REFLECT, symmetric false) or <= dim (SYMMETRIC); es any element size.
 * Input and output must not overlap. */
void tfcc_move_mirror_pad(const void *in, int32_t rank, const int32_t *in_dims,
                          const int64_t *before, const int32_t *out_dims, bool symmetric, size_t es,
                          void *out);

#endif
