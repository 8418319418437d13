/* Sum kernels, wasm SIMD128 build of the portable body (reduce_body.h). */
#define TFCC_RSUM_ISA wasmsimd
#include "kernels/reduce/reduce_body.h"
