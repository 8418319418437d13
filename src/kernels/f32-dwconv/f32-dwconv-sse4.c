/* f32 depthwise kernel, sse4 build of the portable body (dwconv_body.h). */
#define TFCC_DW_FN tfcc_f32_dwconv_sse4
#include "kernels/f32-dwconv/dwconv_body.h"
