/* XNNPACK-exact float32 kernels, neon build of the portable bodies (xnn_f32_body.h, xnn_f32v_body.h). */
#define TFCC_XF_ISA neon
#define XF_W 4
#include "kernels/hybrid/xnn_f32_body.h"
#include "kernels/simd/f32v_neon.h"
#include "kernels/hybrid/xnn_f32v_body.h"
