/* f32 depthwise kernel, avx2 build of the portable body (dwconv_body.h). */
#define TFCC_DW_FN tfcc_f32_dwconv_avx2
#include "kernels/f32-dwconv/dwconv_body.h"
