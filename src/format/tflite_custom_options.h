/* Custom operators' options (FlexBuffer maps in Operator.custom_options) -> typed operator
 * options (ir/op_options.h), for the custom operators tfcc implements that take options.
 *
 * The loader calls it once per custom operator, after reading its options bytes; unit tests
 * that build a node around hand-made options bytes call it to fill the node's options the
 * same way. Operators read only the typed struct. */
#ifndef TFCC_FORMAT_TFLITE_CUSTOM_OPTIONS_H
#define TFCC_FORMAT_TFLITE_CUSTOM_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "ir/op_options.h"

/* Reads the custom options bytes [data, data + len) of a custom operator named custom_code
 * into *out. TFLite_Detection_PostProcess: a FlexBuffer map, verified, every key checked
 * (range, finiteness, required keys), kind TFCC_OPTIONS_DETECTION_POSTPROCESS; errors
 * (TFCC_ERR_INVALID_MODEL) name the key ("custom options: max_detections = 0, expected
 * 1..65536"); the caller prefixes the operator. Other names: *out is left as it is (kind
 * TFCC_OPTIONS_NONE), the bytes stay the operator's own. */
tfcc_status tfl_read_custom_options(const char *custom_code, const uint8_t *data, size_t len,
                                    tfcc_op_options *out, tfcc_err *err);

#endif
