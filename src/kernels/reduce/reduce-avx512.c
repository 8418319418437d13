/* Sum kernels, avx512 build of the portable body (reduce_body.h). */
#define TFCC_RSUM_ISA avx512
#include "kernels/reduce/reduce_body.h"
