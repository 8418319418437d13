/* libFuzzer target: the TFLite loader on arbitrary bytes. A load must either fail with a
 * message or give a graph whose every index and pointer is in range; reading it (and its
 * operators' options tables through the fb accessors) must never fault. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/tflite_reader.h"

static volatile uint32_t g_sink;

static void touch(const void *p, size_t n) {
  if (!p || !n) return;
  const uint8_t *b = p;
  g_sink += b[0] + b[n - 1];
}

static void walk(const tfcc_graph *g) {
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t t = 0; t < sg->n_tensors; t++) {
      const tfcc_ir_tensor *x = &sg->tensors[t];
      if (x->rank < 0 || x->rank > TFCC_MAX_RANK) abort();
      touch(x->data, x->data_bytes);
      g_sink += (uint32_t)strlen(x->name);
      for (int32_t q = 0; q < x->quant.count; q++) {
        uint32_t bits;
        memcpy(&bits, &x->quant.scale[q], sizeof bits);
        g_sink += (uint32_t)x->quant.zero_point[q] + bits;
      }
      if (x->quant.count > 1 && (x->quant.axis < 0 || x->quant.axis >= x->rank)) abort();
      if (x->sparsity)
        for (int32_t k = 0; k < x->sparsity->n_dim_meta; k++) {
          const tfcc_dim_meta *dm = &x->sparsity->dim_meta[k];
          for (uint32_t i = 0; i < dm->segments.count; i++)
            g_sink += (uint32_t)tfcc_sparse_index_get(&dm->segments, i);
          for (uint32_t i = 0; i < dm->indices.count; i++)
            g_sink += (uint32_t)tfcc_sparse_index_get(&dm->indices, i);
        }
    }
    for (int32_t n = 0; n < sg->n_nodes; n++) {
      const tfcc_ir_node *node = &sg->nodes[n];
      for (int32_t k = 0; k < node->n_inputs; k++)
        if (node->inputs[k] < -1 || node->inputs[k] >= sg->n_tensors) abort();
      for (int32_t k = 0; k < node->n_outputs; k++)
        if (node->outputs[k] < 0 || node->outputs[k] >= sg->n_tensors) abort();
      touch(node->custom_options, node->custom_options_len);
      /* typed options (verified at load): the kind of the operator (a custom operator tfcc
       * knows by name carries its own kind), arrays within bounds */
      const bool custom_kind =
          node->builtin == TFCC_OP_CUSTOM &&
          (node->opts.kind == TFCC_OPTIONS_DETECTION_POSTPROCESS ||
           node->opts.kind == TFCC_OPTIONS_AUDIO_SPECTROGRAM ||
           node->opts.kind == TFCC_OPTIONS_MFCC || node->opts.kind == TFCC_OPTIONS_NUMERIC_VERIFY ||
           node->opts.kind == TFCC_OPTIONS_HADAMARD_ROTATION ||
           node->opts.kind == TFCC_OPTIONS_MOE);
      if (node->opts.kind != tfcc_options_kind_of(node->builtin) && !custom_kind) abort();
      if (node->opts.kind == TFCC_OPTIONS_RESHAPE)
        for (uint32_t i = 0; i < node->opts.reshape.n_new_shape && i < TFCC_MAX_RANK; i++)
          g_sink += (uint32_t)node->opts.reshape.new_shape[i];
      if (node->opts.kind == TFCC_OPTIONS_SQUEEZE)
        for (uint32_t i = 0; i < node->opts.squeeze.n_dims && i < TFCC_MAX_RANK; i++)
          g_sink += (uint32_t)node->opts.squeeze.dims[i];
    }
  }
  for (int32_t i = 0; i < g->n_metadata; i++) touch(g->metadata[i].data, g->metadata[i].size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tfcc_graph g;
  tfcc_err err;
  if (tfcc_tflite_read(data, size, &g, &err) == TFCC_OK) {
    walk(&g);
    tfcc_graph_free(&g);
  } else if (err.msg[0] == 0) {
    abort(); /* every failure names its cause */
  }
  return 0;
}
