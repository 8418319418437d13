/* Sum kernels, avx2 build of the portable body (reduce_body.h). */
#define TFCC_RSUM_ISA avx2
#include "kernels/reduce/reduce_body.h"
