/* Sum kernels, scalar build of the portable body (reduce_body.h). */
#define TFCC_RSUM_ISA scalar
#include "kernels/reduce/reduce_body.h"
