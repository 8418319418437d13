/* tfcc_runtime: options, logging, thread settings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu_info.h"
#include "runtime/device_backend.h"
#include "runtime/internal.h"
#include "base/threadpool.h"

void tfcc_runtime_options_default(tfcc_runtime_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->num_threads = 1;
  o->log_level = TFCC_LOG_WARN;
}

tfcc_status tfcc_runtime_create(const tfcc_runtime_options *opts, tfcc_runtime **out) {
  if (!out) {
    tfcc_last_error_set("tfcc_runtime_create: out is NULL");
    return TFCC_ERR_INVALID_ARG;
  }
  *out = NULL;
  tfcc_runtime_options o;
  tfcc_runtime_options_default(&o);
  if (opts) {
    if (opts->struct_size == 0 || opts->struct_size > sizeof o) {
      tfcc_last_error_set(
          "tfcc_runtime_create: options.struct_size is not set by tfcc_runtime_options_default()");
      return TFCC_ERR_INVALID_ARG;
    }
    memcpy(&o, opts, opts->struct_size);
  }
  if (o.num_threads < 0 || o.num_threads > 1024) {
    tfcc_last_error_set("tfcc_runtime_create: num_threads must be in 0..1024");
    return TFCC_ERR_INVALID_ARG;
  }
  if (o.cpu_affinity_count < 0 || (o.cpu_affinity_count > 0 && !o.cpu_affinity)) {
    tfcc_last_error_set("tfcc_runtime_create: cpu_affinity_count > 0 needs cpu_affinity");
    return TFCC_ERR_INVALID_ARG;
  }
  if ((unsigned)o.log_level > TFCC_LOG_DEBUG) {
    tfcc_last_error_set("tfcc_runtime_create: log_level out of range");
    return TFCC_ERR_INVALID_ARG;
  }
  tfcc_runtime *rt = calloc(1, sizeof *rt);
  if (!rt) {
    tfcc_last_error_set("tfcc_runtime_create: out of memory");
    return TFCC_ERR_NO_MEMORY;
  }
  tfcc_err terr = {0};
  if (tfcc_custom_table_init(&rt->custom, &terr) != TFCC_OK) {
    free(rt);
    tfcc_last_error_set(terr.msg);
    return terr.code;
  }
  rt->log.level = o.log_level;
  rt->log.fn = o.log_fn;
  rt->log.user = o.log_user;
  if (o.num_threads == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o.num_threads = n > 0 ? (int)n : 1;
  }
  rt->num_threads = o.num_threads;
  rt->memory_pool_bytes = o.memory_pool_bytes;
  rt->huge_pages = o.huge_pages;
  if (o.cpu_affinity_count > 0) {
    rt->cpu_affinity = malloc(sizeof(int) * (size_t)o.cpu_affinity_count);
    if (!rt->cpu_affinity) {
      tfcc_runtime_destroy(rt);
      tfcc_last_error_set("tfcc_runtime_create: out of memory");
      return TFCC_ERR_NO_MEMORY;
    }
    memcpy(rt->cpu_affinity, o.cpu_affinity, sizeof(int) * (size_t)o.cpu_affinity_count);
    rt->cpu_affinity_count = o.cpu_affinity_count;
  }
  const char *isa = o.isa ? o.isa : getenv("TFCC_ISA");
  tfcc_isa cap = TFCC_ISA_COUNT_;
  if (isa && *isa && tfcc_isa_parse(isa, &cap) != TFCC_OK) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "tfcc_runtime_create: unknown ISA cap '%s' (generic, sse4, avx2, avx512, neon)", isa);
    tfcc_runtime_destroy(rt);
    tfcc_last_error_set(msg);
    return TFCC_ERR_INVALID_ARG;
  }
  rt->isa = tfcc_cpu_dispatch_isa(cap);
  tfcc_err err = {0};
  if (tfcc_threadpool_create(rt->num_threads, rt->cpu_affinity, rt->cpu_affinity_count, &rt->pool,
                             &err) != TFCC_OK) {
    tfcc_runtime_destroy(rt);
    tfcc_last_error_set(err.msg);
    return err.code;
  }
  if (tfcc_mem_pool_create(rt->memory_pool_bytes, rt->huge_pages != 0, &rt->mem, &err) != TFCC_OK) {
    tfcc_log(&rt->log, TFCC_LOG_ERROR, TFCC_TAG_MEM_ALLOC_FAIL, "%s", err.msg);
    tfcc_runtime_destroy(rt);
    tfcc_last_error_set(err.msg);
    return err.code;
  }
  const char *device = o.device ? o.device : getenv("TFCC_DEVICE");
  if (device && *device && strcmp(device, "cpu") != 0) {
    if (tfcc_device_open(device, o.device_id, &rt->log, &rt->device, &err) != TFCC_OK) {
      tfcc_runtime_destroy(rt);
      tfcc_last_error_set(err.msg);
      return err.code;
    }
  }
  tfcc_log(&rt->log, TFCC_LOG_INFO, "RUNTIME", "%d thread(s), kernels for %s%s%s", rt->num_threads,
           tfcc_isa_name(rt->isa), rt->device ? ", device " : "",
           rt->device ? rt->device->name : "");
  *out = rt;
  return TFCC_OK;
}

tfcc_status tfcc_runtime_log(tfcc_runtime *rt, tfcc_log_level level, const char *tag,
                             const char *message) {
  if (!tag || !message) return TFCC_ERR_INVALID_ARG;
  tfcc_log(rt ? &rt->log : NULL, level, tag, "%s", message);
  return TFCC_OK;
}

const char *tfcc_runtime_device(const tfcc_runtime *rt) {
  return rt && rt->device ? rt->device->name : "cpu";
}

void tfcc_runtime_destroy(tfcc_runtime *rt) {
  if (!rt) return;
  tfcc_device_close(rt->device);
  tfcc_threadpool_destroy(rt->pool);
  tfcc_mem_pool_destroy(rt->mem);
  free(rt->cpu_affinity);
  tfcc_custom_table_free(&rt->custom);
  free(rt);
}
