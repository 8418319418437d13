/* MUL: fused activation; quantized multiplier s1*s2/so in float (mul.cc); float16 (v8) in
 * float32 arithmetic rounded to half, as TFLite's half type. Broadcasting. */
#include "ops/binary_common.h"

TFCC_ARITH_OP_DEF(tfcc_op_mul, "MUL", TFCC_ARITH_MUL);
