/* C side of the npm package tfcc-wasm: the calls tfcc.mjs makes, over the public API only
 * (include/tfcc/tfcc.h). Handles are the C pointers; a failed call returns 0 / a status and
 * leaves its message for tfccw_last_error (creation) or tfcc_session_last_error (run).
 *
 * Tensor descriptions go to JavaScript as one flat int32 record (tfccw_io_info), so the JS side
 * needs no knowledge of C struct layouts. */
#include <emscripten/emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfcc/tfcc.h"

#define EXPORT EMSCRIPTEN_KEEPALIVE

static char g_err[512];

/* "what: tfcc's message" (its message names the cause), or the status text when it has none. */
static void set_err(const char *what, tfcc_status st, const char *detail) {
  snprintf(g_err, sizeof g_err, "%s: %s", what, detail && detail[0] ? detail : tfcc_status_str(st));
}

EXPORT const char *tfccw_last_error(void) { return g_err; }
EXPORT const char *tfccw_version(void) { return tfcc_version(); }

/* 1 when built with pthreads (-pthread, TFCC_WASM_THREADS): runtimes may have workers. */
EXPORT int tfccw_has_threads(void) {
#ifdef __EMSCRIPTEN_PTHREADS__
  return 1;
#else
  return 0;
#endif
}

EXPORT const char *tfccw_isa(const char *cap) {
  tfcc_isa c = TFCC_ISA_COUNT_;
  if (cap && tfcc_isa_parse(cap, &c) != TFCC_OK) c = TFCC_ISA_COUNT_;
  return tfcc_isa_name(tfcc_isa_dispatch_level(c));
}

/* The variant dispatch takes for kernel family `family` ("q8-gemm") at the level of cap (NULL:
 * the best), "" when there is no such family. In the relaxed-SIMD binary the first query of
 * "q8-gemm" runs the self-check of the engine's relaxed dot product (q8-gemm-4x8-wasmrdot where
 * it is exact, else the SIMD128 q8-gemm-4x8-wasmsimd). */
EXPORT const char *tfccw_kernel_variant(const char *family, const char *cap) {
  tfcc_isa c = TFCC_ISA_COUNT_;
  if (cap && tfcc_isa_parse(cap, &c) != TFCC_OK) c = TFCC_ISA_COUNT_;
  const tfcc_isa level = tfcc_isa_dispatch_level(c);
  for (int i = 0; i < tfcc_kernel_family_count(); i++) {
    tfcc_kernel_family f;
    if (tfcc_kernel_family_get(i, level, &f) == TFCC_OK && f.name && strcmp(f.name, family) == 0)
      return f.variant ? f.variant : "";
  }
  return "";
}

/* isa: NULL or a cap name ("generic": the portable kernels, for A/B checks). */
EXPORT tfcc_runtime *tfccw_runtime_create(int threads, const char *isa) {
  tfcc_runtime_options o;
  tfcc_runtime_options_default(&o);
  o.num_threads = threads > 0 ? threads : 1;
  o.isa = isa;
  tfcc_runtime *rt = NULL;
  tfcc_status st = tfcc_runtime_create(&o, &rt);
  if (st != TFCC_OK) {
    set_err("runtime", st, tfcc_last_error());
    return NULL;
  }
  return rt;
}

EXPORT void tfccw_runtime_destroy(tfcc_runtime *rt) { tfcc_runtime_destroy(rt); }

static void free_bytes(void *user, void *data, size_t size) {
  (void)user;
  (void)size;
  free(data);
}

/* Takes ownership of data (malloc'ed by the caller), also on failure. */
EXPORT tfcc_model *tfccw_model_load(tfcc_runtime *rt, void *data, size_t size) {
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_owned_buffer(rt, data, size, free_bytes, NULL, NULL, &m);
  if (st != TFCC_OK) {
    set_err("model", st, tfcc_last_error());
    return NULL;
  }
  return m;
}

EXPORT void tfccw_model_release(tfcc_model *m) { tfcc_model_release(m); }

EXPORT tfcc_session *tfccw_session_create(tfcc_model *m) {
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create(m, NULL, &s);
  if (st != TFCC_OK) {
    set_err("session", st, tfcc_last_error());
    return NULL;
  }
  return s;
}

EXPORT void tfccw_session_destroy(tfcc_session *s) { tfcc_session_destroy(s); }

