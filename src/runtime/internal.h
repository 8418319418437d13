/* The three public handles. */
#ifndef TFCC_RUNTIME_INTERNAL_H
#define TFCC_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "base/err.h"
#include "base/log.h"
#include "ir/ir.h"
#include "runtime/const_release.h"
#include "runtime/custom_ops.h"
#include "runtime/exec_plan.h"
#include "runtime/run_state.h"
#include "runtime/weights.h"

struct tfcc_runtime {
  tfcc_logger log;
  int num_threads;
  int *cpu_affinity;
  int cpu_affinity_count;
  size_t memory_pool_bytes;
  int huge_pages;
  tfcc_isa isa; /* dispatch level: the CPU's best, capped by options/TFCC_ISA */
  struct tfcc_threadpool *pool;
  tfcc_mem_pool *mem;         /* session arenas */
  tfcc_custom_table custom;   /* registered custom operators (custom_ops.c) */
  struct tfcc_device *device; /* accelerator the models run on (device.c), NULL: the CPU */
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
  void *mapping; /* mmap'ed file, or NULL for a caller buffer */
  size_t mapping_size;
  tfcc_free_fn owned_free; /* owned buffer (tfcc_model_load_owned_buffer): how to free data */
  void *owned_user;
  /* Structure (names, shapes, operators) for introspection and sessions; its constants and
   * node params are generation 0 of the weights. */
  tfcc_graph graph;
  _Atomic(tfcc_weights *) weights; /* current generation */
  tfcc_weights gen0;               /* the load-time weights (graph = &graph) */
  tfcc_weights *gens;              /* generations >= 1 (structs kept until the model is freed) */
  pthread_mutex_t update_lock;     /* serialises updates (never taken by run) */
  bool update_lock_init;
  tfcc_update_info last_update;
  char *unsupported; /* "" or "unsupported: X at node 3, ..." */
  /* [n_sg_cause] (NULL: none): why a session of subgraph s cannot be made, set at the first
   * load: the unsupported operators it reaches, or its plan's error at the stored shapes
   * (tfcc_model_subgraph_error); NULL for a subgraph that runs */
  char **sg_cause;
  int32_t n_sg_cause;
  int64_t *node_macs;    /* per node, at the stored shapes */
  const char **op_names; /* per node: "CONV_2D", "CUSTOM:<code>" (graph memory) */
  size_t arena_bytes;    /* at the stored shapes (0 if not planned) */
  size_t arena_lower_bound;
  size_t arena_naive_bytes;
  size_t constant_bytes;
  struct tfcc_wcache *wcache; /* packed-weights cache of the load (NULL: none); freed last */
  char *wcache_path;          /* its path (a copy), which weight updates use too (NULL: none) */
  pthread_t cache_writer;     /* writing the last update's cache (runtime/weights.c) */
  bool cache_writer_on;       /* cache_writer is to be joined (update lock, or model_free) */
  tfcc_const_release crel;    /* first load: releases constants packing consumed */
  bool crel_on;
  bool releasable; /* the model owns its bytes (file copy or mapping, owned buffer) */
  bool cow;        /* its bytes are a private mapping of its file (TFCC_MF_COW) */
  bool file_copy;  /* its bytes are a private anonymous copy of its file (mapping) */
  /* during the load only: the file whose ranges a warm weights cache replaces were not read
   * (tfcc_model_file_open_holes); they are read when something needs them */
  struct tfcc_model_file *holes_file;
  tfcc_status holes_st; /* a read of them failed: the load fails */
  tfcc_err holes_err;
  size_t file_unread; /* bytes of its file the load never read (released unread) */
  /* bytes of its kept pages mapped from the weights cache when the file was opened (instead
   * of read, then compared and mapped over: tfcc_wcache_kept_mapped) */
  size_t kept_premapped;
  /* during the first graph read only: the file whose kept pages a warm weights cache mapped
   * at open; the reader takes the constants' lengths from its descriptor
   * (tfcc_model_file_peek), not from those pages */
  struct tfcc_model_file *peek_file;
  /* the watermark, read at load when constant pages may be released (model_watermark.c) */
  bool wm_captured;
  tfcc_status wm_status;
  tfcc_watermark_info wm_info;
  tfcc_err wm_err;
  int32_t n_resources; /* distinct resource variables (VAR_HANDLE), numbered at load */
  void *dev_model;     /* the device's copy of the constants (rt->device), or NULL */
  /* The load's validation plan of subgraph 0 at the stored shapes, built on gen0 without
   * memory but with its arena layout (exec_plan.h: keep_layout), for the first session created
   * while gen0 is current (taken with one atomic exchange; session.c), which gives it memory
   * instead of preparing every operator and planning the arena again. NULL: none (taken, not
   * kept: a model with subgraph calls, resource variables or operator state, or env
   * TFCC_HAND_ON_PLAN=off; dropped when a weight update replaces gen0). */
  _Atomic(tfcc_exec_plan *) spare_plan;
};

