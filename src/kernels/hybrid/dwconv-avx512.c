/* Fast hybrid depthwise convolution, avx512 build of the portable body (dwconv_body.h). */
#define TFCC_HD_ISA avx512
#define HD_PX 4
#include "kernels/hybrid/dwconv_body.h"
