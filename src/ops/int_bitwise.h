/* Shared prepare/eval of the integer bitwise operators BITWISE_XOR and RIGHT_SHIFT (TFLite
 * bitwise_xor.cc, right_shift.cc): int8, uint8, int16, uint16, int32, uint32, both inputs and
 * the output of one dtype, numpy broadcasting. */
#ifndef TFCC_OPS_INT_BITWISE_H
#define TFCC_OPS_INT_BITWISE_H

#include "ops/op.h"

typedef enum tfcc_int_bitwise_kind {
  TFCC_INT_BITWISE_XOR,
  TFCC_INT_RIGHT_SHIFT /* arithmetic for signed, logical for unsigned; shift clamped to [0, bits-1] */
} tfcc_int_bitwise_kind;

tfcc_status tfcc_int_bitwise_prepare(tfcc_op_ctx *ctx, tfcc_int_bitwise_kind kind);
tfcc_status tfcc_int_bitwise_eval(tfcc_op_ctx *ctx, tfcc_int_bitwise_kind kind);

#endif
