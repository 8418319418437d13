/* q8 bilinear resize, AVX-512: 16 channels per step in int32 lanes (kernels/q8-resize/
 * channels_i32v.h), masked channel tails. */
#include "kernels/simd/i32v_avx512.h"
#include "kernels/q8-resize/channels_i32v.h"

#define TFCC_Q8_RESIZE_FN tfcc_q8_resize_avx512
#include "kernels/q8-resize/resize_body.h"
