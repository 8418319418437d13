/* ADD: fused activation; uint8/int8/int16 rescaled (add.cc), int16 power-of-two path. Broadcasting. */
#include "ops/binary_common.h"

TFCC_ARITH_OP_DEF(tfcc_op_add, "ADD", TFCC_ARITH_ADD);
