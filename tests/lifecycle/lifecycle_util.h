/* Helpers of the lifecycle tests: model variants with the same graph and other weights. */
#ifndef TFCC_TESTS_LIFECYCLE_UTIL_H
#define TFCC_TESTS_LIFECYCLE_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/tflite_reader.h"
#include "tfcc/tfcc.h"

/* Copy of model[0..size) whose constant tensors stored in the file are changed (floats scaled,
 * integers scrambled), same graph. NULL on failure. */
static inline uint8_t *lc_variant(const uint8_t *model, size_t size, int salt) {
  tfcc_graph g;
  memset(&g, 0, sizeof g);
  tfcc_err err = {0};
  if (tfcc_tflite_read(model, size, &g, &err) != TFCC_OK) return NULL;
  uint8_t *out = malloc(size);
  if (!out) {
    tfcc_graph_free(&g);
    return NULL;
  }
  memcpy(out, model, size);
  const tfcc_ir_subgraph *sg = &g.subgraphs[0];
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    const tfcc_ir_tensor *t = &sg->tensors[i];
    const uint8_t *d = t->data;
    if (!d || d < model || d + t->data_bytes > model + size) continue;
    uint8_t *p = out + (d - model);
    size_t n = t->data_bytes;
    if (t->dtype == TFCC_FLOAT32) {
      for (size_t k = 0; k + 4 <= n; k += 4) {
        float v;
        memcpy(&v, p + k, 4);
        v = v * (-1.25f - 0.25f * (float)salt) + 0.125f;
        memcpy(p + k, &v, 4);
      }
    } else if (t->dtype == TFCC_INT32) {
      for (size_t k = 0; k + 4 <= n; k += 4) {
        int32_t v;
        memcpy(&v, p + k, 4);
        v = v / 2 + 17 * (salt + 1);
        memcpy(p + k, &v, 4);
      }
    } else if (t->dtype == TFCC_INT8 || t->dtype == TFCC_UINT8) {
      for (size_t k = 0; k < n; k++) p[k] = (uint8_t)(p[k] ^ (0x15 + salt));
    }
  }
  tfcc_graph_free(&g);
  return out;
}

/* Runs a one-input, one-output model once on in; out must hold the output's bytes. */
static inline tfcc_status lc_run1(tfcc_session *s, const void *in, void *out) {
  const void *ins[1] = {in};
  void *outs[1] = {out};
  return tfcc_session_run(s, ins, outs);
}

#endif
