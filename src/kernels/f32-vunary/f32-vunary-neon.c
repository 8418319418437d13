/* f32 activations, NEON (aarch64) build of the shared body (vunary_body.h). */
#include "kernels/simd/f32v_neon.h"
#define TFCC_F32_VUNARY_FN tfcc_f32_vunary_neon
#include "kernels/f32-vunary/vunary_body.h"
