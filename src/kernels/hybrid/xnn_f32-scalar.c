/* XNNPACK-exact float32 kernels, scalar build of the portable body (xnn_f32_body.h). */
#define TFCC_XF_ISA scalar
#define XF_W 4
#include "kernels/hybrid/xnn_f32_body.h"