EXPORT int tfccw_io_count(const tfcc_session *s, int output) {
  return output ? tfcc_session_output_count(s) : tfcc_session_input_count(s);
}

/* Record of input/output `index` (int32 words): [0] name (char *), [1] dtype, [2] rank,
 * [3] bytes, [4] quant_count, [5] scales (float *), [6] zero_points (int32 *), [7] quant_axis,
 * [8] dynamic (outputs), [9 .. 9 + TFCC_MAX_DIMS) dims. Valid until the next call. NULL on
 * error. */
#define IO_WORDS (9 + TFCC_MAX_DIMS)
EXPORT const int32_t *tfccw_io_info(const tfcc_session *s, int output, int index) {
  static int32_t rec[IO_WORDS];
  tfcc_tensor_info ti;
  tfcc_status st =
      output ? tfcc_session_output_info(s, index, &ti) : tfcc_session_input_info(s, index, &ti);
  if (st != TFCC_OK) {
    set_err(output ? "output info" : "input info", st, tfcc_session_last_error(s));
    return NULL;
  }
  memset(rec, 0, sizeof rec);
  rec[0] = (int32_t)(intptr_t)ti.name;
  rec[1] = (int32_t)ti.dtype;
  rec[2] = ti.rank;
  rec[3] = (int32_t)ti.bytes;
  rec[4] = ti.quant_count;
  rec[5] = (int32_t)(intptr_t)ti.scales;
  rec[6] = (int32_t)(intptr_t)ti.zero_points;
  rec[7] = ti.quant_axis;
  rec[8] = output ? tfcc_session_output_is_dynamic(s, index) : 0;
  for (int i = 0; i < ti.rank && i < TFCC_MAX_DIMS; i++) rec[9 + i] = ti.dims[i];
  return rec;
}

EXPORT int tfccw_max_dims(void) { return TFCC_MAX_DIMS; }

/* inputs / outputs: arrays of buffer pointers in index order (a NULL output: dynamic, read it
 * with tfccw_output_data). Returns the status; the message is tfccw_session_error(s). */
EXPORT int tfccw_session_run(tfcc_session *s, const void *const *inputs, void *const *outputs) {
  return (int)tfcc_session_run(s, inputs, outputs);
}

EXPORT const char *tfccw_session_error(const tfcc_session *s) {
  const char *e = tfcc_session_last_error(s);
  return e && e[0] ? e : g_err;
}

EXPORT const char *tfccw_status_str(int st) { return tfcc_status_str((tfcc_status)st); }

/* A dynamic output's values after a run: pointer, bytes in *bytes; NULL on error. */
EXPORT const void *tfccw_output_data(const tfcc_session *s, int index, size_t *bytes) {
  const void *d = NULL;
  tfcc_status st = tfcc_session_output_data(s, index, &d, bytes);
  if (st != TFCC_OK) {
    set_err("output data", st, tfcc_session_last_error(s));
    return NULL;
  }
  return d;
}

/* Per-operator profile: turn it on (allocates now) or off. */
EXPORT int tfccw_session_set_profiling(tfcc_session *s, int enable) {
  return (int)tfcc_session_set_profiling(s, enable);
}

/* Operator `i` of the profile as a record of words: [0] name, [1] kernel, [2] node, [3] runs,
 * [4..5] total_ms (float64, 8-byte aligned), [6..7] macs (float64). Entry count with i = -1
 * (returned as the first word). Valid until the next call. */
EXPORT const int32_t *tfccw_session_profile(const tfcc_session *s, int i) {
  static union {
    double d[4];
    int32_t w[8];
  } rec;
  const tfcc_op_profile *e = NULL;
  const int n = tfcc_session_profile(s, &e);
  memset(&rec, 0, sizeof rec);
  if (i < 0) {
    rec.w[0] = n;
    return rec.w;
  }
  if (i >= n || !e) return NULL;
  rec.w[0] = (int32_t)(intptr_t)e[i].name;
  rec.w[1] = (int32_t)(intptr_t)e[i].kernel;
  rec.w[2] = e[i].node;
  rec.w[3] = (int32_t)e[i].runs;
  rec.d[2] = e[i].total_ms;
  rec.d[3] = (double)e[i].macs;
  return rec.w;
}
