/* Sum kernels, sse4 build of the portable body (reduce_body.h). */
#define TFCC_RSUM_ISA sse4
#include "kernels/reduce/reduce_body.h"
