/* StableHLO elementwise binary kernels (reference) for TFLite's STABLEHLO_ADD, _MULTIPLY,
 * _MAXIMUM, _MINIMUM, _AND and _SHIFT_LEFT (stablehlo_elementwise.h, stablehlo_shift_left.cc):
 * two inputs and the output of one dtype and one shape, no broadcasting, no quantization.
 *   ADD, MUL      integers wrap (computed unsigned, as TFLite's C++ promotions and the hardware
 *                 give); floats in their own precision
 *   MAX, MIN      std::max / std::min: max(a, b) = a < b ? b : a, min(a, b) = b < a ? b : a
 *                 (a NaN first operand is kept, a NaN second operand is dropped)
 *   AND           bitwise; bool is logical and
 *   SHL           x << s on the value promoted to 32 bits, the shift taken modulo 32 (the
 *                 masking of x86 and WebAssembly's 32-bit shifts, which TFLite's `<<` compiles
 *                 to), truncated back to the dtype */
#ifndef TFCC_KERNELS_REF_SHLO_BINARY_H
#define TFCC_KERNELS_REF_SHLO_BINARY_H

#include <stdbool.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

typedef enum tfcc_shlo_binop {
  TFCC_SHLO_ADD,
  TFCC_SHLO_MUL,
  TFCC_SHLO_MAX,
  TFCC_SHLO_MIN,
  TFCC_SHLO_AND,
  TFCC_SHLO_SHL
} tfcc_shlo_binop;

/* Whether the kernel exists for (op, dtype):
 *   ADD, MUL, MAX, MIN  float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
 *                       uint64 (float16: computed in float32, rounded to half, as Eigen::half)
 *   AND                 bool and the integer dtypes above
 *   SHL                 int8, int16, int32 */
bool tfcc_ref_shlo_binary_supported(tfcc_shlo_binop op, tfcc_dtype dt);

/* out[i] = a[i] op b[i], i < n. Returns false when (op, dt) has no kernel. */
bool tfcc_ref_shlo_binary(tfcc_shlo_binop op, tfcc_dtype dt, const void *a, const void *b,
                          void *out, int64_t n);

#endif
