/* f32 depthwise kernel, scalar build of the portable body (dwconv_body.h). */
#define TFCC_DW_FN tfcc_f32_dwconv_scalar
#include "kernels/f32-dwconv/dwconv_body.h"
