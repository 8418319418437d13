/* Pooling kernels, scalar build of the portable body (pool_body.h). */
#define TFCC_POOL_FN tfcc_pool_scalar
#include "kernels/pool/pool_body.h"
