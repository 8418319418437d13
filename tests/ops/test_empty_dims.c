/* Empty tensors through every operator at once (fuzz55): every case of
 * tests/ops/conformance/cases.txt (the operator conformance cases and the opsc ones) is loaded
 * and, through the public API only, each input in turn gets a zero dimension
 * (tfcc_session_resize_inputs; the inputs with that input's shape get the same one, so that
 * both operands of an ADD stay alike), in three forms:
 *   small: dimension d is 0, the others as stored;
 *   wide:  dimension d is 0, every other one large (their product about 2^40 or 2^31 - 1: an
 *          operator that walks the rows of an empty tensor one by one walks that many);
 *   one:   dimension d is 0, one other dimension e large (2^30), the rest as stored (channel
 *          counts that must match a constant filter keep matching);
 *   huge:  dimension d is 0, every other one 2^31 - 1 (rank 3 and more): the nonzero
 *          dimensions pass 2^56 (TFCC_SHAPE_SPAN_MAX) and the resize must be refused, naming
 *          why (stop 56: such shapes overflowed int64 in operators that multiply the
 *          dimensions after the 0);
 * and non-empty odd shapes in the same walk:
 *   odd:   dimension d is 1, 7 or 65 (where the stored one differs), the rest as stored; the
 *          resized inputs are filled with their stored values, repeated. A run that succeeds
 *          runs twice, its static outputs pre-filled with 0xA5 then 0x5A bytes: every output
 *          element must be written (no element still all 0xA5 then all 0x5A), and nothing written
 *          past an output (64 guard bytes after each). Tails, remainders and partial tiles of
 *          the vector kernels at sizes their tests did not pick.
 * Each resize may be refused (it must then name why). A resize that succeeds must run, or fail
 * naming why; no crash and no sanitizer report (the ASan + UBSan build runs this too), and a
 * bounded work: each variant (resize and run) must take under SLOW_S seconds of process CPU time
 * (CLOCK_PROCESS_CPUTIME_ID, not wall time: other tests running beside it do not count), and a
 * watchdog ends the test past TIME_LIMIT_S (ITIMER_PROF). An empty run takes microseconds to
 * milliseconds even under ASan; the walks this hunts take 2^31 to 2^40 steps (seconds to hours),
 * so the limit bounds the work with a wide margin rather than timing it.
 *
 * Output shapes: tests/ops/data/empty_dims/tflite_shapes.txt lists, for a sample of small
 * variants, the output shapes TensorFlow Lite gives (modelgen/make_empty_dims_ref.py: the model
 * rewritten with that input shape, run by the tflite-ref oracle); each must match.
 *
 * env TFCC_EMPTY_DIMS_FILTER=substr runs only the cases whose name contains substr;
 * TFCC_EMPTY_DIMS_KINDS=empty or =odd runs only those variants (default: both);
 * TFCC_EMPTY_DIMS_DUMP=path writes every small variant that ran ("case input dim shapes..."),
 * the list make_empty_dims_ref.py samples from; TFCC_EMPTY_DIMS_SKIP=",a,b," skips the cases named
 * a and b (to list every case over the bound in one session: the first one ends the test). */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "npy_load.h"
#include "tfcc/tfcc.h"
#include "test_harness.h"

#define MAX_IO 16
#define TIME_LIMIT_S 20          /* process CPU seconds per variant: the watchdog */
#define SLOW_S 2.0               /* process CPU seconds past which a variant fails */
#define MEMORY_LIMIT (64u << 20) /* a session's plan; larger outputs are refused at resize */
#define MAX_WORK 100000000ll     /* per operator (tfcc_session_set_run_max_work) */

static void quiet_log(void *user, tfcc_log_level level, const char *tag, const char *message) {
  (void)user, (void)level, (void)tag, (void)message;
}

/* ---------------------------------------------------------------- CPU-time bound */
static char g_current[512]; /* the variant running, for the watchdog's message */

static void on_cpu_limit(int sig) {
  (void)sig;
  static const char head[] = "FAIL empty_dims: more than the CPU-time bound on ";
  if (write(2, head, sizeof head - 1) < 0 || write(2, g_current, strlen(g_current)) < 0 ||
      write(2, "\n", 1) < 0)
    _exit(1);
  _exit(1);
}

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void arm(bool on) {
  struct itimerval t;
  memset(&t, 0, sizeof t);
  t.it_value.tv_sec = on ? TIME_LIMIT_S : 0;
  setitimer(ITIMER_PROF, &t, NULL);
}

