/* The shared models of the detection / requantization operators against their TensorFlow Lite
 * references (ref/<name>/output_*.npy on ref/<name>/input_*.npy):
 *   quantize_int32_to_int16, quantize_int16_to_int32   QUANTIZE int32 <-> int16, bit-exact
 *   ssd_mobilenet_v1_detect_quant   TFLite_Detection_PostProcess: outputs [1,10,4], [1,10],
 *                                   [1,10], [1] and the detections of EXPECTED.md
 * Skips (77) without ../shared. TFCC_TEST_MODEL=<name> runs one. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static const char *g_shared;
static tfcc_runtime *g_rt;

enum { MAX_IO = 8 };

typedef struct run_result {
  int n_out;
  test_npy out[MAX_IO];
} run_result;

static void free_result(run_result *r) {
  for (int i = 0; i < r->n_out; i++) test_npy_free(&r->out[i]);
  r->n_out = 0;
}

/* Runs model `name` on its reference inputs. 0 on success. */
static int run_model(const char *name, run_result *res) {
  char path[4096];
  memset(res, 0, sizeof *res);
  snprintf(path, sizeof path, "%s/models/%s.tflite", g_shared, name);
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(g_rt, path, NULL, &m);
  CHECKF(st == TFCC_OK, "%s: load: %s", name, tfcc_last_error());
  if (st != TFCC_OK) return -1;
  tfcc_session *s = NULL;
  st = tfcc_session_create(m, NULL, &s);
  CHECKF(st == TFCC_OK, "%s: session: %s", name, tfcc_last_error());
  tfcc_model_release(m);
  if (st != TFCC_OK) return -1;
  const int ni = tfcc_session_input_count(s), no = tfcc_session_output_count(s);
  test_npy ins[MAX_IO];
  const void *in_ptrs[MAX_IO];
  void *out_ptrs[MAX_IO];
  int rc = 0;
  memset(ins, 0, sizeof ins);
  CHECK(ni <= MAX_IO && no <= MAX_IO);
  if (ni > MAX_IO || no > MAX_IO) rc = -1;
  for (int i = 0; i < ni && rc == 0; i++) {
    snprintf(path, sizeof path, "%s/models/ref/%s/input_%d.npy", g_shared, name, i);
    if (test_npy_load(path, &ins[i]) != 0) {
      rc = -1;
      break;
    }
    in_ptrs[i] = ins[i].data;
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    CHECKF(info.dtype == ins[i].dtype && info.bytes == ins[i].bytes,
           "%s: input %d: model %s %zu bytes, npy %s %zu bytes", name, i,
           tfcc_dtype_name(info.dtype), info.bytes, tfcc_dtype_name(ins[i].dtype), ins[i].bytes);
    if (info.bytes != ins[i].bytes) rc = -1;
  }
  for (int i = 0; i < no && rc == 0; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(s, i, &info);
    test_npy *o = &res->out[i];
    o->dtype = info.dtype;
    o->rank = info.rank;
    memcpy(o->dims, info.dims, sizeof o->dims);
    o->bytes = info.bytes;
    o->data = calloc(1, info.bytes ? info.bytes : 1);
    out_ptrs[i] = o->data;
    res->n_out = i + 1;
  }
  if (rc == 0) {
    st = tfcc_session_run(s, in_ptrs, out_ptrs);
    CHECKF(st == TFCC_OK, "%s: run: %s", name, tfcc_session_last_error(s));
    if (st != TFCC_OK) rc = -1;
  }
  for (int i = 0; i < ni; i++) test_npy_free(&ins[i]);
  tfcc_session_destroy(s);
  if (rc != 0) free_result(res);
  return rc;
}

/* Output i against ref/<name>/output_i.npy: same shape; integers exact, floats within
 * float_tol (absolute). */
static void compare_ref(const char *name, const run_result *r, int i, double float_tol) {
  char path[4096];
  test_npy ref;
  snprintf(path, sizeof path, "%s/models/ref/%s/output_%d.npy", g_shared, name, i);
  if (test_npy_load(path, &ref) != 0) {
    CHECKF(0, "%s: missing %s", name, path);
    return;
  }
  const test_npy *o = &r->out[i];
  bool same = ref.dtype == o->dtype && ref.bytes == o->bytes && ref.rank == o->rank;
  for (int d = 0; same && d < ref.rank; d++) same = ref.dims[d] == o->dims[d];
  CHECKF(same, "%s: output %d: ours %s rank %d %zu bytes, ref %s rank %d %zu bytes", name, i,
         tfcc_dtype_name(o->dtype), (int)o->rank, o->bytes, tfcc_dtype_name(ref.dtype),
         (int)ref.rank, ref.bytes);
  if (!same) {
    test_npy_free(&ref);
    return;
  }
  const size_t n = ref.bytes / tfcc_dtype_size(ref.dtype);
  size_t differ = 0;
  double max_diff = 0;
  for (size_t k = 0; k < n; k++) {
    double a, b, tol = 0;
    switch (ref.dtype) {
      case TFCC_INT16:
        a = ((int16_t *)o->data)[k];
        b = ((int16_t *)ref.data)[k];
        break;
      case TFCC_INT32:
        a = ((int32_t *)o->data)[k];
        b = ((int32_t *)ref.data)[k];
        break;
      case TFCC_FLOAT32:
        a = ((float *)o->data)[k];
        b = ((float *)ref.data)[k];
        tol = float_tol;
        break;
      default:
        a = 0;
        b = 1;
        break;
    }
    const double d = fabs(a - b);
    if (d > tol) differ++;
    if (d > max_diff) max_diff = d;
  }
  CHECKF(differ == 0, "%s: output %d: %zu of %zu elements beyond %g (max diff %g)", name, i, differ,
         n, float_tol, max_diff);
  printf("  %-32s out%d %-7s %6zu elements, max diff %g\n", name, i, tfcc_dtype_name(ref.dtype), n,
         max_diff);
  test_npy_free(&ref);
}

