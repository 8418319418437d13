/* Dynamic tensors on a small model (tests/models/data/runtime_shapes/dyn_chain.tflite, made by
 * make_dyn_chain.py there; references from TensorFlow Lite's classic interpreter):
 *   y = RESHAPE(x, s) with s a graph input; z = MUL(y, y) and zs = SHAPE(z) read it;
 *   f = FILL(s, 1.5); w = ADD(x, x) stays static.
 * Checks which tensors are dynamic and why, the values and shapes at three fed shapes, and a
 * shape that does not fit refused while running with the node named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static char g_dir[4096];

static int load(test_npy *a, const char *file) {
  char path[8192];
  snprintf(path, sizeof path, "%s/%s", g_dir, file);
  int rc = test_npy_load(path, a);
  CHECKF(rc == 0, "cannot read %s", path);
  return rc;
}

static void run_at(tfcc_session *s, const test_npy *x, const char *sname) {
  test_npy sv;
  char file[128];
  snprintf(file, sizeof file, "dyn_chain_%s.npy", sname);
  if (load(&sv, file) != 0) return;
  float z[12], f[12], w[12];
  int32_t zs[2];
  void *outs[4] = {z, zs, f, w};
  const void *ins[2] = {x->data, sv.data};
  tfcc_status st = tfcc_session_run(s, ins, outs);
  CHECKF(st == TFCC_OK, "%s: run: %s", sname, tfcc_session_last_error(s));
  for (int i = 0; i < 4 && st == TFCC_OK; i++) {
    test_npy ref;
    snprintf(file, sizeof file, "dyn_chain_%s_out%d.npy", sname, i);
    if (load(&ref, file) != 0) continue;
    tfcc_tensor_info info;
    tfcc_session_output_info(s, i, &info);
    CHECKF(info.rank == ref.rank && info.bytes == ref.bytes,
           "%s: output %d: rank %d %zu bytes, ref rank %d %zu bytes", sname, i, (int)info.rank,
           info.bytes, (int)ref.rank, ref.bytes);
    for (int32_t d = 0; d < ref.rank && d < info.rank; d++)
      CHECKF(info.dims[d] == ref.dims[d], "%s: output %d dim %d: %d, ref %d", sname, i, (int)d,
             (int)info.dims[d], (int)ref.dims[d]);
    CHECKF(info.bytes == ref.bytes && memcmp(outs[i], ref.data, ref.bytes) == 0,
           "%s: output %d differs from TFLite", sname, i);
    test_npy_free(&ref);
  }
  test_npy_free(&sv);
}

/* WHERE: where_chain.tflite (GREATER, WHERE, CAST and GATHER_ND of its result). The count of
 * true elements sizes three tensors in each run; buffers bound with room for the largest. */
static void check_where(tfcc_runtime *rt) {
  char path[8192];
  snprintf(path, sizeof path, "%s/where_chain.tflite", g_dir);
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  CHECKF(st == TFCC_OK, "load %s: %s", path, tfcc_last_error());
  if (st != TFCC_OK) return;
  st = tfcc_session_create(m, NULL, &s);
  CHECKF(st == TFCC_OK, "session: %s", tfcc_last_error());
  tfcc_model_release(m);
  if (st != TFCC_OK) return;
  CHECK(tfcc_session_output_is_dynamic(s, 0) == 1 && tfcc_session_output_is_dynamic(s, 1) == 1);
  CHECK(tfcc_session_dynamic_tensor_count(s) == 3);
  tfcc_dynamic_tensor_info d;
  CHECK(tfcc_session_dynamic_tensor_info(s, 0, &d) == TFCC_OK && strcmp(d.op, "WHERE") == 0 &&
        strstr(d.reason, "depends on the values") != NULL);
  int32_t k[30];
  float v[15];
  CHECK(tfcc_session_set_output(s, 0, k, sizeof k) == TFCC_OK);
  CHECK(tfcc_session_set_output(s, 1, v, sizeof v) == TFCC_OK);
  static const char *sets[5] = {"p4", "p9", "p0", "p15", "p4"};
  for (int r = 0; r < 5; r++) {
    test_npy x;
    char file[128];
    snprintf(file, sizeof file, "where_chain_%s.npy", sets[r]);
    if (load(&x, file) != 0) continue;
    CHECK(tfcc_session_set_input(s, 0, x.data, x.bytes) == TFCC_OK);
    st = tfcc_session_invoke(s);
    CHECKF(st == TFCC_OK, "where %s: run: %s", sets[r], tfcc_session_last_error(s));
    for (int i = 0; i < 2 && st == TFCC_OK; i++) {
      test_npy ref;
      snprintf(file, sizeof file, "where_chain_%s_out%d.npy", sets[r], i);
      if (load(&ref, file) != 0) continue;
      tfcc_tensor_info info;
      tfcc_session_output_info(s, i, &info);
      CHECKF(info.rank == ref.rank && info.dims[0] == ref.dims[0] && info.bytes == ref.bytes,
             "where %s: output %d: %d rows %zu bytes, TFLite %d rows %zu bytes", sets[r], i,
             (int)info.dims[0], info.bytes, (int)ref.dims[0], ref.bytes);
      CHECKF(info.bytes == ref.bytes &&
                 (ref.bytes == 0 || memcmp(i ? (void *)v : (void *)k, ref.data, ref.bytes) == 0),
             "where %s: output %d differs from TFLite", sets[r], i);
      test_npy_free(&ref);
    }
    test_npy_free(&x);
  }
  printf("  WHERE: 4, 12, 0, 15, 4 true elements match TFLite\n");
  tfcc_session_destroy(s);
}