/* ---------------------------------------------------------------- expected shapes */
typedef struct expect {
  char name[256];
  int input, dim;
  char shapes[256]; /* "[0,3] [2]" as dump_shapes writes them */
  bool seen;
} expect;

static expect *g_expect;
static int g_n_expect;

static void load_expectations(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[768];
  int cap = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    expect e;
    memset(&e, 0, sizeof e);
    int used = 0;
    if (sscanf(line, "%255s %d %d %n", e.name, &e.input, &e.dim, &used) != 3) continue;
    snprintf(e.shapes, sizeof e.shapes, "%s", line + used);
    e.shapes[strcspn(e.shapes, "\n")] = '\0';
    if (g_n_expect == cap) {
      cap = cap ? 2 * cap : 64;
      expect *grown = realloc(g_expect, (size_t)cap * sizeof *grown);
      if (!grown) break;
      g_expect = grown;
    }
    g_expect[g_n_expect++] = e;
  }
  fclose(f);
}

/* The output shapes of s as "[d0,d1] [d0]". */
static void dump_shapes(const tfcc_session *s, char *buf, size_t size) {
  size_t at = 0;
  buf[0] = '\0';
  for (int o = 0; o < tfcc_session_output_count(s) && at < size; o++) {
    tfcc_tensor_info info;
    if (tfcc_session_output_info(s, o, &info) != TFCC_OK) continue;
    at += (size_t)snprintf(buf + at, size - at, "%s[", o ? " " : "");
    for (int d = 0; d < info.rank && at < size; d++)
      at += (size_t)snprintf(buf + at, size - at, "%s%d", d ? "," : "", (int)info.dims[d]);
    if (at < size) at += (size_t)snprintf(buf + at, size - at, "]");
  }
}

/* ---------------------------------------------------------------- one case */
typedef struct case_io {
  int n_in;
  test_npy ins[MAX_IO];
  int32_t rank[MAX_IO], dims[MAX_IO][TFCC_MAX_DIMS]; /* stored shapes */
} case_io;

typedef struct tally {
  long variants, refused, ran, run_failed, shape_checked, odd_ran;
  double slowest; /* CPU seconds of the slowest variant */
  char slowest_what[512];
} tally;

static FILE *g_dump;
static bool g_empty_kinds = true, g_odd = true; /* TFCC_EMPTY_DIMS_KINDS */
static _Alignas(64) uint8_t g_empty[64];        /* the bytes of an empty input */

static bool same_shape(const case_io *io, int a, int b) {
  if (io->rank[a] != io->rank[b]) return false;
  for (int d = 0; d < io->rank[a]; d++)
    if (io->dims[a][d] != io->dims[b][d]) return false;
  return true;
}

/* Large value for the other dimensions of a rank-r "wide" variant: their product about 2^40
 * (2^31 - 1 for rank 2), under the 2^56 a tensor's nonzero dimensions may reach
 * (TFCC_SHAPE_SPAN_MAX). */
static int32_t wide_value(int32_t r) {
  switch (r) {
    case 2: return INT32_MAX;
    case 3: return 1 << 20;
    case 4: return 1 << 14;
    case 5: return 1 << 10;
    case 6: return 1 << 8;
    default: return 1 << 6;
  }
}

enum { GUARD = 64 };
static const uint8_t FILL_A = 0xA5, FILL_B = 0x5A;

/* The resized input j of an odd variant: `bytes` of its stored values repeated. */
static void *odd_input(const case_io *io, int j, size_t bytes) {
  uint8_t *p = malloc(bytes ? bytes : 1);
  if (!p) return NULL;
  const uint8_t *src = io->ins[j].data;
  const size_t n = io->ins[j].bytes;
  for (size_t i = 0; i < bytes; i++) p[i] = n ? src[i % n] : (uint8_t)i;
  return p;
}

/* Odd variants: runs again with the static outputs pre-filled with FILL_B (the first run had
 * FILL_A): an element all FILL_A then all FILL_B was never written; the guard bytes after each
 * output keep their fill. */
