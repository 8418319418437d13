/* f32 activations, AVX2 + FMA build of the shared body (vunary_body.h). */
#include "kernels/simd/f32v_avx2.h"
#define TFCC_F32_VUNARY_FN tfcc_f32_vunary_avx2
#include "kernels/f32-vunary/vunary_body.h"
