/* RESIZE_NEAREST_NEIGHBOR as pixel copies: the same bytes as tfcc_ref_resize_nearest
 * (kernels/ref/resize.h, its reference twin), for any element size. The source column of each
 * output column (the reference's coordinates, tfcc_ref_resize_nearest_coord) is a table built
 * once per run; an output row whose source row is the previous output row's (upsampling) is a
 * memcpy of that finished row; other rows copy their pixels as fixed-size moves (1..64 bytes)
 * or memcpy. Nothing is allocated but the caller's scratch. Portable C. */
#ifndef TFCC_KERNELS_MOVE_RESIZE_NEAREST_H
#define TFCC_KERNELS_MOVE_RESIZE_NEAREST_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/ref/resize.h"

/* Scratch bytes for the column table (8-byte aligned). */
size_t tfcc_move_resize_nearest_scratch_bytes(const tfcc_resize_shape *s);

/* Arguments as tfcc_ref_resize_nearest, plus scratch. Input and output must not overlap. */
void tfcc_move_resize_nearest(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                              size_t es, const void *in, void *out, void *scratch);

#endif
