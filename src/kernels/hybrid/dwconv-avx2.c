/* Fast hybrid depthwise convolution, avx2 build of the portable body (dwconv_body.h). */
#define TFCC_HD_ISA avx2
#include "kernels/hybrid/dwconv_body.h"
