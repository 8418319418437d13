/* Loading custom-operator plugins (docs/custom_ops.md, "Plugins") for the hosts that offer it:
 * the tfcc command (--custom-ops), tfcc serve (runtime.custom_ops) and the Python package
 * (custom_op_libraries). A small library of its own, so that the core keeps to libc, libm and
 * pthreads (dlopen lives here). */
#ifndef TFCC_TOOLS_PLUGIN_LOAD_H
#define TFCC_TOOLS_PLUGIN_LOAD_H

#include <stddef.h>

#include "tfcc/tfcc.h"

/* dlopens path (RTLD_NOW | RTLD_LOCAL; a name without '/' is searched as dlopen searches),
 * finds TFCC_CUSTOM_OPS_REGISTER_SYMBOL and calls it on rt with this tfcc's tfcc_custom_api.
 * The library stays loaded for the life of the process (its operators outlive any runtime).
 * Returns TFCC_OK, or an error status with err (n bytes) naming the library and the cause:
 *   "plugin LIB: cannot load: <dlerror>"                             TFCC_ERR_NOT_FOUND
 *   "plugin LIB: no function tfcc_custom_ops_register (<dlerror>) ..." TFCC_ERR_UNSUPPORTED
 *   "plugin LIB: tfcc_custom_ops_register failed (<status>): <message>" its status */
tfcc_status tfcc_plugin_load(tfcc_runtime *rt, const char *path, char *err, size_t n);

/* Calls a registration function already in the process (Python's custom_op_registerers) as
 * tfcc_plugin_load calls a library's; `what` names it in err. */
tfcc_status tfcc_plugin_call(tfcc_runtime *rt, tfcc_custom_ops_register_fn fn, const char *what,
                             char *err, size_t n);
/* The function of that name in the process's global scope (dlsym(RTLD_DEFAULT): the program
 * and libraries loaded RTLD_GLOBAL), or NULL. */
tfcc_custom_ops_register_fn tfcc_plugin_find(const char *name);

#endif
