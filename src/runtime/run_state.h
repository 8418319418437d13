/* A session's run state, shared by the plans of all its subgraphs: resource variables,
 * CALL_ONCE flags, the run budget (deadline, cancellation), and what operators that run
 * subgraphs need to plan them (graph, kernel level, pool, memory). See docs/runtime.md,
 * "Subgraphs, control flow, variables". */
#ifndef TFCC_RUNTIME_RUN_STATE_H
#define TFCC_RUNTIME_RUN_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/run_budget.h"
#include "runtime/exec_plan.h"

/* One resource variable (VAR_HANDLE's resource id): unset until its first ASSIGN_VARIABLE,
 * then its dtype and shape are fixed; its memory is kept across runs and resets. */
typedef struct tfcc_resource_var {
  const char *name; /* shared_name in the model file (not NUL-terminated) */
  uint32_t name_len;
  bool set;
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_RANK];
  size_t bytes;
  void *mem;
  size_t cap;
} tfcc_resource_var;

typedef struct tfcc_run_state {
  const tfcc_graph *graph; /* the graph (weights generation) the session's plans are built on */
  tfcc_exec_env env;       /* for plans of called subgraphs (env.rs points back here) */
  bool with_memory;        /* plans get arenas (sessions) or only shapes (model load) */
  bool running;            /* inside a run: operators re-prepared now see data of their inputs */
  int32_t depth;           /* nesting of subgraph plans being built */
  int32_t n_plans;         /* subgraph plans alive (operators' state) */
  int32_t n_vars;
  tfcc_resource_var *vars; /* [n_vars], by resource id */
  int32_t n_subgraphs;
  bool *once_done;        /* [n_subgraphs]: CALL_ONCE ran this init subgraph */
  tfcc_run_budget budget; /* deadline and cancellation; operators reach it as ctx->budget */
} tfcc_run_state;

/* Subgraph plans may nest this deep (WHILE in the body of a WHILE ...), and a session may hold
 * this many (a file whose subgraphs each call the next twice would otherwise need 2^n). */
#define TFCC_MAX_SUBGRAPH_DEPTH 32
#define TFCC_MAX_SUBGRAPH_PLANS 1024

/* n_vars: the model's distinct resource variables (tfcc_graph_assign_resources). */
tfcc_status tfcc_run_state_init(tfcc_run_state *rs, const tfcc_graph *g, int32_t n_vars,
                                const tfcc_exec_env *env, bool with_memory, tfcc_err *err);
void tfcc_run_state_free(tfcc_run_state *rs);
/* Forgets every variable's value (keeps its memory) and every CALL_ONCE flag. */
void tfcc_run_state_reset(tfcc_run_state *rs);
/* Starts a run: sets the deadline from the timeout. */
void tfcc_run_state_begin(tfcc_run_state *rs);
void tfcc_run_state_end(tfcc_run_state *rs);

/* Between operators and loop iterations: TFCC_ERR_CANCELLED or TFCC_ERR_DEADLINE when the run
 * must stop. No system call unless a deadline is set (then one clock read). */
static inline tfcc_status tfcc_run_check(tfcc_run_state *rs, tfcc_err *err) {
  return rs ? tfcc_run_budget_check(&rs->budget, err) : TFCC_OK;
}

/* Model load: checks every subgraph index an operator names (WHILE, IF, CALL_ONCE, CALL) and
 * that no subgraph calls itself, directly or through others; numbers the distinct resource
 * variables (VAR_HANDLE container/shared_name) into *n_vars. */
tfcc_status tfcc_graph_check_calls(tfcc_graph *g, int32_t *n_vars, tfcc_err *err);

/* Sets mark[s] and mark[] of every subgraph s runs, directly or through others (the calls
 * tfcc_graph_check_calls checked). */
void tfcc_graph_mark_calls(const tfcc_graph *g, int32_t s, uint8_t *mark);

#endif
