/* f32 Winograd tile transforms, wasm SIMD128 build of the portable body (wino_body.h). */
#define TFCC_WINO_ISA wasmsimd
#define TFCC_WINO_VW 4
#include "kernels/f32-winograd/wino_body.h"
