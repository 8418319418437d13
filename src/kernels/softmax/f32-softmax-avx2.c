/* float32 softmax row, AVX2 + FMA build of the shared body (f32_softmax_body.h). */
#include "kernels/simd/f32v_avx2.h"
#define TFCC_F32_SOFTMAX_FN tfcc_f32_softmax_avx2
#include "kernels/softmax/f32_softmax_body.h"
