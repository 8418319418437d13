/* q8 bilinear resize, AVX2: 8 channels per step in int32 lanes (kernels/q8-resize/
 * channels_i32v.h), tails through an 8-byte buffer. */
#include "kernels/simd/i32v_avx2.h"
#include "kernels/q8-resize/channels_i32v.h"

#define TFCC_Q8_RESIZE_FN tfcc_q8_resize_avx2
#include "kernels/q8-resize/resize_body.h"
