/* Tiny IR graphs for the graph-pass unit tests: build a subgraph by hand, run the passes (or
 * not), initialise the operators, plan and evaluate it, and read the outputs. */
#ifndef TFCC_TEST_PASS_TEST_UTIL_H
#define TFCC_TEST_PASS_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "fb_test_builder.h"
#include "format/tflite_options.h"
#include "passes/pass_manager.h"
#include "passes/passes.h"
#include "runtime/exec_plan.h"
#include "test_harness.h"

typedef struct ptu {
  tfcc_graph g;
  tfcc_ir_subgraph *sg;
  uint8_t opts[16][512];
  int32_t n_live; /* live nodes after ptu_passes */
  /* the last ptu_eval's memory plan */
  size_t arena_bytes, lower_bound, naive_bytes;
  int32_t n_views, n_inplace;
} ptu;

static inline void ptu_begin(ptu *p, int32_t n_tensors, int32_t n_nodes) {
  memset(p, 0, sizeof *p);
  p->g.n_subgraphs = 1;
  p->g.subgraphs = tfcc_graph_alloc(&p->g, sizeof(tfcc_ir_subgraph), 8);
  p->sg = p->g.subgraphs;
  p->sg->name = "";
  p->sg->n_tensors = n_tensors;
  p->sg->tensors = tfcc_graph_alloc(&p->g, sizeof(tfcc_ir_tensor) * (size_t)n_tensors, 8);
  p->sg->n_nodes = n_nodes;
  p->sg->nodes = tfcc_graph_alloc(&p->g, sizeof(tfcc_ir_node) * (size_t)n_nodes, 8);
}

/* Tensor i; data (copied into graph memory) makes it a constant. */
static inline void ptu_tensor(ptu *p, int32_t i, tfcc_dtype dt, int32_t rank, const int32_t *dims,
                              const void *data) {
  tfcc_ir_tensor *t = &p->sg->tensors[i];
  t->name = "";
  t->dtype = dt;
  t->rank = rank;
  for (int32_t d = 0; d < rank; d++) t->dims[d] = t->signature[d] = dims[d];
  t->has_signature = true;
  if (data) {
    int64_t n = tfcc_shape_elements(rank, dims);
    t->data_bytes = (size_t)n * tfcc_dtype_size(dt);
    void *copy = tfcc_graph_alloc(&p->g, t->data_bytes ? t->data_bytes : 1, 64);
    memcpy(copy, data, t->data_bytes);
    t->data = copy;
  }
}

/* Per-tensor quantization. */
static inline void ptu_quant(ptu *p, int32_t i, float scale, int32_t zp) {
  tfcc_quant *q = &p->sg->tensors[i].quant;
  q->count = 1;
  q->scale = tfcc_graph_alloc(&p->g, sizeof(float), 4);
  int32_t *z = tfcc_graph_alloc(&p->g, sizeof(int32_t), 4);
  q->scale[0] = scale;
  z[0] = zp;
  q->zero_point = z;
}

/* Per-channel (axis) quantization with zero points 0. */
static inline void ptu_quant_axis(ptu *p, int32_t i, int32_t axis, int32_t n, const float *scales) {
  tfcc_quant *q = &p->sg->tensors[i].quant;
  q->count = n;
  q->axis = axis;
  q->scale = tfcc_graph_alloc(&p->g, sizeof(float) * (size_t)n, 4);
  q->zero_point = tfcc_graph_alloc(&p->g, sizeof(int32_t) * (size_t)n, 4);
  memcpy(q->scale, scales, sizeof(float) * (size_t)n);
}

/* Node i: builtin with inputs/outputs and an options table (fields may be NULL). */
static inline void ptu_node(ptu *p, int32_t i, int32_t builtin, int32_t n_in, const int32_t *in,
                            int32_t n_out, const int32_t *out, uint8_t opts_type,
                            const tfb_field *fields, int n_fields) {
  tfcc_ir_node *n = &p->sg->nodes[i];
  n->builtin = builtin;
  n->version = 1;
  n->n_inputs = n_in;
  n->n_outputs = n_out;
  n->inputs = tfcc_graph_alloc(&p->g, sizeof(int32_t) * (size_t)(n_in + 1), 4);
  n->outputs = tfcc_graph_alloc(&p->g, sizeof(int32_t) * (size_t)(n_out + 1), 4);
  memcpy(n->inputs, in, sizeof(int32_t) * (size_t)n_in);
  memcpy(n->outputs, out, sizeof(int32_t) * (size_t)n_out);
  n->options_type = opts_type;
  tfcc_fb_table t = {0};
  if (fields) t = tfb_build(p->opts[i], sizeof p->opts[i], fields, n_fields);
  tfcc_err err = {0};
  tfcc_status st = tfl_read_options(builtin, opts_type, &t, &n->opts, &err);
  CHECKF(st == TFCC_OK, "node %d options: %s", (int)i, err.msg);
  n->op = tfcc_op_lookup(builtin);
}

