/* f32 bilinear resize, NEON (aarch64) build of the shared body (resize_body.h). */
#include "kernels/simd/f32v_neon.h"
#define TFCC_F32_RESIZE_FN tfcc_f32_resize_neon
#define TFCC_F32_RESIZE_XNN_FN tfcc_f32_resize_xnn_neon
#include "kernels/f32-resize/resize_body.h"
