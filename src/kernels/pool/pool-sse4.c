/* Pooling kernels, sse4 build of the portable body (pool_body.h). */
#define TFCC_POOL_FN tfcc_pool_sse4
#include "kernels/pool/pool_body.h"
