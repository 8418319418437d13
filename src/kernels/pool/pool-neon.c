/* Pooling kernels, neon build of the portable body (pool_body.h). */
#define TFCC_POOL_FN tfcc_pool_neon
#include "kernels/pool/pool_body.h"
