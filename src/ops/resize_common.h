/* Shared prepare logic of RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR: 4-D input, known int32
 * size [2] with positive entries, output [batch, size[0], size[1], depth]. */
#ifndef TFCC_OPS_RESIZE_COMMON_H
#define TFCC_OPS_RESIZE_COMMON_H

#include "kernels/ref/resize.h"
#include "ops/op.h"

tfcc_status tfcc_resize_prepare_common(tfcc_op_ctx *ctx, const char *op, const int *dtypes,
                                       bool align_corners, bool half_pixel);
void tfcc_resize_shape_of(const tfcc_op_ctx *ctx, tfcc_resize_shape *s);

#endif
