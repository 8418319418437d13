/* Init of a custom operator known by name (AudioSpectrogram, Mfcc, NumericVerify), whose custom
 * options the reader verified into the node's typed options (format/tflite_custom_options.c). */
#ifndef TFCC_OPS_CUSTOM_PARAMS_H
#define TFCC_OPS_CUSTOM_PARAMS_H

#include "ops/op.h"

/* Fails (invalid model) naming the FlexBuffer keys the operator requires when the node carries
 * no options of `kind` (the file had none); else sets ctx->params to `size` zeroed bytes for the
 * operator to fill from ctx->node->opts. */
tfcc_status tfcc_custom_params_new(tfcc_init_ctx *ctx, tfcc_options_kind kind, const char *keys,
                                   size_t size);

#endif
