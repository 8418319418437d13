/* float32 softmax rows, NEON (aarch64) build of the shared body (f32_softmax_body.h). */
#include "kernels/simd/f32v_neon.h"
#define TFCC_F32_SOFTMAX_FN tfcc_f32_softmax_neon
#define TFCC_F32_SOFTMAX_EXPF tfcc_expf_f32_neon
#include "kernels/softmax/f32_softmax_body.h"
