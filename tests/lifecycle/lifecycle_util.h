/* Helpers of the lifecycle tests: model variants with the same graph and other weights. */
#ifndef TFCC_TESTS_LIFECYCLE_UTIL_H
#define TFCC_TESTS_LIFECYCLE_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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

/* Writes n bytes to path (created or truncated). */
static inline bool lc_write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(p, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* A one-thread runtime at ISA cap isa (NULL: this CPU's best) logging through log_fn. */
static inline tfcc_runtime *lc_runtime(const char *isa, tfcc_log_fn log_fn) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.isa = isa;
  ro.log_fn = log_fn;
  tfcc_runtime *rt = NULL;
  return tfcc_runtime_create(&ro, &rt) == TFCC_OK ? rt : NULL;
}

/* The cache tests' fixed input: every byte from a hash of its index, float32 tensors values in
 * [-1, 1] in steps of 1e-3. */
static inline void lc_fill_input(uint8_t *in, const tfcc_tensor_info *ii) {
  for (size_t i = 0; i < ii->bytes; i++) in[i] = (uint8_t)((i * 2654435761u) >> 13);
  if (ii->dtype == TFCC_FLOAT32)
    for (size_t i = 0; i + 4 <= ii->bytes; i += 4) {
      float v = (float)((int)((i / 4 * 2654435761u) >> 7) % 2001 - 1000) / 1000.0f;
      memcpy(in + i, &v, 4);
    }
}

/* Creates a session of m, runs it once on lc_fill_input's inputs (at most 8) with every output
 * (at most 8) laid end to end in out[0..cap), destroys the session; *out_bytes: the outputs'
 * bytes. On failure false, and when what is not NULL the session's message names it. */
static inline bool lc_run_outputs(tfcc_model *m, uint8_t *out, size_t cap, size_t *out_bytes,
                                  const char *what) {
  tfcc_session *s = NULL;
  bool ok = m && tfcc_session_create(m, NULL, &s) == TFCC_OK;
  const int n_in = ok ? tfcc_session_input_count(s) : 0,
            n_out = ok ? tfcc_session_output_count(s) : 0;
  const void *ins[8] = {0};
  void *outs[8] = {0};
  size_t total = 0;
  ok = ok && n_in <= 8 && n_out <= 8;
  for (int k = 0; ok && k < n_in; k++) {
    tfcc_tensor_info ii;
    ok = tfcc_session_input_info(s, k, &ii) == TFCC_OK;
    uint8_t *in = ok ? malloc(ii.bytes + 1) : NULL;
    ins[k] = in;
    ok = ok && in;
    if (ok) lc_fill_input(in, &ii);
  }
  for (int k = 0; ok && k < n_out; k++) {
    tfcc_tensor_info oi;
    ok = tfcc_session_output_info(s, k, &oi) == TFCC_OK && total + oi.bytes <= cap;
    outs[k] = out + total;
    total += ok ? oi.bytes : 0;
  }
  ok = ok && tfcc_session_run(s, ins, outs) == TFCC_OK;
  if (!ok && s && what) fprintf(stderr, "run %s: %s\n", what, tfcc_session_last_error(s));
  *out_bytes = total;
  for (int k = 0; k < n_in; k++) free((void *)ins[k]);
  tfcc_session_destroy(s);
  return ok;
}

#endif
