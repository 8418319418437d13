/* Depth-multiplier expansion shared by the depthwise kernel families (f32-dwconv, q8-dwconv,
 * the hybrid depthwise's int16 input):
 * their micro-kernels read one input channel per output channel, so an input with
 * depth multiplier m > 1 is first copied to m * in_c channels. */
#ifndef TFCC_KERNELS_DW_EXPAND_H
#define TFCC_KERNELS_DW_EXPAND_H

#include <stddef.h>

struct tfcc_threadpool;

/* For each of `pixels` pixels: channel oc of out is channel oc / m of in (in_c channels in,
 * in_c * m out; elements of esize bytes, 1, 2 or 4). Split in eight pieces over pool (NULL:
 * inline). */
void tfcc_dw_expand_channels(struct tfcc_threadpool *pool, const void *in, void *out, size_t pixels,
                             size_t in_c, size_t m, size_t esize);

#endif
