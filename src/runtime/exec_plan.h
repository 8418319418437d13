/* Execution plan of one subgraph at given input shapes: per-tensor views, per-node operator
 * contexts (prepared), values folded at prepare time, and the arena layout.
 * Built by sessions (with memory) and at model load (shape validation only). */
#ifndef TFCC_RUNTIME_EXEC_PLAN_H
#define TFCC_RUNTIME_EXEC_PLAN_H

#include <stdbool.h>

#include "ops/op.h"
#include "plan/arena_plan.h"
#include "runtime/mem_pool.h"

typedef struct tfcc_exec_node {
  /* the operator's eval (ctx.node->op->eval): a run calls it without reading the IR node */
  tfcc_status (*eval)(tfcc_op_ctx *ctx);
  /* frees ctx.state (ctx.node->op->release_state; NULL: free()): the plan's free calls it
   * without reading the IR node, whose generation may be gone (fuzz63) */
  void (*release_state)(void *state);
  int32_t node;    /* index in sg->nodes */
  tfcc_op_ctx ctx; /* in/out/tmp point into the plan's tensors */
  bool folded;     /* computed at prepare time: skipped by run */
  bool view;       /* output 0 shares input 0's buffer (RESHAPE-like): skipped by run */
  bool inplace;    /* output 0 shares the buffer of an input read last here */
  /* Prepared again in each run, before eval: its output shapes depend on data known only then
   * (ctx.needs_data), or it reads a dynamic tensor. Its outputs are dynamic tensors. */
  bool dynamic;
  uint32_t run_known; /* dynamic: inputs whose data its prepare reads (marked known at run) */
  char *why_dynamic;  /* dynamic: the reason ("TRANSPOSE_CONV: output_shape (tensor 0) is
                            known only while running", "reads dynamic tensor 7") */
  void *dyn_scratch;  /* dynamic: scratch grown at run (dyn_scratch_cap bytes) */
  size_t dyn_scratch_cap;
  int64_t macs;
} tfcc_exec_node;

/* Memory of a dynamic tensor: grown at run when a larger size is needed, never shrunk. */
typedef struct tfcc_dyn_buf {
  void *mem;
  size_t cap;
} tfcc_dyn_buf;

typedef struct tfcc_exec_plan {
  const tfcc_graph *graph;
  const tfcc_ir_subgraph *sg;
  int32_t n_tensors;
  tfcc_tensor *tensors;
  tfcc_tensor **ptrs; /* storage for ctx.in/out/tmp arrays */
  int32_t n_nodes;
  tfcc_exec_node *nodes; /* active nodes in execution order */
  /* the graph's inputs, then its outputs (n_inputs + n_outputs tensors of `tensors`): what a
   * run binds, without reading the IR subgraph */
  int32_t n_inputs, n_outputs;
  tfcc_tensor **io;
  /* What a run reads of the plan (nodes, io, ptrs, tensors, copy_outputs, in that order) is one
   * block laid out together, so that a run touches its few pages and not pages spread over the
   * C heap between the load's allocations: with env.hot_tables, cut from the free part of the
   * packed-weights memory's current huge page when it fits there (tfcc_wmem_alloc_spare: the
   * weights' last huge page, no new memory), else one calloc. */
  void *tables;
  size_t tables_bytes;
  bool tables_wmem; /* tables came from tfcc_wmem_alloc_spare */
  /* per tensor (in tables): a copy of its quantization when it has one scale and zero point,
   * which tensors' quant then points to (kernels read it at every run; the IR's vectors lie
   * one per heap block); tfcc_exec_plan_bind_quant fills it */
  struct tfcc_quant_copy *quant_copy;
  /* memory */
  uint8_t *arena; /* activations + scratch (NULL when built without memory) */
  tfcc_arena_mem arena_mem;
  tfcc_mem_pool *mem_pool;
  size_t arena_bytes;
  size_t arena_lower_bound;   /* largest set of simultaneously live buffers (after aliasing) */
  size_t naive_bytes;         /* sum of all planned buffers (after aliasing) */
  int32_t n_views, n_inplace; /* tensors sharing another's buffer */
  uint8_t *persist;           /* variables and values folded at prepare (zeroed at build) */
  size_t persist_bytes;
  size_t variables_bytes;
  /* graph outputs that must be copied to the caller at the end of run (constant, folded, a graph
     input, or listed twice) */
  int32_t n_copy_outputs;
  int32_t *copy_outputs; /* output positions */
  /* dynamic tensors (shape known only during run): their memory, per tensor (NULL if none) */
  int32_t n_dynamic_nodes;
  tfcc_dyn_buf *dyn;
  size_t dyn_bytes;   /* bytes currently held for dynamic tensors and their scratch, and by
                         operators for outputs they size themselves (op->dynamic_bytes) */
  size_t max_memory;  /* env.max_memory: arena + variables + dynamic bytes; 0: no limit */
  int32_t subgraph;   /* index of sg in graph */
  int32_t n_stateful; /* nodes with operator state (subgraph plans) */
  /* built without memory with env.keep_layout: the arena layout that
   * tfcc_exec_plan_add_memory gives memory later (NULL otherwise, and once it has) */
  struct tfcc_plan_layout *layout;
} tfcc_exec_plan;

