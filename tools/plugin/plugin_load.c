#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT */
#endif
#include "plugin_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The message of the last registration that failed during this thread's plugin call (the
 * plugin's status alone would not say which operator or why). */
static _Thread_local char t_msg[512];

static tfcc_status register_noting(tfcc_runtime *rt, const tfcc_custom_op *op) {
  tfcc_status st = tfcc_runtime_register_custom_op(rt, op);
  if (st != TFCC_OK) snprintf(t_msg, sizeof t_msg, "%s", tfcc_last_error());
  return st;
}

/* The table plugins keep (for their operators' calls while models run): static, filled once. */
static tfcc_custom_api g_api;
static pthread_once_t g_api_once = PTHREAD_ONCE_INIT;

static void api_init(void) {
  tfcc_custom_api_get(&g_api);
  g_api.register_custom_op = register_noting;
}

tfcc_status tfcc_plugin_call(tfcc_runtime *rt, tfcc_custom_ops_register_fn fn, const char *what,
                             char *err, size_t n) {
  if (!rt || !fn) {
    snprintf(err, n, "plugin %s: %s", what ? what : "",
             !rt ? "no runtime" : "no registration function");
    return TFCC_ERR_INVALID_ARG;
  }
  pthread_once(&g_api_once, api_init);
  t_msg[0] = '\0';
  tfcc_status st = fn(rt, &g_api);
  if (st != TFCC_OK) {
    const char *msg = t_msg[0] ? t_msg
                      : st == TFCC_ERR_UNSUPPORTED
                          ? "the plugin may need a newer tfcc (its custom-operator table)"
                          : "";
    snprintf(err, n, "plugin %s: " TFCC_CUSTOM_OPS_REGISTER_SYMBOL " failed (%s)%s%s", what,
             tfcc_status_str(st), msg[0] ? ": " : "", msg);
  }
  return st;
}

tfcc_status tfcc_plugin_load(tfcc_runtime *rt, const char *path, char *err, size_t n) {
  if (!rt || !path || !path[0]) {
    snprintf(err, n, "plugin: %s", !rt ? "no runtime" : "empty library path");
    return TFCC_ERR_INVALID_ARG;
  }
  dlerror();
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    snprintf(err, n, "plugin %s: cannot load: %s", path, why ? why : "dlopen failed");
    return TFCC_ERR_NOT_FOUND;
  }
  dlerror();
  void *sym = dlsym(lib, TFCC_CUSTOM_OPS_REGISTER_SYMBOL);
  const char *why = dlerror();
  if (why || !sym) {
    snprintf(err, n,
             "plugin %s: no function " TFCC_CUSTOM_OPS_REGISTER_SYMBOL
             " (%s): not a tfcc custom-operator "
             "plugin (docs/custom_ops.md, \"Plugins\")",
             path, why ? why : "the symbol is NULL");
    dlclose(lib);
    return TFCC_ERR_UNSUPPORTED;
  }
  tfcc_custom_ops_register_fn fn;
  memcpy(&fn, &sym, sizeof fn); /* object pointer to function pointer, as POSIX dlsym allows */
  const int before = tfcc_runtime_custom_op_count(rt);
  tfcc_status st = tfcc_plugin_call(rt, fn, path, err, n);
  /* kept loaded when it registered anything (its operators point into it); never closed after
   * a success */
  if (st != TFCC_OK && tfcc_runtime_custom_op_count(rt) == before) dlclose(lib);
  return st;
}

tfcc_custom_ops_register_fn tfcc_plugin_find(const char *name) {
  if (!name || !name[0]) return NULL;
  void *sym = dlsym(RTLD_DEFAULT, name);
  tfcc_custom_ops_register_fn fn = NULL;
  if (sym) memcpy(&fn, &sym, sizeof fn);
  return fn;
}
