/* f32 bilinear resize, portable C build of the shared body (resize_body.h) with one lane. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* separately rounded multiply and add, as the reference */
#endif

#include "kernels/simd/f32v_scalar.h"
#define TFCC_F32_RESIZE_FN tfcc_f32_resize_scalar
#define TFCC_F32_RESIZE_XNN_FN tfcc_f32_resize_xnn_scalar
#include "kernels/f32-resize/resize_body.h"
