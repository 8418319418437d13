/* Operator conformance against TensorFlow Lite itself.
 *
 * tests/ops/conformance/ holds small single-operator models written by
 * modelgen/make_conformance.py, their seeded random inputs (<case>.in<i>.npy) and the
 * outputs TensorFlow Lite produced for them (<case>.out<i>.npy); cases.txt lists
 * "name inputs outputs exact|float". Every case runs through the public API only.
 * Quantized, integer and bool outputs must be byte-identical to TFLite's; float32
 * outputs within 1e-5 + 1e-5*|ref|.
 *
 * Each case then runs a second time with the same inputs, and must make no allocation
 * (tests/harness/alloc_count.h counts them where glibc's allocator is in use).
 *
 * A case tfcc refuses to load (TFCC_ERR_UNSUPPORTED included) fails: every case here is one
 * that TensorFlow Lite runs.
 *
 * env TFCC_CONFORMANCE_FILTER=substr runs only the cases whose name contains substr;
 * TFCC_CONFORMANCE_VERBOSE=1 prints every case. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_count.h"
#include "tfcc/tfcc.h"
#include "test_harness.h"

#define MAX_IO 16

/* ---------------------------------------------------------------- tiny .npy reader */
typedef struct npy_array {
  void *file;          /* whole file (malloc) */
  const uint8_t *data; /* first element */
  size_t bytes;        /* bytes after the header */
  tfcc_dtype dtype;
  int rank;
  int64_t dims[TFCC_MAX_DIMS];
} npy_array;

static int npy_dtype(const char *descr, tfcc_dtype *out) {
  static const struct {
    const char *d;
    tfcc_dtype t;
  } map[] = {{"<f4", TFCC_FLOAT32}, {"<i4", TFCC_INT32},   {"|u1", TFCC_UINT8},
             {"<u1", TFCC_UINT8},   {"<i8", TFCC_INT64},   {"|b1", TFCC_BOOL},
             {"<i2", TFCC_INT16},   {"|i1", TFCC_INT8},    {"<i1", TFCC_INT8},
             {"<f8", TFCC_FLOAT64}, {"<f2", TFCC_FLOAT16}, {"<u2", TFCC_UINT16},
             {"<u4", TFCC_UINT32}};
  for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
    if (strcmp(descr, map[i].d) == 0) {
      *out = map[i].t;
      return 0;
    }
  }
  return -1;
}

/* Returns 0 on success, else fills why. */
static int npy_read(const char *path, npy_array *a, char *why, size_t why_size) {
  memset(a, 0, sizeof(*a));
  size_t size = 0;
  uint8_t *buf = tfcc_test_read_file(path, &size);
  if (!buf) {
    snprintf(why, why_size, "cannot read %s", path);
    return -1;
  }
  a->file = buf;
  if (size < 10 || memcmp(buf, "\x93NUMPY", 6) != 0) {
    snprintf(why, why_size, "%s: not a .npy file", path);
    return -1;
  }
  size_t hlen, hstart;
  if (buf[6] == 1) {
    hlen = (size_t)buf[8] | ((size_t)buf[9] << 8);
    hstart = 10;
  } else {
    if (size < 12) {
      snprintf(why, why_size, "%s: truncated header", path);
      return -1;
    }
    hlen =
        (size_t)buf[8] | ((size_t)buf[9] << 8) | ((size_t)buf[10] << 16) | ((size_t)buf[11] << 24);
    hstart = 12;
  }
  if (hstart + hlen > size || hlen > 4096) {
    snprintf(why, why_size, "%s: header runs past the file", path);
    return -1;
  }
  char header[4097];
  memcpy(header, buf + hstart, hlen);
  header[hlen] = '\0';
  const char *d = strstr(header, "'descr':");
  const char *f = strstr(header, "'fortran_order':");
  const char *s = strstr(header, "'shape':");
  if (!d || !f || !s) {
    snprintf(why, why_size, "%s: header lacks descr/fortran_order/shape", path);
    return -1;
  }
  char descr[8] = {0};
  const char *q = strchr(d + 8, '\'');
  if (!q || sscanf(q + 1, "%7[^']", descr) != 1 || npy_dtype(descr, &a->dtype) != 0) {
    snprintf(why, why_size, "%s: unsupported descr", path);
    return -1;
  }
  if (strncmp(f + 16, " True", 5) == 0 || strncmp(f + 16, "True", 4) == 0) {
    snprintf(why, why_size, "%s: fortran order", path);
    return -1;
  }
  const char *p = strchr(s, '(');
  if (!p) {
    snprintf(why, why_size, "%s: bad shape", path);
    return -1;
  }
  p++;
  while (*p && *p != ')') {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') break;
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || v < 0 || a->rank >= TFCC_MAX_DIMS) {
      snprintf(why, why_size, "%s: bad shape", path);
      return -1;
    }
    a->dims[a->rank++] = v;
    p = end;
  }
  a->data = buf + hstart + hlen;
  a->bytes = size - hstart - hlen;
  size_t n = 1;
  for (int i = 0; i < a->rank; i++) n *= (size_t)a->dims[i];
  if (n * tfcc_dtype_size(a->dtype) != a->bytes) {
    snprintf(why, why_size, "%s: %zu data bytes for %zu elements", path, a->bytes, n);
    return -1;
  }
  return 0;
}

