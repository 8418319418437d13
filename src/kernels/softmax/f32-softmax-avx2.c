/* float32 softmax rows, AVX2 + FMA build of the shared body (f32_softmax_body.h). */
#include "kernels/simd/f32v_avx2.h"
#define TFCC_F32_SOFTMAX_FN tfcc_f32_softmax_avx2
#define TFCC_F32_SOFTMAX_EXPF tfcc_expf_f32_avx2
#include "kernels/softmax/f32_softmax_body.h"
