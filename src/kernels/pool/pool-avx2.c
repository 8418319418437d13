/* Pooling kernels, avx2 build of the portable body (pool_body.h). */
#define TFCC_POOL_FN tfcc_pool_avx2
#include "kernels/pool/pool_body.h"
