/* Model introspection for bindings that follow TensorFlow Lite's numbering: tensor indices of
 * the inputs and outputs, and the file's SignatureDefs. */
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
