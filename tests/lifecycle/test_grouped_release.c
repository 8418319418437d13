/* A CONV_2D whose filter a load from a file packed and gave back (runtime/const_release.h),
 * then resized to a grouped convolution (input channels a multiple of the filter's), whose
 * kernel reads the raw filter: the resize must be refused naming why, or run to the outputs of
 * the same model loaded from the caller's buffer (whose bytes are never given back). Before,
 * the grouped run read the given back pages: zeros in the model's copy of its file, wrong
 * outputs (float32, int8 and 16x8 alike), and a fault with TFCC_DEBUG_RELEASE_TRAP=1 (given back
 * pages made inaccessible). The models (modelgen/make_grouped_release.py): a 3x3 filter of 64
 * input and 16 output channels, whole 4 KiB pages of it given back; the float32 one also at
 * precision bf16, whose packing gives the filter back too. Ungrouped shapes still run, on the
 * packing, to the buffer-loaded model's outputs. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "test_runtime.h"
#include "tfcc/tfcc.h"

/* Runs m once with input 0 resized to dims (values from a fixed pattern); *out gets a copy of
 * output 0 (*out_bytes bytes). TFCC_OK, or the failing status with the session's message in
 * why. */
static tfcc_status run_at(tfcc_model *m, const int32_t dims[4], void **out, size_t *out_bytes,
                          char *why, size_t why_cap) {
  *out = NULL;
  *out_bytes = 0;
  why[0] = 0;
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create(m, &so, &s);
  if (st != TFCC_OK) {
    snprintf(why, why_cap, "%s", tfcc_last_error());
    return st;
  }
  st = tfcc_session_resize_input(s, 0, 4, dims);
  tfcc_tensor_info in, o;
  void *ib = NULL, *ob = NULL;
  if (st == TFCC_OK) st = tfcc_session_input_info(s, 0, &in);
  if (st == TFCC_OK) st = tfcc_session_output_info(s, 0, &o);
  if (st == TFCC_OK) {
    ib = malloc(in.bytes);
    ob = malloc(o.bytes);
    if (!ib || !ob) st = TFCC_ERR_NO_MEMORY;
  }
  if (st == TFCC_OK) {
    for (size_t i = 0; i < in.bytes; i++) ((uint8_t *)ib)[i] = (uint8_t)(i * 37u + 11u);
    if (in.dtype == TFCC_FLOAT32)
      for (size_t i = 0; i < in.bytes / sizeof(float); i++)
        ((float *)ib)[i] = (float)((int)(i % 17) - 8) * 0.25f;
    const void *ins[1] = {ib};
    void *outs[1] = {ob};
    st = tfcc_session_run(s, ins, outs);
  }
  if (st != TFCC_OK) {
    snprintf(why, why_cap, "%s", tfcc_session_last_error(s));
    free(ob);
  } else {
    *out = ob;
    *out_bytes = o.bytes;
  }
  free(ib);
  tfcc_session_destroy(s);
  return st;
}

/* One model at one input shape: file load (given back pages) against buffer load. */
static void check_shape(tfcc_runtime *rt, const char *path, const uint8_t *bytes, size_t size,
                        const int32_t dims[4], bool trap, tfcc_precision precision) {
  const bool grouped = dims[3] != 64;
  if (trap)
    setenv("TFCC_DEBUG_RELEASE_TRAP", "1", 1);
  else
    unsetenv("TFCC_DEBUG_RELEASE_TRAP");
  char what[1200];
  snprintf(what, sizeof what, "%s [%d,%d,%d,%d]%s%s", path, (int)dims[0], (int)dims[1],
           (int)dims[2], (int)dims[3], trap ? " (release trap)" : "",
           precision == TFCC_PRECISION_BF16 ? " (precision bf16)" : "");
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = precision;
  /* the caller's buffer: nothing given back; every shape runs */
  tfcc_model *mb = NULL;
  CHECKF(tfcc_model_load_buffer(rt, bytes, size, &mo, &mb) == TFCC_OK, "%s: buffer load: %s", what,
         tfcc_last_error());
  void *ref = NULL, *got = NULL;
  size_t ref_n = 0, got_n = 0;
  char why[512];
  if (mb)
    CHECKF(run_at(mb, dims, &ref, &ref_n, why, sizeof why) == TFCC_OK, "%s: buffer load: %s", what,
           why);
  tfcc_model *mf = NULL;
  CHECKF(tfcc_model_load_file(rt, path, &mo, &mf) == TFCC_OK, "%s: file load: %s", what,
         tfcc_last_error());
  if (mf && ref) {
    const tfcc_status st = run_at(mf, dims, &got, &got_n, why, sizeof why);
    if (st == TFCC_OK) {
      CHECKF(got_n == ref_n && memcmp(got, ref, ref_n) == 0,
             "%s: the file-loaded model's output differs from the buffer-loaded one's", what);
    } else {
      /* refused: only a grouped shape, naming why */
      CHECKF(grouped && strstr(why, "grouped convolution") && strstr(why, "gave its pages back"),
             "%s: file load refused: %s", what, why);
    }
  }
  free(ref);
  free(got);
  tfcc_model_release(mf);
  tfcc_model_release(mb);
}

int main(void) {
  tfcc_runtime *rt = tfcc_test_runtime();
  if (!rt) return tfcc_test_finish("grouped_release");
  static const char *const models[] = {"conv_f32", "conv_i8", "conv_i16"};
  static const int32_t shapes[][4] = {{1, 6, 6, 128}, {2, 5, 7, 256}, {1, 6, 6, 64}, {2, 9, 4, 64}};
  for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ops/data/grouped_release/%s.tflite",
             tfcc_test_source_dir(), models[i]);
    size_t size = 0;
    uint8_t *bytes = tfcc_test_read_file(path, &size);
    CHECKF(bytes != NULL, "%s: cannot read", path);
    if (!bytes) continue;
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++)
      for (int trap = 0; trap < 2; trap++) {
        check_shape(rt, path, bytes, size, shapes[k], trap, TFCC_PRECISION_F32);
        /* float32 at precision bf16: the bf16 packing consumes the filter (ops/bf16_fast.c) */
        if (i == 0) check_shape(rt, path, bytes, size, shapes[k], trap, TFCC_PRECISION_BF16);
      }
    free(bytes);
  }
  unsetenv("TFCC_DEBUG_RELEASE_TRAP");
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("grouped_release");
}
