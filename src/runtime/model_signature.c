/* Model introspection for bindings that follow TensorFlow Lite's numbering: tensor indices of
 * the inputs and outputs, the file's SignatureDefs, and its subgraphs (which ones run). */
#include <string.h>

#include "runtime/internal.h"

static tfcc_status io_tensor(const tfcc_model *m, int is_output, int index, int32_t *tensor) {
  if (!m || !tensor) return TFCC_ERR_INVALID_ARG;
  const tfcc_ir_subgraph *sg = &m->graph.subgraphs[0];
  const int32_t n = is_output ? sg->n_outputs : sg->n_inputs;
  if (index < 0 || index >= n) return TFCC_ERR_INVALID_ARG;
  *tensor = is_output ? sg->outputs[index] : sg->inputs[index];
  return TFCC_OK;
}

tfcc_status tfcc_model_input_tensor(const tfcc_model *m, int index, int32_t *tensor) {
  return io_tensor(m, 0, index, tensor);
}

tfcc_status tfcc_model_output_tensor(const tfcc_model *m, int index, int32_t *tensor) {
  return io_tensor(m, 1, index, tensor);
}

int tfcc_model_signature_count(const tfcc_model *m) { return m ? m->graph.n_signatures : 0; }

tfcc_status tfcc_model_signature_info(const tfcc_model *m, int index, tfcc_signature_info *info) {
  if (!m || !info || index < 0 || index >= m->graph.n_signatures) return TFCC_ERR_INVALID_ARG;
  const tfcc_ir_signature *s = &m->graph.signatures[index];
  memset(info, 0, sizeof *info);
  info->key = s->key ? s->key : "";
  info->subgraph = s->subgraph;
  info->input_count = s->n_inputs;
  info->output_count = s->n_outputs;
  info->input_names = (const char *const *)s->input_names;
  info->input_tensors = s->input_tensors;
  info->output_names = (const char *const *)s->output_names;
  info->output_tensors = s->output_tensors;
  return TFCC_OK;
}

int tfcc_model_subgraph_count(const tfcc_model *m) { return m ? m->graph.n_subgraphs : 0; }

tfcc_status tfcc_model_subgraph_info(const tfcc_model *m, int index, tfcc_subgraph_info *info) {
  if (!m || !info || index < 0 || index >= m->graph.n_subgraphs) return TFCC_ERR_INVALID_ARG;
  const tfcc_graph *g = &m->graph;
  const tfcc_ir_subgraph *sg = &g->subgraphs[index];
  memset(info, 0, sizeof *info);
  info->name = sg->name ? sg->name : "";
  info->input_count = sg->n_inputs;
  info->output_count = sg->n_outputs;
  info->op_count = sg->n_nodes;
  info->entry = index == 0;
  for (int32_t k = 0; k < g->n_signatures; k++)
    if (g->signatures[k].subgraph == index) info->entry = 1;
  info->caller = -1;
  for (int32_t s = 0; s < g->n_subgraphs && info->caller < 0; s++)
    for (int32_t i = 0; i < g->subgraphs[s].n_nodes && info->caller < 0; i++) {
      const tfcc_ir_node *n = &g->subgraphs[s].nodes[i];
      if (n->opts.kind != TFCC_OPTIONS_SUBGRAPHS) continue;
      const char *role = NULL;
      switch (n->builtin) {
        case TFCC_OP_WHILE:
          role = n->opts.subgraphs.first == index    ? "cond"
                 : n->opts.subgraphs.second == index ? "body"
                                                     : NULL;
          break;
        case TFCC_OP_IF:
          role = n->opts.subgraphs.first == index    ? "then"
                 : n->opts.subgraphs.second == index ? "else"
                                                     : NULL;
          break;
        case TFCC_OP_CALL_ONCE: role = n->opts.subgraphs.first == index ? "init" : NULL; break;
        case TFCC_OP_CALL: role = n->opts.subgraphs.first == index ? "call" : NULL; break;
        default: break;
      }
      if (!role) continue;
      info->caller = s;
      info->caller_node = i;
      info->caller_op = tfcc_builtin_name(n->builtin);
      info->role = role;
    }
  return TFCC_OK;
}

const char *tfcc_model_subgraph_error(const tfcc_model *m, int index) {
  if (!m || index < 0 || index >= m->graph.n_subgraphs) return NULL;
  if (index < m->n_sg_cause && m->sg_cause[index]) return m->sg_cause[index];
  return index == 0 && m->graph.subgraphs[0].unrunnable ? m->unsupported : "";
}