static void npy_free(npy_array *a) {
  free(a->file);
  a->file = NULL;
}

/* ---------------------------------------------------------------- comparison */
typedef struct diff_stats {
  size_t count;   /* differing elements */
  double max_abs; /* largest |got - ref| */
  size_t first;   /* index of the first differing element */
} diff_stats;

static double elem_value(const uint8_t *p, tfcc_dtype t, size_t i) {
  switch (t) {
    case TFCC_FLOAT32: {
      float v;
      memcpy(&v, p + 4 * i, 4);
      return v;
    }
    case TFCC_INT32: {
      int32_t v;
      memcpy(&v, p + 4 * i, 4);
      return v;
    }
    case TFCC_INT64: {
      int64_t v;
      memcpy(&v, p + 8 * i, 8);
      return (double)v;
    }
    case TFCC_FLOAT64: {
      double v;
      memcpy(&v, p + 8 * i, 8);
      return v;
    }
    case TFCC_UINT32: {
      uint32_t v;
      memcpy(&v, p + 4 * i, 4);
      return v;
    }
    case TFCC_UINT16: {
      uint16_t v;
      memcpy(&v, p + 2 * i, 2);
      return v;
    }
    case TFCC_INT16: {
      int16_t v;
      memcpy(&v, p + 2 * i, 2);
      return v;
    }
    case TFCC_INT8: return (int8_t)p[i];
    case TFCC_UINT8: return p[i];
    case TFCC_BOOL: return p[i] != 0;
    default: return 0.0;
  }
}

static diff_stats compare(const uint8_t *got, const uint8_t *ref, tfcc_dtype t, size_t n) {
  diff_stats s = {0, 0.0, 0};
  size_t esize = tfcc_dtype_size(t);
  for (size_t i = 0; i < n; i++) {
    double g = elem_value(got, t, i), r = elem_value(ref, t, i);
    int differs;
    if (t == TFCC_FLOAT32 || t == TFCC_FLOAT64) {
      differs = !(fabs(g - r) <= 1e-5 + 1e-5 * fabs(r));
      if ((isnan(r) && isnan(g)) || g == r) differs = 0; /* equal infinities, NaN for NaN */
    } else if (t == TFCC_BOOL) {
      differs = (got[i] != 0) != (ref[i] != 0);
    } else {
      differs = memcmp(got + i * esize, ref + i * esize, esize) != 0;
    }
    double d = fabs(g - r);
    if (d > s.max_abs || (isnan(d) && !isnan(s.max_abs))) s.max_abs = d;
    if (differs) {
      if (s.count == 0) s.first = i;
      s.count++;
    }
  }
  return s;
}

/* ---------------------------------------------------------------- one case */
static int verbose;

static void quiet_log(void *user, tfcc_log_level level, const char *tag, const char *message) {
  (void)user, (void)level, (void)tag, (void)message; /* failures are printed per case */
}

