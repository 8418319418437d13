/* Quantize kernels, wasm SIMD128 build of the portable body (quantize_body.h). */
#define TFCC_QZ_ISA wasmsimd
#include "kernels/quantize/quantize_body.h"
