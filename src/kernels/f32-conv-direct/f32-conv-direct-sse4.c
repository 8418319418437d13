/* f32 direct convolution, sse4 build of the portable body (direct_conv_body.h). */
#define TFCC_DC_FN tfcc_f32_direct_conv_8_sse4
#define TFCC_DC_NR 8
#include "kernels/f32-conv-direct/direct_conv_body.h"
