/* ADD: fused activation; uint8/int8/int16 rescaled (add.cc), int16 power-of-two path; float16
 * (v6) in float32 arithmetic rounded to half, as TFLite's half type. Broadcasting. */
#include "ops/binary_common.h"

TFCC_ARITH_OP_DEF(tfcc_op_add, "ADD", TFCC_ARITH_ADD);
