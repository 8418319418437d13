/* Fast hybrid depthwise convolution, scalar build of the portable body (dwconv_body.h). */
#define TFCC_HD_ISA scalar
#include "kernels/hybrid/dwconv_body.h"
