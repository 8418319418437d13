/* XNNPACK-exact float32 kernels, sse4 build of the portable bodies (xnn_f32_body.h, xnn_f32v_body.h). */
#define TFCC_XF_ISA sse4
#define XF_W 4
#include "kernels/hybrid/xnn_f32_body.h"
#include "kernels/simd/f32v_sse4.h"
#include "kernels/hybrid/xnn_f32v_body.h"
