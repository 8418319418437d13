/* The three public handles. */
#ifndef TFCC_RUNTIME_INTERNAL_H
#define TFCC_RUNTIME_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "base/err.h"
#include "base/log.h"
#include "graph/ir.h"
#include "runtime/exec_plan.h"

struct tfcc_runtime {
  tfcc_logger log;
  int num_threads;
  int *cpu_affinity;
  int cpu_affinity_count;
  size_t memory_pool_bytes;
  int huge_pages;
  tfcc_isa isa;                /* dispatch level: the CPU's best, capped by options/TFCC_ISA */
  struct tfcc_threadpool *pool;
  tfcc_mem_pool *mem;          /* session arenas */
};

typedef struct tfcc_model_node_info {
  int64_t macs;
} tfcc_model_node_info;

struct tfcc_model {
  atomic_int refs;
  tfcc_runtime *rt;
  tfcc_model_options opts;
  /* the bytes the graph points into */
  const uint8_t *data;
  size_t size;
  void *mapping;          /* mmap'ed file, or NULL for a caller buffer */
  size_t mapping_size;
  tfcc_graph graph;
  char *unsupported;      /* "" or "unsupported: X at node 3, ..." */
  int64_t *node_macs;     /* per node, at the stored shapes */
  const char **op_names;  /* per node: "CONV_2D", "CUSTOM:<code>" (graph memory) */
  size_t arena_bytes;     /* at the stored shapes (0 if not planned) */
  size_t arena_lower_bound;
  size_t arena_naive_bytes;
  size_t constant_bytes;
};

struct tfcc_session {
  tfcc_model *model;
  tfcc_err err;
  tfcc_exec_plan plan;
  const tfcc_ir_subgraph *sg;
  tfcc_input_shape *shapes;    /* current input shapes */
  const void **bound_in;       /* per input */
  void **bound_out;            /* per output */
  bool profiling;
  tfcc_op_profile *profile;    /* per active node, when profiling */
  tfcc_op_observer_fn observer;
  void *observer_user;
};

/* Builds the model from a graph over data[0..size) (mapping: file mapping to unmap at release). */
tfcc_status tfcc_model_build(tfcc_runtime *rt, const uint8_t *data, size_t size, void *mapping,
                             size_t mapping_size, const tfcc_model_options *opts, tfcc_model **out,
                             tfcc_err *err);

/* Kernel level and pool this model's sessions use. */
tfcc_exec_env tfcc_model_env(const tfcc_model *m);

#endif
