/* f32 direct convolution, avx2 build of the portable body (direct_conv_body.h). */
#define TFCC_DC_FN tfcc_f32_direct_conv_16_avx2
#define TFCC_DC_NR 16
#define TFCC_DC_FMA 1
#include "kernels/f32-conv-direct/direct_conv_body.h"