static void check_written(tfcc_session *s, const void *const *ins, void **outs,
                          const size_t *out_bytes, int n_out) {
  uint8_t *first[MAX_IO] = {0};
  for (int o = 0; o < n_out; o++) {
    if (!outs[o]) continue;
    for (size_t i = 0; i < GUARD; i++)
      CHECKF(((uint8_t *)outs[o])[out_bytes[o] + i] == FILL_A,
             "%s: output %d: byte %zu past its %zu bytes written", g_current, o, i, out_bytes[o]);
    first[o] = malloc(out_bytes[o] + 1);
    if (first[o]) memcpy(first[o], outs[o], out_bytes[o]);
    memset(outs[o], FILL_B, out_bytes[o] + GUARD);
  }
  arm(true);
  const tfcc_status st = tfcc_session_run(s, ins, outs);
  arm(false);
  CHECKF(st == TFCC_OK, "%s: the second run failed: %s", g_current, tfcc_session_last_error(s));
  for (int o = 0; st == TFCC_OK && o < n_out; o++) {
    if (!outs[o] || !first[o]) continue;
    tfcc_tensor_info info;
    if (tfcc_session_output_info(s, o, &info) != TFCC_OK) continue;
    size_t esz = tfcc_dtype_size(info.dtype);
    if (esz == 0 || out_bytes[o] % esz) esz = 1;
    const uint8_t *b = outs[o];
    size_t unwritten = 0, at = 0;
    for (size_t e = 0; e < out_bytes[o]; e += esz) {
      bool a_all = true, b_all = true;
      for (size_t i = 0; i < esz; i++)
        a_all = a_all && first[o][e + i] == FILL_A, b_all = b_all && b[e + i] == FILL_B;
      if (a_all && b_all && !unwritten++) at = e / esz;
    }
    CHECKF(unwritten == 0, "%s: output %d: %zu of %zu elements not written (first: %zu)", g_current,
           o, unwritten, out_bytes[o] / esz, at);
    for (size_t i = 0; i < GUARD; i++)
      CHECKF(b[out_bytes[o] + i] == FILL_B, "%s: output %d: byte %zu past its %zu bytes written",
             g_current, o, i, out_bytes[o]);
  }
  for (int o = 0; o < n_out; o++) free(first[o]);
}

/* Runs one variant: input `in` (and the inputs shaped as it) get shape nd; odd: a non-empty
 * shape (the resized inputs filled with their stored values). */
static void run_variant_body(tfcc_session *s, const char *name, const case_io *io, int in,
                             const int32_t *nd, const char *kind, int dim, tally *t) {
  const bool odd = !strcmp(kind, "odd");
  int idx[MAX_IO], count = 0;
  int32_t ranks[MAX_IO];
  const int32_t *dims[MAX_IO];
  for (int j = 0; j < io->n_in; j++)
    if (j == in || same_shape(io, j, in)) {
      idx[count] = j;
      ranks[count] = io->rank[in];
      dims[count++] = nd;
    }
  char label[32];
  snprintf(label, sizeof label, odd ? "%s %d" : "%s", kind, odd ? (int)nd[dim] : 0);
  snprintf(g_current, sizeof g_current, "%s input %d dim %d (%s: %d of %d inputs)", name, in, dim,
           label, count, io->n_in);
  t->variants++;
  arm(true);
  tfcc_status st = tfcc_session_resize_inputs(s, count, idx, ranks, dims);
  if (!strcmp(kind, "huge")) {
    arm(false);
    CHECKF(st != TFCC_OK, "%s: resize to nonzero dimensions past 2^56 accepted", g_current);
    const char *why = tfcc_session_last_error(s);
    CHECKF(st == TFCC_OK || (why && *why), "%s: resize refused without a message", g_current);
    if (st != TFCC_OK) t->refused++;
    return;
  }
  if (st != TFCC_OK) {
    arm(false);
    const char *why = tfcc_session_last_error(s);
    if (!why || !*why) why = tfcc_last_error();
    CHECKF(why && *why, "%s: resize refused without a message", g_current);
    t->refused++;
    return;
  }
  const void *ins[MAX_IO];
  void *owned[MAX_IO] = {0}; /* odd variants' resized inputs */
  void *outs[MAX_IO] = {0};
  size_t obytes[MAX_IO] = {0};
  bool ok = true;
  for (int j = 0; j < io->n_in; j++) {
    tfcc_tensor_info info;
    ok = ok && tfcc_session_input_info(s, j, &info) == TFCC_OK;
    if (!ok) break;
    const bool resized = j == in || same_shape(io, j, in);
    ins[j] = resized ? (const void *)g_empty : io->ins[j].data;
    if (resized && odd) {
      ok = info.bytes <= MEMORY_LIMIT && (owned[j] = odd_input(io, j, info.bytes)) != NULL;
      ins[j] = owned[j];
    } else if (resized) {
      CHECKF(info.bytes == 0, "%s: resized input %d has %zu bytes", g_current, j, info.bytes);
    } else {
      ok = info.bytes == io->ins[j].bytes;
    }
  }
  size_t out_bytes = 0;
  const int n_out = tfcc_session_output_count(s);
  for (int o = 0; ok && o < n_out && o < MAX_IO; o++) {
    tfcc_tensor_info info;
    if (tfcc_session_output_is_dynamic(s, o)) continue;
    ok = tfcc_session_output_info(s, o, &info) == TFCC_OK;
    out_bytes += info.bytes;
    ok = ok && out_bytes <= MEMORY_LIMIT;
    if (ok) ok = (outs[o] = malloc(info.bytes + GUARD)) != NULL;
    if (ok) obytes[o] = info.bytes, memset(outs[o], FILL_A, info.bytes + GUARD);
  }
  if (ok) {
    st = tfcc_session_run(s, ins, (void *const *)outs);
    arm(false);
    if (st == TFCC_OK) {
      t->ran++;
      char shapes[256];
      dump_shapes(s, shapes, sizeof shapes);
      if (odd) {
        t->odd_ran++;
        check_written(s, ins, outs, obytes, n_out < MAX_IO ? n_out : MAX_IO);
      } else if (!strcmp(kind, "small")) {
        if (g_dump) {
          fprintf(g_dump, "%s %d %d %s\n", name, in, dim, shapes);
          fflush(g_dump);
        }
        for (int e = 0; e < g_n_expect; e++)
          if (g_expect[e].input == in && g_expect[e].dim == dim &&
              !strcmp(g_expect[e].name, name)) {
            g_expect[e].seen = true;
            t->shape_checked++;
            CHECKF(!strcmp(g_expect[e].shapes, shapes), "%s: output shapes %s, TFLite's %s",
                   g_current, shapes, g_expect[e].shapes);
          }
      }
    } else {
      const char *why = tfcc_session_last_error(s);
      CHECKF(why && *why, "%s: run failed (%s) without a message", g_current, tfcc_status_str(st));
      if (g_dump) fprintf(g_dump, "# run failed: %s: %s\n", g_current, why ? why : "");
      t->run_failed++;
    }
  }
  arm(false);
  for (int o = 0; o < MAX_IO; o++) free(outs[o]);
  for (int j = 0; j < MAX_IO; j++) free(owned[j]);
}

