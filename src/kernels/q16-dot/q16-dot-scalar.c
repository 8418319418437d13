/* int16 x int8 dot products and GEMV, scalar build of the shared bodies (dot_body.h, gemv_body.h). */
#define TFCC_Q16_DOT_FN tfcc_q16_dot_scalar
#include "kernels/q16-dot/dot_body.h"
#include "kernels/q16-dot/q16d_scalar.h"
#define TFCC_Q16_GEMV_FN tfcc_q16_gemv_scalar
#include "kernels/q16-dot/gemv_body.h"
