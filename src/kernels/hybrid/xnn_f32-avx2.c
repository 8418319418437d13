/* XNNPACK-exact float32 kernels, avx2 build of the portable bodies (xnn_f32_body.h, xnn_f32v_body.h). */
#define TFCC_XF_ISA avx2
#define XF_W 8
#include "kernels/hybrid/xnn_f32_body.h"
#include "kernels/simd/f32v_avx2.h"
#include "kernels/hybrid/xnn_f32v_body.h"