static void run_variant(tfcc_session *s, const char *name, const case_io *io, int in,
                        const int32_t *nd, const char *kind, int dim, tally *t) {
  const double t0 = cpu_seconds();
  run_variant_body(s, name, io, in, nd, kind, dim, t);
  const double used = cpu_seconds() - t0;
  CHECKF(used < SLOW_S, "%s: %.2f s of CPU time (an empty tensor's walk?)", g_current, used);
  if (used > t->slowest) {
    t->slowest = used;
    snprintf(t->slowest_what, sizeof t->slowest_what, "%s", g_current);
  }
}

static void run_case(tfcc_runtime *rt, const char *dir, const char *name, int n_in, tally *t) {
  char path[1024];
  case_io io;
  memset(&io, 0, sizeof io);
  if (n_in > MAX_IO) return;
  snprintf(path, sizeof path, "%s/%s.tflite", dir, name);
  tfcc_model *m = NULL;
  tfcc_session *s = NULL;
  tfcc_session_options so;
  tfcc_session_options_default(&so);
  so.max_memory = MEMORY_LIMIT;
  if (tfcc_model_load_file(rt, path, NULL, &m) != TFCC_OK ||
      tfcc_session_create(m, &so, &s) != TFCC_OK) {
    CHECKF(0, "%s: load / session: %s", name, tfcc_last_error());
    goto done;
  }
  tfcc_session_set_run_max_work(s, MAX_WORK);
  for (int i = 0; i < n_in; i++) {
    snprintf(path, sizeof path, "%s/%s.in%d.npy", dir, name, i);
    tfcc_tensor_info info;
    if (test_npy_load(path, &io.ins[i]) != 0 || tfcc_session_input_info(s, i, &info) != TFCC_OK) {
      CHECKF(0, "%s: input %d", name, i);
      goto done;
    }
    io.n_in = i + 1;
    io.rank[i] = info.rank;
    memcpy(io.dims[i], info.dims, sizeof io.dims[i]);
  }
  for (int i = 0; i < io.n_in; i++) {
    bool first = true; /* inputs shaped as an earlier one were resized with it */
    for (int j = 0; j < i; j++) first = first && !same_shape(&io, j, i);
    const int32_t r = io.rank[i];
    if (!first || r == 0) continue;
    for (int d = 0; d < r; d++) {
      int32_t nd[TFCC_MAX_DIMS];
      static const int32_t odd_sizes[] = {1, 7, 65};
      for (int v = 0; g_odd && v < 3; v++) {
        if (io.dims[i][d] == odd_sizes[v]) continue;
        memcpy(nd, io.dims[i], sizeof nd);
        nd[d] = odd_sizes[v];
        run_variant(s, name, &io, i, nd, "odd", d, t);
      }
      if (!g_empty_kinds) continue;
      memcpy(nd, io.dims[i], sizeof nd);
      nd[d] = 0;
      run_variant(s, name, &io, i, nd, "small", d, t);
      if (r < 2) continue;
      for (int e = 0; e < r; e++) nd[e] = e == d ? 0 : wide_value(r);
      run_variant(s, name, &io, i, nd, "wide", d, t);
      if (r >= 3) {
        for (int e = 0; e < r; e++) nd[e] = e == d ? 0 : INT32_MAX;
        run_variant(s, name, &io, i, nd, "huge", d, t);
      }
      for (int e = 0; e < r; e++) {
        if (e == d) continue;
        memcpy(nd, io.dims[i], sizeof nd);
        nd[d] = 0;
        nd[e] = 1 << 30;
        run_variant(s, name, &io, i, nd, "one", d, t);
      }
    }
  }
done:
  for (int i = 0; i < io.n_in; i++) test_npy_free(&io.ins[i]);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
}

