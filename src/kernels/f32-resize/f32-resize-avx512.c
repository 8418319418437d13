/* f32 bilinear resize, AVX-512 build of the shared body (resize_body.h). */
#include "kernels/simd/f32v_avx512.h"
#define TFCC_F32_RESIZE_FN tfcc_f32_resize_avx512
#define TFCC_F32_RESIZE_XNN_FN tfcc_f32_resize_xnn_avx512
#include "kernels/f32-resize/resize_body.h"
