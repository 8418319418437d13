/* SUB: fused activation; quantized as ADD with the second multiplier negated (sub.cc). Broadcasting. */
#include "ops/binary_common.h"

TFCC_ARITH_OP_DEF(tfcc_op_sub, "SUB", TFCC_ARITH_SUB);
