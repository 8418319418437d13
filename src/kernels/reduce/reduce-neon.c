/* Sum kernels, neon build of the portable body (reduce_body.h). */
#define TFCC_RSUM_ISA neon
#include "kernels/reduce/reduce_body.h"
