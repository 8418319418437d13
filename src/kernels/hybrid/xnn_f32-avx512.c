/* XNNPACK-exact float32 kernels, avx512 build of the portable bodies (xnn_f32_body.h, xnn_f32v_body.h). */
#define TFCC_XF_ISA avx512
#define XF_W 16
#define XF_NB 2
#include "kernels/hybrid/xnn_f32_body.h"
#include "kernels/simd/f32v_avx512.h"
#include "kernels/hybrid/xnn_f32v_body.h"