static void check_quantize(const char *name) {
  run_result r;
  if (run_model(name, &r) != 0) return;
  CHECK(r.n_out == 1);
  if (r.n_out == 1) compare_ref(name, &r, 0, 0);
  free_result(&r);
}

/* EXPECTED.md's detections on grace_hopper.bmp: (class, score, ymin, xmin, ymax, xmax). */
static const struct {
  int cls;
  double score, box[4];
} k_ssd_expected[] = {
    {0, 0.7188, {0.0505, 0.0077, 0.9857, 0.9861}}, {31, 0.6445, {0.7100, 0.4378, 0.8982, 0.5649}},
    {0, 0.4883, {0.0102, 0.0155, 0.6771, 0.2498}}, {31, 0.4258, {0.7193, 0.4546, 0.8480, 0.5560}},
    {0, 0.3555, {0.2294, 0.0219, 0.7263, 0.2595}},
};

static void check_ssd(void) {
  const char *name = "ssd_mobilenet_v1_detect_quant";
  run_result r;
  if (run_model(name, &r) != 0) return;
  CHECK(r.n_out == 4);
  if (r.n_out != 4) {
    free_result(&r);
    return;
  }
  /* the file declares no shapes: prepare sets [1,10,4], [1,10], [1,10], [1] */
  CHECKF(r.out[0].rank == 3 && r.out[0].dims[1] == 10 && r.out[0].dims[2] == 4, "boxes rank %d",
         (int)r.out[0].rank);
  CHECKF(r.out[1].rank == 2 && r.out[1].dims[1] == 10, "classes rank %d", (int)r.out[1].rank);
  CHECKF(r.out[3].rank == 1 && r.out[3].dims[0] == 1, "count rank %d", (int)r.out[3].rank);
  /* box decoding runs in double then float: the references agree to float rounding */
  for (int i = 0; i < 4; i++) compare_ref(name, &r, i, i == 0 ? 1e-6 : 0);
  const float *boxes = r.out[0].data, *cls = r.out[1].data, *sc = r.out[2].data;
  const float count = *(const float *)r.out[3].data;
  CHECKF(count == 10.0f, "%s: count %g, expected 10", name, (double)count);
  for (size_t k = 0; k < sizeof k_ssd_expected / sizeof k_ssd_expected[0]; k++) {
    CHECKF((int)cls[k] == k_ssd_expected[k].cls && fabs(sc[k] - k_ssd_expected[k].score) < 5e-5,
           "%s: detection %zu: class %g score %.4f, expected %d %.4f", name, k, (double)cls[k],
           (double)sc[k], k_ssd_expected[k].cls, k_ssd_expected[k].score);
    for (int c = 0; c < 4; c++)
      CHECKF(fabs(boxes[k * 4 + (size_t)c] - k_ssd_expected[k].box[c]) < 5e-5,
             "%s: detection %zu coordinate %d: %.4f, expected %.4f", name, k, c,
             (double)boxes[k * 4 + (size_t)c], k_ssd_expected[k].box[c]);
  }
  printf("  %-32s %g detections; first: class %g score %.4f\n", name, (double)count, (double)cls[0],
         (double)sc[0]);
  free_result(&r);
}

int main(void) {
  g_shared = tfcc_test_shared_dir();
  if (!g_shared) return TFCC_TEST_SKIP;
  tfcc_status st = tfcc_runtime_create(NULL, &g_rt);
  CHECK(st == TFCC_OK);
  if (st != TFCC_OK) return tfcc_test_finish("detect_models");
  const char *only = getenv("TFCC_TEST_MODEL");
#define WANT(n) (!only || strcmp(only, n) == 0)
  if (WANT("quantize_int32_to_int16")) check_quantize("quantize_int32_to_int16");
  if (WANT("quantize_int16_to_int32")) check_quantize("quantize_int16_to_int32");
  if (WANT("ssd_mobilenet_v1_detect_quant")) check_ssd();
  tfcc_runtime_destroy(g_rt);
  return tfcc_test_finish("detect_models");
}