static inline void ptu_io(ptu *p, int32_t n_in, const int32_t *in, int32_t n_out,
                          const int32_t *out) {
  p->sg->n_inputs = n_in;
  p->sg->n_outputs = n_out;
  p->sg->inputs = tfcc_graph_alloc(&p->g, sizeof(int32_t) * (size_t)(n_in + 1), 4);
  p->sg->outputs = tfcc_graph_alloc(&p->g, sizeof(int32_t) * (size_t)(n_out + 1), 4);
  memcpy(p->sg->inputs, in, sizeof(int32_t) * (size_t)n_in);
  memcpy(p->sg->outputs, out, sizeof(int32_t) * (size_t)n_out);
}

/* Runs the passes whose bits are not in `disabled` (TFCC_PASS_ALL: none). 0 on success. */
static inline int ptu_passes(ptu *p, uint32_t disabled) {
  tfcc_err err = {0};
  tfcc_status st =
      tfcc_run_passes(&p->g, disabled, tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_), NULL, 0, &err);
  CHECKF(st == TFCC_OK, "passes: %s", err.msg);
  p->n_live = 0;
  for (int32_t i = 0; i < p->sg->n_nodes; i++) p->n_live += !p->sg->nodes[i].removed;
  return st == TFCC_OK ? 0 : -1;
}

/* Initialises the live nodes, plans with memory, binds inputs/outputs and evaluates. */
static inline int ptu_eval(ptu *p, const void *const *inputs, void *const *outputs) {
  tfcc_err err = {0};
  tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int32_t i = 0; i < p->sg->n_nodes; i++) {
    tfcc_ir_node *n = &p->sg->nodes[i];
    if (n->removed || n->params || !n->op || !n->op->init) continue;
    tfcc_init_ctx c = {.graph = &p->g,
                       .sg = p->sg,
                       .node = n,
                       .node_index = i,
                       .err = &err,
                       .isa = isa,
                       .ks = tfcc_kernel_set_for(isa)};
    tfcc_status st = n->op->init(&c);
    n->params = c.params;
    CHECKF(st == TFCC_OK, "init node %d: %s", (int)i, err.msg);
    if (st != TFCC_OK) return -1;
  }
  tfcc_exec_plan plan;
  tfcc_exec_env env = {.isa = isa};
  tfcc_status st = tfcc_exec_plan_build(&plan, &p->g, 0, NULL, true, &env, &err);
  CHECKF(st == TFCC_OK, "plan: %s", err.msg);
  if (st != TFCC_OK) return -1;
  for (int32_t i = 0; i < p->sg->n_inputs; i++)
    plan.tensors[p->sg->inputs[i]].data = (void *)inputs[i];
  for (int32_t i = 0; i < p->sg->n_outputs; i++) plan.tensors[p->sg->outputs[i]].data = outputs[i];
  p->arena_bytes = plan.arena_bytes;
  p->lower_bound = plan.arena_lower_bound;
  p->naive_bytes = plan.naive_bytes;
  p->n_views = plan.n_views;
  p->n_inplace = plan.n_inplace;
  int rc = 0;
  for (int32_t e = 0; e < plan.n_nodes && rc == 0; e++) {
    tfcc_exec_node *en = &plan.nodes[e];
    if (en->folded || en->view) continue;
    en->ctx.err = &err;
    st = en->ctx.node->op->eval(&en->ctx);
    CHECKF(st == TFCC_OK, "eval node %d: %s", (int)en->node, err.msg);
    if (st != TFCC_OK) rc = -1;
  }
  tfcc_exec_plan_free(&plan);
  return rc;
}

static inline void ptu_end(ptu *p) {
  for (int32_t i = 0; i < p->sg->n_nodes; i++) {
    tfcc_ir_node *n = &p->sg->nodes[i];
    if (!n->params) continue;
    if (n->op && n->op->release)
      n->op->release(n->params);
    else
      free(n->params);
  }
  tfcc_graph_free(&p->g);
}

/* Deterministic values in [lo, hi). */
static inline void ptu_fill(float *v, int64_t n, uint32_t seed, float lo, float hi) {
  uint32_t s = seed * 2654435761u + 1;
  for (int64_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    v[i] = lo + (hi - lo) * (float)(s >> 8) / 16777216.0f;
  }
}

#endif
