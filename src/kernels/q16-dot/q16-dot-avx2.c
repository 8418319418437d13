/* int16 x int8 dot products and GEMV, avx2 build of the shared bodies (dot_body.h, gemv_body.h). */
#define TFCC_Q16_DOT_FN tfcc_q16_dot_avx2
#include "kernels/q16-dot/dot_body.h"
#include "kernels/q16-dot/q16d_avx2.h"
#define TFCC_Q16_GEMV_FN tfcc_q16_gemv_avx2
#include "kernels/q16-dot/gemv_body.h"
