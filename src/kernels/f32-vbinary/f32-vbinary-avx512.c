/* f32 elementwise, AVX-512 build of the shared body (vbinary_body.h). */
#include "kernels/simd/f32v_avx512.h"
#define TFCC_F32_VBINARY_FN tfcc_f32_vbinary_avx512
#include "kernels/f32-vbinary/vbinary_body.h"
