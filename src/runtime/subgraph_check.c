/* Model load: the subgraph call graph (WHILE, IF, CALL_ONCE, CALL name other subgraphs) has
 * indices in range and no cycle; resource variables get their ids (run_state.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/op.h"
#include "runtime/run_state.h"

/* The subgraphs node n runs: up to TFCC_MAX_CASE_BRANCHES, with the option names for
 * messages. */
static int32_t called(const tfcc_ir_node *n, int32_t idx[TFCC_MAX_CASE_BRANCHES],
                      const char *what[2]) {
  if (n->opts.kind == TFCC_OPTIONS_STABLEHLO_CASE) { /* ops */
    what[0] = what[1] = "branch_subgraph_indices entry";
    for (int32_t k = 0; k < n->opts.shlo_case.n_branches; k++) idx[k] = n->opts.shlo_case.branch[k];
    return n->opts.shlo_case.n_branches;
  }
  if (n->opts.kind != TFCC_OPTIONS_SUBGRAPHS) return 0;
  idx[0] = n->opts.subgraphs.first;
  idx[1] = n->opts.subgraphs.second;
  switch (n->builtin) {
    case TFCC_OP_WHILE:
      what[0] = "cond_subgraph_index";
      what[1] = "body_subgraph_index";
      return 2;
    case TFCC_OP_IF:
      what[0] = "then_subgraph_index";
      what[1] = "else_subgraph_index";
      return 2;
    case TFCC_OP_CALL_ONCE: what[0] = "init_subgraph_index"; return 1;
    case TFCC_OP_CALL: what[0] = "subgraph"; return 1;
    case TFCC_OP_STABLEHLO_COMPOSITE: what[0] = "decomposition_subgraph_index"; return 1; /* opsc */
    default: return 0;
  }
}

/* Depth-first from subgraph s; state: 0 unseen, 1 on the current path, 2 done. path[] holds
 * the subgraphs on the path for the message. */
static tfcc_status visit(const tfcc_graph *g, int32_t s, uint8_t *state, int32_t *path,
                         int32_t depth, tfcc_err *err) {
  state[s] = 1;
  path[depth] = s;
  const tfcc_ir_subgraph *sg = &g->subgraphs[s];
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    const tfcc_ir_node *n = &sg->nodes[i];
    int32_t idx[TFCC_MAX_CASE_BRANCHES];
    const char *what[2];
    int32_t k = called(n, idx, what);
    for (int32_t j = 0; j < k; j++) {
      if (idx[j] < 0 || idx[j] >= g->n_subgraphs)
        return tfcc_err_set(
            err, TFCC_ERR_INVALID_MODEL,
            "subgraph %d node %d (%s): %s %d is out of range (the model has %d subgraphs)", (int)s,
            (int)i, tfcc_builtin_name(n->builtin), what[j < 2 ? j : 1], (int)idx[j],
            (int)g->n_subgraphs);
      if (state[idx[j]] == 1) {
        char chain[256];
        size_t len = 0;
        chain[0] = 0;
        int32_t from = 0;
        while (path[from] != idx[j]) from++;
        for (int32_t d = from; d <= depth && len + 16 < sizeof chain; d++)
          len += (size_t)snprintf(chain + len, sizeof chain - len, "%d -> ", (int)path[d]);
        snprintf(chain + len, sizeof chain - len, "%d", (int)idx[j]);
        return tfcc_err_set(
            err, TFCC_ERR_INVALID_MODEL,
            "subgraph %d node %d (%s): %s %d calls a subgraph that is already running: "
            "recursive subgraph calls (%s) are not supported",
            (int)s, (int)i, tfcc_builtin_name(n->builtin), what[j < 2 ? j : 1], (int)idx[j], chain);
      }
      if (state[idx[j]] == 0) {
        if (depth + 1 >= TFCC_MAX_SUBGRAPH_DEPTH) /* also bounds this recursion */
          return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                              "subgraph %d node %d (%s): %s %d: subgraph calls nest deeper than %d",
                              (int)s, (int)i, tfcc_builtin_name(n->builtin), what[j < 2 ? j : 1],
                              (int)idx[j], TFCC_MAX_SUBGRAPH_DEPTH);
        tfcc_status st = visit(g, idx[j], state, path, depth + 1, err);
        if (st != TFCC_OK) return st;
      }
    }
  }
  state[s] = 2;
  return TFCC_OK;
}

void tfcc_graph_mark_calls(const tfcc_graph *g, int32_t s, uint8_t *mark) {
  if (mark[s]) return;
  mark[s] = 1;
  const tfcc_ir_subgraph *sg = &g->subgraphs[s];
  for (int32_t i = 0; i < sg->n_nodes; i++) {
    int32_t idx[TFCC_MAX_CASE_BRANCHES];
    const char *what[2];
    const int32_t k = called(&sg->nodes[i], idx, what);
    for (int32_t j = 0; j < k; j++) tfcc_graph_mark_calls(g, idx[j], mark);
  }
}

static bool same_str(const char *a, uint32_t al, const char *b, uint32_t bl) {
  return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

tfcc_status tfcc_graph_check_calls(tfcc_graph *g, int32_t *n_vars, tfcc_err *err) {
  *n_vars = 0;
  uint8_t *state = calloc((size_t)g->n_subgraphs + 1, 1);
  int32_t *path = calloc((size_t)g->n_subgraphs + 1, sizeof *path);
  tfcc_status st = state && path ? TFCC_OK : tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t s = 0; st == TFCC_OK && s < g->n_subgraphs; s++)
    if (state[s] == 0) st = visit(g, s, state, path, 0, err);
  free(state);
  free(path);
  if (st != TFCC_OK) return st;
  /* Resource ids: the distinct (container, shared_name) pairs, in order of appearance. */
  const tfcc_var_handle_options **seen = NULL;
  int32_t n_seen = 0, cap = 0;
  for (int32_t s = 0; s < g->n_subgraphs; s++)
    for (int32_t i = 0; i < g->subgraphs[s].n_nodes; i++) {
      tfcc_ir_node *n = &g->subgraphs[s].nodes[i];
      if (n->builtin != TFCC_OP_VAR_HANDLE || n->opts.kind != TFCC_OPTIONS_VAR_HANDLE) continue;
      tfcc_var_handle_options *o = &n->opts.var_handle;
      int32_t id = -1;
      for (int32_t k = 0; k < n_seen && id < 0; k++)
        if (same_str(seen[k]->container, seen[k]->container_len, o->container, o->container_len) &&
            same_str(seen[k]->shared_name, seen[k]->shared_name_len, o->shared_name,
                     o->shared_name_len))
          id = k;
      if (id < 0) {
        if (n_seen == cap) {
          cap = cap ? cap * 2 : 16;
          const tfcc_var_handle_options **ns = realloc((void *)seen, (size_t)cap * sizeof *seen);
          if (!ns) {
            free((void *)seen);
            return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
          }
          seen = ns;
        }
        id = n_seen;
        seen[n_seen++] = o;
      }
      o->resource_id = id;
    }
  free((void *)seen);
  *n_vars = n_seen;
  return TFCC_OK;
}