int main(void) {
  char dir[1024], path[1100];
  snprintf(dir, sizeof dir, "%s/tests/ops/conformance", tfcc_test_source_dir());
  snprintf(path, sizeof path, "%s/cases.txt", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("SKIP empty_dims: %s not found\n", path);
    return TFCC_TEST_SKIP;
  }
  snprintf(path, sizeof path, "%s/tests/ops/data/empty_dims/tflite_shapes.txt",
           tfcc_test_source_dir());
  load_expectations(path);
  CHECKF(g_n_expect > 0, "no expected shapes in %s", path);
  const char *filter = getenv("TFCC_EMPTY_DIMS_FILTER");
  const char *dump = getenv("TFCC_EMPTY_DIMS_DUMP");
  const char *skip = getenv("TFCC_EMPTY_DIMS_SKIP");
  const char *kinds = getenv("TFCC_EMPTY_DIMS_KINDS");
  if (kinds && !strcmp(kinds, "empty")) g_odd = false;
  if (kinds && !strcmp(kinds, "odd")) g_empty_kinds = false;
  if (dump && *dump) g_dump = fopen(dump, "w");
  signal(SIGPROF, on_cpu_limit);

  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  ro.log_fn = quiet_log;
  tfcc_runtime *rt = NULL;
  CHECKF(tfcc_runtime_create(&ro, &rt) == TFCC_OK, "tfcc_runtime_create: %s", tfcc_last_error());
  char line[512];
  int cases = 0;
  tally t = {0};
  while (rt && fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char name[256], tol[16];
    int n_in, n_out;
    if (sscanf(line, "%255s %d %d %15s", name, &n_in, &n_out, tol) != 4) continue;
    if (filter && *filter && !strstr(name, filter)) continue;
    char key[260];
    snprintf(key, sizeof key, ",%s,", name);
    if (skip && strstr(skip, key)) continue;
    cases++;
    run_case(rt, dir, name, n_in, &t);
  }
  fclose(f);
  if (g_dump) fclose(g_dump);
  if (rt) tfcc_runtime_destroy(rt);
  for (int e = 0; e < g_n_expect; e++)
    CHECKF(g_expect[e].seen || (filter && *filter) || !g_empty_kinds,
           "%s input %d dim %d: listed with TFLite's "
           "shapes %s but did not run",
           g_expect[e].name, g_expect[e].input, g_expect[e].dim, g_expect[e].shapes);
  free(g_expect);
  printf(
      "%d cases: %ld variants, %ld refused at resize, %ld ran (%ld odd ones twice, every output "
      "element written), %ld failed naming why, %ld output shapes checked against TFLite's\n",
      cases, t.variants, t.refused, t.ran, t.odd_ran, t.run_failed, t.shape_checked);
  printf("slowest: %s, %.3f s CPU\n", t.slowest_what, t.slowest);
  return tfcc_test_finish("empty_dims");
}
