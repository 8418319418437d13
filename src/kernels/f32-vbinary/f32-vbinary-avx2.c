/* f32 elementwise, AVX2 build of the shared body (vbinary_body.h). */
#include "kernels/simd/f32v_avx2.h"
#define TFCC_F32_VBINARY_FN tfcc_f32_vbinary_avx2
#include "kernels/f32-vbinary/vbinary_body.h"
