/* XNNPACK-exact float32 kernels, avx2 build of the portable body (xnn_f32_body.h). */
#define TFCC_XF_ISA avx2
#define XF_W 8
#include "kernels/hybrid/xnn_f32_body.h"