int main(void) {
  const char *src = tfcc_test_source_dir();
  if (!src) return TFCC_TEST_SKIP;
  snprintf(g_dir, sizeof g_dir, "%s/tests/models/data/runtime_shapes", src);
  char path[8192];
  snprintf(path, sizeof path, "%s/dyn_chain.tflite", g_dir);
  tfcc_runtime *rt = NULL;
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &m);
  CHECKF(st == TFCC_OK, "load %s: %s", path, tfcc_last_error());
  if (st == TFCC_OK) {
    st = tfcc_session_create(m, NULL, &s);
    CHECKF(st == TFCC_OK, "session: %s", tfcc_last_error());
    tfcc_model_release(m);
  }
  test_npy x;
  if (st == TFCC_OK && load(&x, "dyn_chain_x.npy") == 0) {
    const int dyn[4] = {1, 1, 1, 0};
    for (int i = 0; i < 4; i++)
      CHECKF(tfcc_session_output_is_dynamic(s, i) == dyn[i], "output %d dynamic?", i);
    CHECK(tfcc_session_dynamic_tensor_count(s) == 4);
    static const char *why[4] = {"RESHAPE: shape (tensor 1) is known only while running",
                                 "reads dynamic tensor 2 (y)", "reads dynamic tensor 3 (z)",
                                 "FILL: dims (tensor 1) is known only while running"};
    static const char *names[4] = {"y", "z", "zs", "f"};
    for (int i = 0; i < 4; i++) {
      tfcc_dynamic_tensor_info d;
      CHECK(tfcc_session_dynamic_tensor_info(s, i, &d) == TFCC_OK);
      CHECKF(strcmp(d.name, names[i]) == 0 && strcmp(d.reason, why[i]) == 0, "dynamic %d: %s: %s",
             i, d.name, d.reason);
    }
    run_at(s, &x, "s34");
    run_at(s, &x, "s62");
    run_at(s, &x, "s112");
    run_at(s, &x, "s34");
    /* 25 elements cannot hold x's 12: refused while running, naming the node */
    int32_t bad[2] = {5, 5};
    float z[12], f[12], w[12];
    int32_t zs[2];
    void *outs[4] = {z, zs, f, w};
    const void *ins[2] = {x.data, bad};
    st = tfcc_session_run(s, ins, outs);
    CHECKF(st == TFCC_ERR_SHAPE && strstr(tfcc_session_last_error(s), "node 0 (RESHAPE)"),
           "bad shape: %s: %s", tfcc_status_str(st), tfcc_session_last_error(s));
    printf("  refused: %s\n", tfcc_session_last_error(s));
    run_at(s, &x, "s62"); /* and the session still works */
    test_npy_free(&x);
  }
  tfcc_session_destroy(s);
  check_where(rt);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("dynamic_tensors");
}
