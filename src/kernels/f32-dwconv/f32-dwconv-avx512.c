/* f32 depthwise kernel, AVX-512 build of the portable body (dwconv_body.h): 32-channel
 * blocks are two zmm accumulators. */
#define TFCC_DW_FN tfcc_f32_dwconv_avx512
#include "kernels/f32-dwconv/dwconv_body.h"
