/* f32 depthwise kernel, aarch64 NEON build of the portable body (dwconv_body.h). */
#define TFCC_DW_FN tfcc_f32_dwconv_neon
#include "kernels/f32-dwconv/dwconv_body.h"