struct tfcc_session {
  tfcc_model *model;
  tfcc_err err;
  tfcc_exec_plan plan;
  const tfcc_ir_subgraph *sg; /* structure (model->graph); the plan points into gen's graph */
  tfcc_weights *gen;          /* generation the plan is bound to (no reference held between runs) */
  bool folds_read_consts;     /* a node folded at prepare reads constants: rebinding must replan */
  tfcc_input_shape *shapes;   /* current input shapes (this and the next three: in the
                                 session's own allocation, after it) */
  const void **bound_in;      /* per input */
  void **bound_out;           /* per output */
  size_t *bound_out_cap;      /* per output: bytes of the caller's buffer (for dynamic outputs) */
  bool ran;                   /* a run completed on the current plan (dynamic outputs readable) */
  bool prefault;              /* tfcc_session_options.prefault == 1 (the huge page rebuilt too) */
  size_t max_memory;          /* tfcc_session_options.max_memory (0: no limit) */
  bool profiling;
  tfcc_op_profile *profile; /* per active node, when profiling */
  tfcc_op_observer_fn observer;
  void *observer_user;
  int32_t subgraph;             /* the subgraph this session runs (0, or a signature's) */
  const tfcc_ir_signature *sig; /* created for a signature: its names for inputs/outputs */
  tfcc_run_state rs;            /* variables, CALL_ONCE flags, run budget (run_state.h) */
  void *dev_sess;               /* the device plan of `plan` (model->dev_model), or NULL */
  /* Why the session has no plan yet (gen == NULL): its subgraph fails at the stored input
   * shapes, placeholders that a resize replaces (tfcc_subgraph_has_resizable_input). */
  tfcc_err unplanned;
  bool plan_handed_on; /* its first plan is the model's load plan (tfcc_model.spare_plan) */
  bool touch_started;  /* it started the weights cache's touch thread (tfcc_wcache_touch_start) */
};

/* Whether an input of sg has a -1 in its shape signature (its stored shape may be a placeholder:
 * a plan that fails there does not fail the load, and a session starts without one). */
bool tfcc_subgraph_has_resizable_input(const tfcc_ir_subgraph *sg);

/* The key of the first signature other than subgraph 0's whose subgraph (and those it calls) can
 * run, or NULL: a model whose subgraph 0 cannot run loads when there is one (model.c bind_ops). */
const char *tfcc_graph_other_runnable_signature(const tfcc_graph *g);

/* Builds the model from a graph over data[0..size) (mapping: file mapping to unmap at release). */
tfcc_status tfcc_model_build(tfcc_runtime *rt, const uint8_t *data, size_t size, void *mapping,
                             size_t mapping_size, const tfcc_model_options *opts, tfcc_model **out,
                             tfcc_err *err);

/* The load pipeline, written once for a model's load and each weight update: read data[0..size)
 * into g, bind its operators, run the graph passes, init the operators, validate them at the
 * stored shapes. ref NULL: the model's first load (g is &m->graph): binds by operator code and
 * lists what is unsupported, names fused nodes, records MACs and arena sizes. Else ref is the
 * model's graph and g a new weights generation: bound node by node as ref is, and checked
 * against it after init. */
tfcc_status tfcc_model_load_graph(tfcc_model *m, const uint8_t *data, size_t size, tfcc_graph *g,
                                  const tfcc_graph *ref, struct tfcc_wcache *wc, tfcc_weights *w,
                                  tfcc_err *err);
/* (wc: the packed-weights cache operators take their blocks from and offer theirs to: the
 * model's for the first load, the generation's for an update; NULL: none. w: the generation g
 * holds the weights of, which records where its last packed bytes lie in 4 KiB pages.) */

struct stat;
/* The packed-weights cache of a weight update over data[0..size): the model's cache path and
 * identity (kernel level, options), the new bytes as its source. st: the file they were read
 * from when it was settled (its identity; NULL: none, the content hash decides). *out NULL
 * when the model was loaded without a cache. Errors: TFCC_ERR_NO_MEMORY only. */
tfcc_status tfcc_model_update_cache_open(tfcc_model *m, const uint8_t *data, size_t size,
                                         const struct stat *st, struct tfcc_wcache **out,
                                         tfcc_err *err);

/* Runs op->init of every bound, live node of every subgraph that has no params yet (the constant
 * folder initialised the nodes it removed). Run after tfcc_run_passes. */
tfcc_status tfcc_graph_init_ops(tfcc_graph *g, tfcc_isa isa, const tfcc_logger *log,
                                int quant_compat, int precision, int winograd,
                                struct tfcc_packed_store *store, tfcc_err *err);

/* TFCC_ERR_INTEGRITY unless data carries a valid tfcc watermark (model_watermark.c). */
tfcc_status tfcc_model_check_watermark(const uint8_t *data, size_t size, tfcc_err *err);
/* Whether data carries a tfcc watermark entry (valid or not): its metadata only, no hash. */
bool tfcc_model_has_watermark(const uint8_t *data, size_t size);
/* Reads the model's watermark now (before constant pages are released); later
 * tfcc_model_watermark and tfcc_model_require_watermark answer from it. */
void tfcc_model_watermark_capture(tfcc_model *m);
/* The require_watermark check of the load (from the captured watermark when there is one). */
tfcc_status tfcc_model_require_watermark(const tfcc_model *m, tfcc_err *err);

/* Kernel level and pool this model's sessions use. */
tfcc_exec_env tfcc_model_env(const tfcc_model *m);
/* Frees the model's load plan if no session took it (a weight update replaced gen0). */
void tfcc_model_drop_spare_plan(tfcc_model *m);

#endif
