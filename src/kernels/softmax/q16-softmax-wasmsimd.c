/* int16 softmax rows, WebAssembly SIMD128 build of the shared body (q16_softmax_body.h): 4
 * lanes, the exp table's pairs loaded lane by lane (no gather). */
#include <wasm_simd128.h>

#include "kernels/simd/i32v_wasmsimd.h"

static inline i32v ld16(const int16_t *p) { return wasm_i32x4_load16x4(p); }
static inline void st16(int16_t *p, i32v x) {
  wasm_v128_store64_lane(p, wasm_i16x8_narrow_i32x4(x, x), 0);
}

#define TFCC_Q16_SOFTMAX_LANE_LUT
#define TFCC_Q16_SOFTMAX_FN tfcc_q16_softmax_wasmsimd
#include "kernels/softmax/q16_softmax_body.h"
