/* Accelerator backends (docs/cuda.md): the interface between the runtime and a device library
 * (libtfcc_cuda) that the runtime loads at run time, so that the core links no device library.
 *
 * A backend is built from the same sources as the core: it reads the IR and the session's
 * execution plan through these headers (their layout is checked with TFCC_DEVICE_ABI and the
 * struct sizes below) and calls back into the core only through tfcc_device_services. */
#ifndef TFCC_RUNTIME_DEVICE_BACKEND_H
#define TFCC_RUNTIME_DEVICE_BACKEND_H

#include "base/log.h"
#include "ir/ir.h"
#include "plan/arena_plan.h"
#include "runtime/exec_plan.h"

#define TFCC_DEVICE_ABI 2

/* What the core lends a backend. */
typedef struct tfcc_device_services {
  const tfcc_logger *log; /* the runtime's */
  void (*log_line)(const tfcc_logger *log, tfcc_log_level level, const char *tag,
                   const char *message);
  /* Runs node en of plan p on the CPU (its inputs' host data must be current). */
  tfcc_status (*run_cpu_node)(tfcc_exec_plan *p, tfcc_exec_node *en, tfcc_err *err);
  /* plan/arena_plan.h's planner, for device arenas laid out as the CPU's. */
  tfcc_status (*arena_plan)(tfcc_plan_buffer *bufs, int32_t n, size_t align, size_t *arena,
                            tfcc_err *err);
  const char *(*op_name)(const tfcc_ir_node *n); /* "CONV_2D", "CUSTOM:<code>" */
} tfcc_device_services;

typedef struct tfcc_device_backend {
  int abi;          /* TFCC_DEVICE_ABI */
  size_t layout[4]; /* sizeof tfcc_graph, tfcc_ir_node, tfcc_exec_plan, tfcc_tensor */
  const char *name; /* "cuda" */
  /* Opens device device_id (driver, context, library handles). */
  tfcc_status (*open)(int device_id, const tfcc_device_services *sv, void **dev, tfcc_err *err);
  void (*close)(void *dev);
  /* JSON description of device device_id into buf (tfcc_device_describe). */
  tfcc_status (*describe)(int device_id, char *buf, size_t cap, tfcc_err *err);
  /* At model load, after the passes and operator init, before constants are released:
   * uploads the constants of graph g the device will read (tfcc_precision precision). */
  tfcc_status (*model_open)(void *dev, const tfcc_graph *g, int precision, void **dm,
                            tfcc_err *err);
  void (*model_close)(void *dm);
  /* At session creation: the device session and the device plan of CPU plan p (whose host
   * arena is the fallback nodes'); logs which nodes run on the CPU. */
  tfcc_status (*session_open)(void *dm, tfcc_exec_plan *p, void **ds, tfcc_err *err);
  /* After a re-plan of the session (resize): the device plan of p's new shapes (kept ones
   * reused). On failure the session keeps no current device plan until the next success. */
  tfcc_status (*session_replan)(void *ds, tfcc_exec_plan *p, tfcc_err *err);
  void (*session_close)(void *ds);
  /* Runs plan p's graph: p's graph inputs and outputs point at the caller's buffers, each in
   * host memory or in the device's (device or managed memory, tfcc_runtime_device_alloc). */
  tfcc_status (*session_run)(void *ds, tfcc_exec_plan *p, tfcc_err *err);
  /* Memory of the device for the caller: managed != 0 asks for memory the host reads too. */
  tfcc_status (*mem_alloc)(void *dev, size_t bytes, int managed, void **ptr, tfcc_err *err);
  void (*mem_free)(void *dev, void *ptr);
  /* Copies bytes between any two of host, device and managed memory; returns when done. */
  tfcc_status (*mem_copy)(void *dev, void *dst, const void *src, size_t bytes, tfcc_err *err);
} tfcc_device_backend;

/* The symbol a backend library exports. */
typedef const tfcc_device_backend *(*tfcc_device_backend_fn)(void);
#define TFCC_DEVICE_BACKEND_SYMBOL "tfcc_cuda_backend"

/* A runtime's device: backend, its handle and the services lent to it. */
typedef struct tfcc_device {
  const tfcc_device_backend *be;
  void *dev;
  void *lib; /* dlopen handle */
  tfcc_device_services sv;
  char name[16];
} tfcc_device;

/* Opens device `name` ("cuda") number id for a runtime logging through log: loads the backend
 * library and opens the device. *out NULL and the cause in err on failure. */
tfcc_status tfcc_device_open(const char *name, int id, const tfcc_logger *log, tfcc_device **out,
                             tfcc_err *err);
void tfcc_device_close(tfcc_device *d);

#endif
