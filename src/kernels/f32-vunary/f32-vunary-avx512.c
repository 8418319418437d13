/* f32 activations, AVX-512 build of the shared body (vunary_body.h). */
#include "kernels/simd/f32v_avx512.h"
#define TFCC_F32_VUNARY_FN tfcc_f32_vunary_avx512
#include "kernels/f32-vunary/vunary_body.h"
