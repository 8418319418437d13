/* Pooling kernels, wasm SIMD128 build of the portable body (pool_body.h). */
#define TFCC_POOL_FN tfcc_pool_wasmsimd
#include "kernels/pool/pool_body.h"
