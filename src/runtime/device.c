/* Loading an accelerator backend (runtime/device_backend.h) at run time. */
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define TFCC_DEVICE_DLOPEN 1
#include <dlfcn.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/device_backend.h"
#include "runtime/internal.h"

#ifdef TFCC_DEVICE_DLOPEN
static void log_line(const tfcc_logger *log, tfcc_log_level level, const char *tag,
                     const char *message) {
  tfcc_log(log, level, tag, "%s", message);
}

static tfcc_status run_cpu_node(tfcc_exec_plan *p, tfcc_exec_node *en, tfcc_err *err) {
  en->ctx.err = err;
  return tfcc_exec_node_run(p, en, err);
}

/* The backend library: env TFCC_CUDA_LIBRARY, else libtfcc_cuda.so beside the object that holds
 * this function (libtfcc.so, or the program linking libtfcc statically), else the loader's
 * search path. */
static void *load_library(char *why, size_t cap) {
  const char *env = getenv("TFCC_CUDA_LIBRARY");
  if (env && *env) {
    void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    if (!h) snprintf(why, cap, "TFCC_CUDA_LIBRARY=%s: %s", env, dlerror());
    return h;
  }
  Dl_info info;
  if (dladdr((void *)&load_library, &info) && info.dli_fname) {
    const char *slash = strrchr(info.dli_fname, '/');
    if (slash) {
      char path[4096];
      int n = snprintf(path, sizeof path, "%.*s/libtfcc_cuda.so", (int)(slash - info.dli_fname),
                       info.dli_fname);
      if (n > 0 && (size_t)n < sizeof path) {
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
        snprintf(why, cap, "%s", dlerror());
      }
    }
  }
  void *h = dlopen("libtfcc_cuda.so", RTLD_NOW | RTLD_LOCAL);
  if (!h && !why[0]) snprintf(why, cap, "%s", dlerror());
  return h;
}
#endif

tfcc_status tfcc_device_open(const char *name, int id, const tfcc_logger *log, tfcc_device **out,
                             tfcc_err *err) {
  *out = NULL;
  if (strcmp(name, "cuda") != 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "unknown device '%.40s' (cpu, cuda)", name);
  if (id < 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "device cuda: device id %d is negative", id);
#ifndef TFCC_DEVICE_DLOPEN
  (void)log;
  return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                      "device cuda: this build of tfcc cannot load libraries at run time");
#else
  char why[512] = "";
  void *lib = load_library(why, sizeof why);
  if (!lib)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "device cuda: cannot load libtfcc_cuda (build tfcc with -DTFCC_CUDA=ON, or "
                        "set TFCC_CUDA_LIBRARY): %s",
                        why);
  tfcc_device_backend_fn fn = NULL;
  void *sym = dlsym(lib, TFCC_DEVICE_BACKEND_SYMBOL);
  memcpy(&fn, &sym, sizeof fn);
  const tfcc_device_backend *be = fn ? fn() : NULL;
  if (!be || be->abi != TFCC_DEVICE_ABI || be->layout[0] != sizeof(tfcc_graph) ||
      be->layout[1] != sizeof(tfcc_ir_node) || be->layout[2] != sizeof(tfcc_exec_plan) ||
      be->layout[3] != sizeof(tfcc_tensor)) {
    dlclose(lib);
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "device cuda: libtfcc_cuda %s (rebuild it with this tfcc)",
                        be ? "was built from other tfcc sources" : "exports no backend");
  }
  tfcc_device *d = calloc(1, sizeof *d);
  if (!d) {
    dlclose(lib);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  }
  d->be = be;
  d->lib = lib;
  d->sv.log = log;
  d->sv.log_line = log_line;
  d->sv.run_cpu_node = run_cpu_node;
  d->sv.arena_plan = tfcc_arena_plan;
  d->sv.op_name = tfcc_node_op_name;
  snprintf(d->name, sizeof d->name, "%s", be->name);
  tfcc_status st = be->open(id, &d->sv, &d->dev, err);
  if (st != TFCC_OK) {
    dlclose(lib);
    free(d);
    return st;
  }
  *out = d;
  return TFCC_OK;
#endif
}

void tfcc_device_close(tfcc_device *d) {
  if (!d) return;
  if (d->be && d->dev) d->be->close(d->dev);
#ifdef TFCC_DEVICE_DLOPEN
    /* the library stays loaded: CUDA's runtime keeps threads and handlers of its own */
#endif
  free(d);
}

tfcc_status tfcc_device_describe(const char *device, int device_id, char *buf, size_t cap) {
  tfcc_err err = {0};
  if (!device || !buf || !cap) {
    tfcc_last_error_set("tfcc_device_describe: device or buf is NULL");
    return TFCC_ERR_INVALID_ARG;
  }
  tfcc_device *d = NULL;
  tfcc_status st = tfcc_device_open(device, device_id, NULL, &d, &err);
  if (st == TFCC_OK) {
    st = d->be->describe(device_id, buf, cap, &err);
    tfcc_device_close(d);
  }
  if (st != TFCC_OK) tfcc_last_error_set(err.msg);
  return st;
}

/* Device memory for the caller (tfcc.h); the cause in tfcc_last_error on failure. */
static tfcc_status no_device(const tfcc_runtime *rt, const char *fn) {
  char msg[200];
  snprintf(
      msg, sizeof msg, "%s: %s", fn,
      rt ? "the runtime runs on the CPU (device cpu): it has no device memory" : "runtime is NULL");
  tfcc_last_error_set(msg);
  return rt ? TFCC_ERR_UNSUPPORTED : TFCC_ERR_INVALID_ARG;
}

tfcc_status tfcc_runtime_device_alloc(tfcc_runtime *rt, size_t bytes, int managed, void **ptr) {
  if (ptr) *ptr = NULL;
  if (!rt || !rt->device) return no_device(rt, "tfcc_runtime_device_alloc");
  if (!ptr || !bytes) {
    tfcc_last_error_set(!ptr ? "tfcc_runtime_device_alloc: ptr is NULL"
                             : "tfcc_runtime_device_alloc: 0 bytes asked for");
    return TFCC_ERR_INVALID_ARG;
  }
  tfcc_err err = {0};
  tfcc_status st = rt->device->be->mem_alloc(rt->device->dev, bytes, managed, ptr, &err);
  if (st != TFCC_OK) tfcc_last_error_set(err.msg);
  return st;
}

tfcc_status tfcc_runtime_device_free(tfcc_runtime *rt, void *ptr) {
  if (!rt || !rt->device) return no_device(rt, "tfcc_runtime_device_free");
  if (ptr) rt->device->be->mem_free(rt->device->dev, ptr);
  return TFCC_OK;
}

tfcc_status tfcc_runtime_device_copy(tfcc_runtime *rt, void *dst, const void *src, size_t bytes) {
  if (!rt || !rt->device) return no_device(rt, "tfcc_runtime_device_copy");
  if (!bytes) return TFCC_OK;
  if (!dst || !src) {
    tfcc_last_error_set("tfcc_runtime_device_copy: dst or src is NULL");
    return TFCC_ERR_INVALID_ARG;
  }
  tfcc_err err = {0};
  tfcc_status st = rt->device->be->mem_copy(rt->device->dev, dst, src, bytes, &err);
  if (st != TFCC_OK) tfcc_last_error_set(err.msg);
  return st;
}