enum { CASE_FAILED = 0, CASE_PASSED = 1 };

/* Returns CASE_PASSED, or CASE_FAILED after printing why. */
static int run_case(tfcc_runtime *rt, const char *dir, const char *name, int n_in, int n_out) {
  char path[1024], why[512];
  npy_array ins[MAX_IO], refs[MAX_IO];
  void *outs[MAX_IO] = {0};
  int n_ins_read = 0, n_refs_read = 0, ok = 0;
  tfcc_model *model = NULL;
  tfcc_session *sess = NULL;
  memset(ins, 0, sizeof(ins));
  memset(refs, 0, sizeof(refs));
  if (n_in > MAX_IO || n_out > MAX_IO || n_in < 0 || n_out < 1) {
    printf("FAIL %s: bad index line (%d inputs, %d outputs)\n", name, n_in, n_out);
    return 0;
  }
  snprintf(path, sizeof(path), "%s/%s.tflite", dir, name);
  tfcc_status st = tfcc_model_load_file(rt, path, NULL, &model);
  if (st != TFCC_OK) {
    printf("FAIL %s: load: %s: %s\n", name, tfcc_status_str(st), tfcc_last_error());
    goto done;
  }
  st = tfcc_session_create(model, NULL, &sess);
  if (st != TFCC_OK) {
    printf("FAIL %s: session: %s: %s\n", name, tfcc_status_str(st), tfcc_last_error());
    goto done;
  }
  if (tfcc_session_input_count(sess) != n_in || tfcc_session_output_count(sess) != n_out) {
    printf("FAIL %s: %d inputs / %d outputs, index says %d / %d\n", name,
           tfcc_session_input_count(sess), tfcc_session_output_count(sess), n_in, n_out);
    goto done;
  }
  const void *in_ptrs[MAX_IO];
  for (int i = 0; i < n_in; i++) {
    snprintf(path, sizeof(path), "%s/%s.in%d.npy", dir, name, i);
    if (npy_read(path, &ins[i], why, sizeof(why)) != 0) {
      printf("FAIL %s: %s\n", name, why);
      n_ins_read = i + 1;
      goto done;
    }
    n_ins_read = i + 1;
    tfcc_tensor_info info;
    if (tfcc_session_input_info(sess, i, &info) != TFCC_OK || info.dtype != ins[i].dtype ||
        info.bytes != ins[i].bytes) {
      printf("FAIL %s: input %d: session wants %s %zu bytes, file has %s %zu bytes\n", name, i,
             tfcc_dtype_name(info.dtype), info.bytes, tfcc_dtype_name(ins[i].dtype), ins[i].bytes);
      goto done;
    }
    in_ptrs[i] = ins[i].data;
  }
  for (int i = 0; i < n_out; i++) {
    snprintf(path, sizeof(path), "%s/%s.out%d.npy", dir, name, i);
    if (npy_read(path, &refs[i], why, sizeof(why)) != 0) {
      printf("FAIL %s: %s\n", name, why);
      n_refs_read = i + 1;
      goto done;
    }
    n_refs_read = i + 1;
    tfcc_tensor_info info;
    if (tfcc_session_output_info(sess, i, &info) != TFCC_OK) {
      printf("FAIL %s: output %d: no info\n", name, i);
      goto done;
    }
    if (info.dtype != refs[i].dtype || info.bytes != refs[i].bytes) {
      printf("FAIL %s: output %d: session gives %s %zu bytes, TFLite %s %zu bytes\n", name, i,
             tfcc_dtype_name(info.dtype), info.bytes, tfcc_dtype_name(refs[i].dtype),
             refs[i].bytes);
      goto done;
    }
    int same_shape = info.rank == refs[i].rank;
    for (int d = 0; same_shape && d < info.rank; d++) same_shape = info.dims[d] == refs[i].dims[d];
    if (!same_shape) {
      printf("FAIL %s: output %d: shape differs from TFLite's (rank %d vs %d)\n", name, i,
             (int)info.rank, refs[i].rank);
      goto done;
    }
    /* +1: a valid pointer even for empty outputs */
    outs[i] = malloc(info.bytes + 1);
    if (!outs[i]) {
      printf("FAIL %s: out of memory\n", name);
      goto done;
    }
    memset(outs[i], 0xA5, info.bytes);
  }
  st = tfcc_session_run(sess, in_ptrs, (void *const *)outs);
  if (st != TFCC_OK) {
    printf("FAIL %s: run: %s: %s\n", name, tfcc_status_str(st), tfcc_session_last_error(sess));
    goto done;
  }
  ok = 1;
  for (int i = 0; i < n_out; i++) {
    size_t n = refs[i].bytes / tfcc_dtype_size(refs[i].dtype);
    diff_stats s = compare(outs[i], refs[i].data, refs[i].dtype, n);
    if (s.count) {
      printf(
          "FAIL %s: output %d (%s): %zu of %zu elements differ, max |diff| %g, first at %zu "
          "(got %g, TFLite %g)\n",
          name, i, tfcc_dtype_name(refs[i].dtype), s.count, n, s.max_abs, s.first,
          elem_value(outs[i], refs[i].dtype, s.first),
          elem_value(refs[i].data, refs[i].dtype, s.first));
      ok = 0;
    } else if (verbose) {
      printf("ok   %s: output %d (%s) %zu elements, max |diff| %g\n", name, i,
             tfcc_dtype_name(refs[i].dtype), n, s.max_abs);
    }
  }
  if (ok) { /* the same run again allocates nothing: its sizes were seen, the memory is kept */
    test_alloc_begin();
    st = tfcc_session_run(sess, in_ptrs, (void *const *)outs);
    const long allocs = test_alloc_end();
    if (st != TFCC_OK) {
      printf("FAIL %s: second run: %s: %s\n", name, tfcc_status_str(st),
             tfcc_session_last_error(sess));
      ok = 0;
    } else if (TEST_ALLOC_COUNTED && allocs != 0) {
      printf("FAIL %s: the second run made %ld allocations (a run allocates nothing)\n", name,
             allocs);
      ok = 0;
    }
  }
done:
  for (int i = 0; i < n_ins_read; i++) npy_free(&ins[i]);
  for (int i = 0; i < n_refs_read; i++) npy_free(&refs[i]);
  for (int i = 0; i < MAX_IO; i++) free(outs[i]);
  if (sess) tfcc_session_destroy(sess);
  if (model) tfcc_model_release(model);
  return ok;
}

