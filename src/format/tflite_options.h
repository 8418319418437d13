/* TFLite builtin options tables -> typed operator options (ir/op_options.h).
 *
 * This is the only code that knows the options tables' field numbers. The loader calls it
 * once per operator; unit tests that build a node around a hand-made options table call it
 * to fill the node's options the same way. */
#ifndef TFCC_FORMAT_TFLITE_OPTIONS_H
#define TFCC_FORMAT_TFLITE_OPTIONS_H

#include <stdint.h>

#include "base/err.h"
#include "format/fb.h"
#include "ir/op_options.h"

/* Verifies and reads the options table t of an operator with code `builtin` into *out
 * (kind tfcc_options_kind_of(builtin), schema defaults for absent fields; an absent table,
 * t == NULL or t->buf == NULL, gives all defaults). `type` is the table's BuiltinOptions
 * union type: it must be the one the operator takes, or 0 (a hand-built node's table taken
 * as that type). The values are checked (enums in range, strides and dilations positive);
 * errors (TFCC_ERR_INVALID_MODEL, or TFCC_ERR_UNSUPPORTED for an unknown padding) name the
 * table and the field; the caller prefixes the operator. */
tfcc_status tfl_read_options(int32_t builtin, uint8_t type, const tfcc_fb_table *t,
                             tfcc_op_options *out, tfcc_err *err);

/* The same for the operator's BuiltinOptions2 table (StableHLO operators), read after
 * tfl_read_options into the same *out: a no-op for operators without such options. */
tfcc_status tfl_read_options2(int32_t builtin, uint8_t type, const tfcc_fb_table *t,
                              tfcc_op_options *out, tfcc_err *err);

#endif
