/* Pooling kernels, avx512 build of the portable body (pool_body.h). */
#define TFCC_POOL_FN tfcc_pool_avx512
#include "kernels/pool/pool_body.h"