int main(void) {
  char dir[1024], index[1100];
  snprintf(dir, sizeof(dir), "%s/tests/ops/conformance", tfcc_test_source_dir());
  snprintf(index, sizeof(index), "%s/cases.txt", dir);
  FILE *f = fopen(index, "r");
  if (!f) {
    printf("SKIP conformance: %s not found\n", index);
    return TFCC_TEST_SKIP;
  }
  const char *filter = getenv("TFCC_CONFORMANCE_FILTER");
  const char *v = getenv("TFCC_CONFORMANCE_VERBOSE");
  verbose = v && *v && strcmp(v, "0") != 0;

  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.log_fn = quiet_log;
  tfcc_runtime *rt = NULL;
  tfcc_status st = tfcc_runtime_create(&ro, &rt);
  CHECKF(st == TFCC_OK, "tfcc_runtime_create: %s", tfcc_last_error());
  if (st != TFCC_OK) {
    fclose(f);
    return tfcc_test_finish("conformance");
  }

  char line[512];
  int total = 0, failed = 0;
  while (fgets(line, sizeof(line), f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char name[256], tol[16];
    int n_in, n_out;
    if (sscanf(line, "%255s %d %d %15s", name, &n_in, &n_out, tol) != 4) {
      printf("FAIL bad index line: %s", line);
      failed++;
      total++;
      continue;
    }
    if (filter && *filter && !strstr(name, filter)) continue;
    total++;
    int r = run_case(rt, dir, name, n_in, n_out);
    if (r == CASE_FAILED) failed++;
  }
  fclose(f);
  tfcc_runtime_destroy(rt);
  printf("%d cases, %d failed\n", total, failed);
  CHECKF(failed == 0, "%d of %d conformance cases failed", failed, total);
  return tfcc_test_finish("conformance");
}
