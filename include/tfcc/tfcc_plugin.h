/* The plugin side of tfcc's custom-operator plugins (docs/custom_ops.md, "Plugins").
 *
 * A plugin is a shared library that exports one function, tfcc_custom_ops_register
 * (TFCC_CUSTOM_OPS_REGISTER_SYMBOL, type tfcc_custom_ops_register_fn): the host (tfcc run /
 * bench / inspect / serve --custom-ops, the Python package's custom_op_libraries) dlopens it
 * and calls that function once per runtime with a table of its own tfcc functions
 * (tfcc_custom_api). The plugin does not link libtfcc: it calls the tfcc that loads it, whether
 * that is libtfcc.so or a copy linked statically into the host.
 *
 * Write the operators against tfcc/tfcc.h as in a program, compile every source file of the
 * plugin with -DTFCC_CUSTOM_OPS_PLUGIN (tfcc.h's functions are then hidden symbols of the
 * plugin), and in exactly one file:
 *
 *     #include <tfcc/tfcc_plugin.h>
 *     static tfcc_status register_all(tfcc_runtime *rt) {
 *       ... tfcc_runtime_register_custom_op(rt, &op) ...
 *     }
 *     TFCC_CUSTOM_OPS_PLUGIN_ENTRY(register_all)
 *
 * This header defines, inside the plugin, the functions of tfcc.h a custom operator uses:
 * tfcc_runtime_register_custom_op, tfcc_runtime_custom_op_count, tfcc_custom_op_default,
 * tfcc_custom_op_error, tfcc_custom_output_resize, tfcc_last_error, tfcc_status_str,
 * tfcc_dtype_name, tfcc_dtype_size and tfcc_version, each through the host's table; a plugin
 * that calls any other tfcc function fails to link ("hidden symbol ... is not defined"). */
#ifndef TFCC_TFCC_PLUGIN_H
#define TFCC_TFCC_PLUGIN_H

#ifndef TFCC_CUSTOM_OPS_PLUGIN
#error "compile custom-operator plugins with -DTFCC_CUSTOM_OPS_PLUGIN (tfcc/tfcc_plugin.h)"
#endif

#include <stdarg.h>
#include <string.h>

#include "tfcc/tfcc.h"

/* The host's table, set by the entry point before the plugin's registration runs. */
static const tfcc_custom_api *tfcc_plugin_api_;

/* The table must reach up to its last field this header uses. */
#define TFCC_PLUGIN_API_NEEDED_ (offsetof(tfcc_custom_api, version) + sizeof(void *))

tfcc_status tfcc_runtime_register_custom_op(tfcc_runtime *rt, const tfcc_custom_op *op) {
  return tfcc_plugin_api_->register_custom_op(rt, op);
}
int tfcc_runtime_custom_op_count(const tfcc_runtime *rt) {
  return tfcc_plugin_api_->custom_op_count(rt);
}
/* the plugin's own: it sets the size of the struct as the plugin was compiled */
void tfcc_custom_op_default(tfcc_custom_op *op) {
  if (!op) return;
  memset(op, 0, sizeof *op);
  op->struct_size = sizeof *op;
}
tfcc_status tfcc_custom_op_error(tfcc_custom_ctx *ctx, tfcc_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tfcc_status st = tfcc_plugin_api_->custom_op_verror(ctx, code, fmt, ap);
  va_end(ap);
  return st;
}
tfcc_status tfcc_custom_output_resize(tfcc_custom_ctx *ctx, int32_t output, int32_t rank,
                                      const int32_t *dims) {
  return tfcc_plugin_api_->custom_output_resize(ctx, output, rank, dims);
}
const char *tfcc_last_error(void) { return tfcc_plugin_api_->last_error(); }
const char *tfcc_status_str(tfcc_status s) { return tfcc_plugin_api_->status_str(s); }
const char *tfcc_dtype_name(tfcc_dtype t) { return tfcc_plugin_api_->dtype_name(t); }
size_t tfcc_dtype_size(tfcc_dtype t) { return tfcc_plugin_api_->dtype_size(t); }
const char *tfcc_version(void) { return tfcc_plugin_api_->version(); }

/* Defines the exported entry point around fn, a tfcc_status fn(tfcc_runtime *rt) that
 * registers the plugin's operators. A host whose table is older than this header is refused
 * with TFCC_ERR_UNSUPPORTED. */
#define TFCC_CUSTOM_OPS_PLUGIN_ENTRY(fn) \
  __attribute__((visibility("default"))) tfcc_status tfcc_custom_ops_register( \
      tfcc_runtime *rt, const tfcc_custom_api *api); \
  __attribute__((visibility("default"))) tfcc_status tfcc_custom_ops_register( \
      tfcc_runtime *rt, const tfcc_custom_api *api) { \
    if (!rt || !api) return TFCC_ERR_INVALID_ARG; \
    if (api->struct_size < TFCC_PLUGIN_API_NEEDED_) return TFCC_ERR_UNSUPPORTED; \
    tfcc_plugin_api_ = api; \
    return fn(rt); \
  }

#endif