typedef struct tfcc_input_shape {
  int32_t rank;
  int32_t dims[TFCC_MAX_RANK];
} tfcc_input_shape;

/* Builds a plan. shapes: one per graph input (NULL: the model's stored shapes). With
 * with_memory false only shapes, folding and the layout are computed (no arena). */
typedef struct tfcc_exec_env {
  tfcc_isa isa;                  /* kernel dispatch level */
  struct tfcc_threadpool *pool;  /* may be NULL */
  tfcc_mem_pool *mem;            /* arenas; may be NULL */
  const struct tfcc_logger *log; /* for operators' prepare notes; may be NULL */
  struct tfcc_run_state *rs;     /* session state (runtime/run_state.h); NULL: plans of graphs
                                   without subgraph calls only (weight checks) */
  bool hot_tables;   /* the plan's tables may come from the packed-weights memory (a session's
                      plan; not one built while running) */
  bool rewhole;      /* with hot_tables: the session asked for prefault (tfcc_wmem_alloc_spare) */
  size_t max_memory; /* arena + variable bytes one plan may take; 0: no limit */
  /* a plan built without memory keeps its arena layout (plan.layout), so that
   * tfcc_exec_plan_add_memory can make it the plan a build with memory would have made: the
   * load's validation plan, handed on to the model's first session (runtime/model.c) */
  bool keep_layout;
} tfcc_exec_env;

tfcc_status tfcc_exec_plan_build(tfcc_exec_plan *p, const tfcc_graph *g, int32_t subgraph,
                                 const tfcc_input_shape *shapes, bool with_memory,
                                 const tfcc_exec_env *env, tfcc_err *err);
void tfcc_exec_plan_free(tfcc_exec_plan *p);
/* Gives p, built without memory with env.keep_layout on the same graph, kernel level and pool
 * as env's, the memory a build with memory under env would have given it: the same arena
 * layout, variables, tensors' data and scratch; its tables moved where such a build puts them
 * (env.hot_tables, env.rewhole), its nodes' run state and error pointed at env.rs and err.
 * Operators are not prepared again: the result is the plan tfcc_exec_plan_build(with_memory)
 * returns, less its prepare calls and arena planning. Plans whose operators keep state
 * (n_stateful) or reach a run state's subgraphs or variables must not be handed on this way
 * (their state was made with the builder's run state). On failure (env.max_memory, out of
 * memory) p is freed. */
tfcc_status tfcc_exec_plan_add_memory(tfcc_exec_plan *p, const tfcc_exec_env *env, tfcc_err *err);

/* Run: prepares dynamic node en with its inputs' data (those its prepare asks for marked known),
 * sizes its outputs and scratch (growing their memory only when larger than before), then runs
 * eval. Allocates only when a size grows. */
tfcc_status tfcc_exec_node_run_dynamic(tfcc_exec_plan *p, tfcc_exec_node *en, tfcc_err *err);
/* TFCC_ERR_DEADLINE naming node en's work estimate (en->macs) and the run's max_work. */
tfcc_status tfcc_exec_work_over(const tfcc_exec_node *en, tfcc_err *err);
/* Runs node en of p: tfcc_exec_node_run_dynamic for a dynamic node, else its eval (what the
 * session's run and the subgraphs of control-flow operators both do per node). */
static inline tfcc_status tfcc_exec_node_run(tfcc_exec_plan *p, tfcc_exec_node *en, tfcc_err *err) {
  if (en->dynamic) return tfcc_exec_node_run_dynamic(p, en, err);
  if (en->ctx.budget && en->ctx.budget->max_work && en->macs > en->ctx.budget->max_work)
    return tfcc_exec_work_over(en, err);
  return en->eval(&en->ctx);
}
/* Points tensor i of p at quantization q (its IR tensor's, of the generation p is bound to):
 * at a copy in the plan's tables when q has one scale and zero point, else at q. No allocation
 * (a run that rebinds to new weights calls it). */
void tfcc_exec_plan_bind_quant(tfcc_exec_plan *p, int32_t i, const tfcc_quant *q);
/* Zeroes the variable tensors. */
void tfcc_exec_plan_reset_variables(tfcc_exec_plan *p);

/* Where an empty tensor's data and a node's scratch of 0 bytes point (no bytes are ever read or
 * written there): never NULL, so that kernels may form pointers into any tensor or scratch they
 * are given (NULL + 0 is undefined behaviour in C, and memset / memcpy of 0 bytes at NULL too). */
extern unsigned char tfcc_exec_empty_data[64];

#endif
