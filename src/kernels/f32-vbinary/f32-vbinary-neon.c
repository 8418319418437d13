/* f32 elementwise, NEON (aarch64) build of the shared body (vbinary_body.h). */
#include "kernels/simd/f32v_neon.h"
#define TFCC_F32_VBINARY_FN tfcc_f32_vbinary_neon
#include "kernels/f32-vbinary/vbinary_body.h"
