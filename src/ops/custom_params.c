/* Init of a custom operator known by name (contract in custom_params.h). */
#include "ops/custom_params.h"

#include <stdlib.h>

tfcc_status tfcc_custom_params_new(tfcc_init_ctx *ctx, tfcc_options_kind kind, const char *keys,
                                   size_t size) {
  if (ctx->node->opts.kind != kind)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "no custom options (a FlexBuffer map of %s is required)", keys);
  void *p = calloc(1, size);
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory");
  ctx->params = p;
  return TFCC_OK;
}
