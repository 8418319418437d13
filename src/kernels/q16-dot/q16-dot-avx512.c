/* int16 x int8 dot products, avx512 build of the shared body (dot_body.h). */
#define TFCC_Q16_DOT_FN tfcc_q16_dot_avx512
#include "kernels/q16-dot/dot_body.h"
