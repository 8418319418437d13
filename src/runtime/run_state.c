/* Session run state: resource variables, CALL_ONCE flags, run budget (run_state.h). */
#include "runtime/run_state.h"

#include <stdlib.h>
#include <string.h>

tfcc_status tfcc_run_state_init(tfcc_run_state *rs, const tfcc_graph *g, int32_t n_vars,
                                const tfcc_exec_env *env, bool with_memory, tfcc_err *err) {
  memset(rs, 0, sizeof *rs);
  atomic_init(&rs->budget.cancel, 0);
  rs->graph = g;
  rs->env = *env;
  rs->env.rs = rs;
  rs->with_memory = with_memory;
  rs->n_vars = n_vars;
  rs->n_subgraphs = g->n_subgraphs;
  rs->vars = calloc((size_t)n_vars + 1, sizeof *rs->vars);
  rs->once_done = calloc((size_t)g->n_subgraphs + 1, sizeof *rs->once_done);
  if (!rs->vars || !rs->once_done) {
    tfcc_run_state_free(rs);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory for %d resource variables",
                        (int)n_vars);
  }
  for (int32_t s = 0; s < g->n_subgraphs; s++)
    for (int32_t i = 0; i < g->subgraphs[s].n_nodes; i++) {
      const tfcc_ir_node *n = &g->subgraphs[s].nodes[i];
      if (n->builtin != TFCC_OP_VAR_HANDLE || n->opts.kind != TFCC_OPTIONS_VAR_HANDLE) continue;
      int32_t id = n->opts.var_handle.resource_id;
      if (id < 0 || id >= n_vars || rs->vars[id].name) continue;
      rs->vars[id].name = n->opts.var_handle.shared_name ? n->opts.var_handle.shared_name : "";
      rs->vars[id].name_len = n->opts.var_handle.shared_name_len;
    }
  return TFCC_OK;
}

void tfcc_run_state_free(tfcc_run_state *rs) {
  if (!rs) return;
  for (int32_t i = 0; rs->vars && i < rs->n_vars; i++) free(rs->vars[i].mem);
  free(rs->vars);
  free(rs->once_done);
  rs->vars = NULL;
  rs->once_done = NULL;
}

void tfcc_run_state_reset(tfcc_run_state *rs) {
  for (int32_t i = 0; i < rs->n_vars; i++) rs->vars[i].set = false;
  for (int32_t s = 0; s < rs->n_subgraphs; s++) rs->once_done[s] = false;
}

void tfcc_run_state_begin(tfcc_run_state *rs) {
  rs->running = true;
  rs->budget.deadline_ns = rs->budget.timeout_ns ? tfcc_run_now_ns() + rs->budget.timeout_ns : 0;
}

void tfcc_run_state_end(tfcc_run_state *rs) {
  rs->running = false;
  rs->budget.deadline_ns = 0;
}
