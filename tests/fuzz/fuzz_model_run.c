/* libFuzzer target: arbitrary bytes through the whole public path a server takes with a model
 * it was handed: load (reader, passes, operator init and packing), session creation (prepare,
 * memory plan) and one run on inputs filled from the bytes, into caller buffers for its static
 * outputs (until stop 52 none were bound: a run whose graph outputs the plan writes in place
 * failed before its first operator, so only models with dynamic or copied outputs ran their
 * operators). Each step must either succeed or
 * fail with a message; nothing may fault, read or write out of bounds, leak or hit undefined
 * behaviour. Sizes are bounded so that a model asking for gigabytes is skipped, not run: a
 * session whose arena, inputs or multiply-adds pass the limits below is destroyed unrun
 * (creating it must still be safe), and every run has a deadline (WHILE loops that never end;
 * operators with long loops of their own check it too).
 *
 * In scripts/test.sh's fuzzing stage (300,000 inputs from tests/fuzz/make_corpus.sh's
 * corpus_run) since stop 48, when two consecutive rounds of 2 x 5 minutes on the evolved corpus
 * came back clean. Its finds, all fixed: SCATTER_ND /
 * SPACE_TO_BATCH_ND on empty tensors at NULL, CONV_2D with 0 input channels dividing by zero,
 * unbounded load-time folding, int overflow of fused-activation bounds, float-to-integer
 * conversions of infinite / NaN / huge scale ratios (kernels/ref/quant_util.h) and of NaN
 * activations (kernels/hybrid/quantize.c), an 805 MB variable tensor zeroed at session creation
 * (now refused by the session's max_memory), a uint8 CONCATENATION rescale of -2.3e37 (copy.c),
 * a NaN in a 16-bit lookup table (lut.c), a 16x8 CONV_2D error message read after a free
 * (conv_common.c), quantized ABS's rescaled value + zero point past int32 (unary.c), UNIQUE
 * counting distinct values in O(n^2) (a 4M-element input ran past the 20 s timeout, at
 * prepare, where the run's deadline is not checked; now linear, kernels/ref/select_k.c; TOPK_V2's
 * O(n k) insertion went to a heap with it); stop 51: a bool byte 28 read as C bool
 * (STABLEHLO_AND), a hybrid time-major BIDIRECTIONAL_SEQUENCE_RNN's n_time passes over a
 * 196,608-step input (now under the run's deadline), pooling of an empty output over 33 M
 * batches, RESIZE of a zero-height image, an RFFT2D of 2^21 rows (the multiply-add limit);
 * stop 52 (with the static outputs bound, the conformance seeds' operators run on the input
 * bytes): a STABLEHLO_SCATTER start index of 6.9e18 overflowing int64, a TRANSPOSE_CONV of
 * height 0 clearing a NULL scratch, int32 overflows of the reference integer LSTM and of the
 * quantized MEAN's rescale, an LSTM layer-norm scale of 1.2e18 (a 2^43 shift), and a
 * STABLEHLO_REDUCE_WINDOW of 23 s under load (6.9 M window steps on a 12 MB input; no defect);
 * found by CI: a TRANSPOSE_CONV whose input rows times stride passed int32 (conv_common.c,
 * tfcc_conv_geom_fits); stop 53: operators whose work had no estimate (TFLite_Detection_PostProcess:
 * 14 s a run under ASan for 20,000 boxes; Mfcc, whose 2^30-entry cosine table of a constant node
 * was computed at load, 3.5 GB and minutes; AudioSpectrogram, BIDIRECTIONAL_SEQUENCE_LSTM) and
 * nodes whose shapes come with the data, bounded per operator by tfcc_session_set_run_max_work;
 * stop 54 (by reading and a sweep of empty tensors, ahead of the fuzzer): the 8-bit depthwise row
 * kernels' sparse dilated spans on the hybrid path too (tfcc_q8_dw_fits), and kernels that walked
 * the 2^40 empty rows of a [2^20, 2^20, 0] tensor one by one (RESIZE_BILINEAR's reference kernels,
 * PACK's row copies, REVERSE_SEQUENCE, CUMSUM along an empty axis); stop 55 (ops.test_empty_dims,
 * every conformance case with each input given a zero dimension, ahead of the fuzzer): the same
 * class in BATCH_MATMUL, GATHER, LSH_PROJECTION, MATRIX_DIAG, REVERSE_SEQUENCE's empty batch axis,
 * ONE_HOT, the int16x8 depthwise driver and the TRANSPOSE_CONV reference scatters, and from a
 * stage-5-like run a STABLEHLO_REDUCE_WINDOW of 8.4 M taps mostly past its input (3.5 s under
 * ASan; its reference walk now takes rows); stop 56: empty tensors such as [0, 2^31 - 1, 2^31 - 1,
 * 2^31 - 1], whose 0 elements hid nonzero dimensions multiplying to 2^93, overflowed int64 in
 * ADD's broadcast walk, CUMSUM and the 16x8 FULLY_CONNECTED's init (every shape's nonzero
 * dimensions now at most 2^56, TFCC_SHAPE_SPAN_MAX); stop 57 (probes of stop 56's new code): a
 * hybrid BATCH_MATMUL with a batched int8 rhs, one FULLY_CONNECTED call per output batch (2 M
 * batches of 1 x 1 matrices in a 736-byte file: 10.9 s CPU under ASan; now gathered, 1.8 s) and
 * one hybrid per rhs matrix (60,000 of them in 60 KB took 53 MB; now bounded by the rhs's bytes).
 * Stop 58: the modes below (file load with the release trap, resizes, precision bf16, REFERENCE
 * mode, a warm weights-cache load checked against the cold one), seeded with the models of
 * modelgen/make_fuzz_seeds.py: 783,000 inputs in four runs of 8 to 14 minutes found no library
 * defect (docs/format.md, "fuzz58").
 * Stage 5 runs a fixed count of inputs from a seed taken from the commit
 * (scripts/test.sh), so CI's finds can be reproduced. Run by hand:
 *   build-asan/tests/fuzz/fuzz_model_run -max_total_time=300 -timeout=20 -rss_limit_mb=3072 \
 *     -malloc_limit_mb=1000000 -max_len=65536 build-asan/tests/fuzz/corpus_run */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <tfcc/tfcc.h>

#define ARENA_LIMIT (64u << 20) /* bytes of arena a run may use */
#define INPUT_LIMIT (16u << 20) /* bytes of all inputs and static outputs together */
#define RUN_TIMEOUT_US 200000   /* per run */
/* Multiply-adds a run may take (tfcc_op_info.macs at the file's shapes): one operator's work
 * has no deadline check inside it, and a 1 KB file may ask for an RFFT2D of 617 M (a length not
 * a power of two on 2^18 rows: 19 s CPU under ASan). A run over the limit is skipped; its
 * session is still created. */
#define RUN_MACS_LIMIT 50000000ll

static tfcc_runtime *g_rt;

/* A model may ask for more memory than there is: malloc then returns NULL, and tfcc must report
 * it (libFuzzer runs with -malloc_limit_mb above any request the limits below let through). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static void fail_unnamed(void) {
  if (!tfcc_last_error() || !tfcc_last_error()[0]) abort(); /* every failure names its cause */
}

static void fill(uint8_t *dst, size_t n, const uint8_t *src, size_t src_n) {
  for (size_t i = 0; i < n; i++) dst[i] = src_n ? src[i % src_n] : (uint8_t)i;
}

static volatile uint32_t g_sink;

static void quiet(void *user, tfcc_log_level level, const char *tag, const char *message) {
  (void)user, (void)level;
  g_sink += (uint32_t)strlen(tag) + (uint32_t)strlen(message); /* formatted, then dropped */
}

static int64_t model_macs(const tfcc_model *m) {
  int64_t total = 0;
  for (int i = 0; i < tfcc_model_op_count(m); i++) {
    tfcc_op_info oi;
    if (tfcc_model_op_info(m, i, &oi) == TFCC_OK && oi.macs > 0) total += oi.macs;
  }
  return total;
}

/* Adds a buffer of `bytes` to *total in 64-byte steps (every buffer aligned); false past
 * INPUT_LIMIT. */
static bool add_buffer(size_t bytes, size_t *total) {
  if (bytes > INPUT_LIMIT) return false;
  *total += (bytes + 63) & ~(size_t)63;
  return *total <= INPUT_LIMIT;
}

/* One run on inputs filled from the bytes; *out (when out is not NULL) gets a copy of output
 * 0's bytes if the run succeeded. */
static void run_once(tfcc_session *s, const uint8_t *data, size_t size, uint8_t **out,
                     size_t *out_n) {
  if (tfcc_session_arena_bytes(s) > ARENA_LIMIT) return;
  const int n_in = tfcc_session_input_count(s), n_out = tfcc_session_output_count(s);
  size_t total = 0, in_total = 0;
  for (int i = 0; i < n_in; i++) {
    tfcc_tensor_info info;
    if (tfcc_session_input_info(s, i, &info) != TFCC_OK) abort();
    if (!add_buffer(info.bytes, &total)) return;
  }
  in_total = total;
  /* static outputs are written straight into the caller's buffers (a run without them fails
   * before its first operator); dynamic ones are read from the session */
  for (int o = 0; o < n_out; o++) {
    tfcc_tensor_info info;
    if (tfcc_session_output_info(s, o, &info) != TFCC_OK) abort();
    if (!tfcc_session_output_is_dynamic(s, o) && !add_buffer(info.bytes, &total)) return;
  }
  uint8_t *buf = malloc(total ? total : 1);
  if (!buf) return;
  fill(buf, in_total, data, size);
  size_t off = 0;
  for (int i = 0; i < n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    if (tfcc_session_set_input(s, i, buf + off, info.bytes) != TFCC_OK) {
      if (!tfcc_session_last_error(s)[0]) abort();
      free(buf);
      return;
    }
    off += (info.bytes + 63) & ~(size_t)63;
  }
  for (int o = 0; o < n_out; o++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(s, o, &info);
    const bool dyn = tfcc_session_output_is_dynamic(s, o);
    if (tfcc_session_set_output(s, o, dyn ? NULL : buf + off, dyn ? 0 : info.bytes) != TFCC_OK)
      abort(); /* the size the session gave */
    if (!dyn) off += (info.bytes + 63) & ~(size_t)63;
  }
  tfcc_session_set_run_timeout(s, RUN_TIMEOUT_US);
  /* and each operator's work, those whose shapes come with the data included (fuzz53) */
  tfcc_session_set_run_max_work(s, RUN_MACS_LIMIT);
  if (tfcc_session_invoke(s) != TFCC_OK) {
    if (!tfcc_session_last_error(s)[0]) abort();
  } else {
    off = in_total;
    for (int o = 0; o < n_out; o++) {
      tfcc_tensor_info info;
      tfcc_session_output_info(s, o, &info);
      const uint8_t *p = buf + off;
      size_t n = info.bytes;
      if (tfcc_session_output_is_dynamic(s, o)) {
        const void *d = NULL;
        if (tfcc_session_output_data(s, o, &d, &n) != TFCC_OK) continue;
        p = d;
      } else {
        off += (info.bytes + 63) & ~(size_t)63;
      }
      if (p && n) g_sink += p[0] + p[n - 1]; /* written by the run */
      if (o == 0 && out && p && n && (*out = malloc(n)) != NULL) memcpy(*out, p, n), *out_n = n;
    }
  }
  free(buf);
}

/* Modes, from the environment (none set: the buffer load of scripts/test.sh's stage 5):
 *   TFCC_FUZZ_LOAD=file  the bytes written to a memfd and loaded with tfcc_model_load_file, whose
 *                        private copy gives the pages of packed constants back (with
 *                        TFCC_DEBUG_RELEASE_TRAP=1 they are made inaccessible: a read faults)
 *   TFCC_FUZZ_LOAD=both  (review59: fuzz58's file-vs-buffer probe) the bytes loaded from the
 *                        caller's buffer and, as `file`, from a memfd: both loads succeed or
 *                        both fail, and where both runs at the file's shapes succeed, output 0
 *                        is the same bytes (with TFCC_FUZZ_RESIZE the resized runs are made,
 *                        not compared: a file load refuses resizes a buffer load runs, stop 57)
 *   TFCC_FUZZ_RESIZE=1   after the run at the file's shapes, every input resized (the shape
 *                        picked by the input's last bytes: last dimension x2 / x4, batch + 1, or
 *                        the inner dimensions + 1) and run again: a refusal must name its cause
 *   TFCC_FUZZ_PRECISION=bf16  the load at precision bf16 (ops/bf16_fast.c)
 *   TFCC_FUZZ_COMPAT=reference  quant_compat REFERENCE (TFLite's builtin kernels' arithmetic)
 *   TFCC_FUZZ_WCACHE=1   a cold load whose weights cache goes to a sink, then a warm load from
 *                        those bytes: both run on the same inputs to the same output bytes;
 *                        and (fuzz62) a load given the previous input's cache (another
 *                        model's), which must compute the cold load's output too
 *   TFCC_FUZZ_WCACHE=file  (fuzz62) the cache a file (/tmp/fuzz_model_run.PID.wc) kept from
 *                        input to input: a load finds the previous input's cache there (stale:
 *                        ignored and rewritten), then a warm load maps it (the prefault's page
 *                        reads, TFCC_PREFAULT_BACKGROUND's thread); both compute the same bytes
 * In every mode (fuzz62) the sessions take the prefault setting the input's bytes pick, and
 * each signature gets a session of its own (tfcc_session_create_for_signature), run when it is
 * not subgraph 0's.
 * e.g. TFCC_FUZZ_LOAD=file TFCC_FUZZ_RESIZE=1 TFCC_DEBUG_RELEASE_TRAP=1 fuzz_model_run ... */
static struct {
  bool file, both, resize, wcache, wcache_file;
  tfcc_precision precision;
  tfcc_quant_compat compat;
} g_mode;

static char g_wcache_path[64];

static void remove_wcache(void) { unlink(g_wcache_path); }

static bool env_is(const char *name, const char *value) {
  const char *e = getenv(name);
  return e && strcmp(e, value) == 0;
}

static tfcc_status load(const uint8_t *data, size_t size, const tfcc_model_options *mo,
                        tfcc_model **m, bool file) {
  if (!file) return tfcc_model_load_buffer(g_rt, data, size, mo, m);
  static int fd = -1;
  if (fd < 0 && (fd = memfd_create("fuzz_model_run", 0)) < 0) abort();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) abort();
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  return tfcc_model_load_file(g_rt, path, mo, m);
}

/* TFCC_FUZZ_RESIZE: every input to a shape picked by the bytes; false when one is refused (it
 * must name why) or a dimension would pass 2^16. */
static bool resize_all(tfcc_session *s, const uint8_t *data, size_t size) {
  for (int i = 0; i < tfcc_session_input_count(s); i++) {
    tfcc_tensor_info info;
    if (tfcc_session_input_info(s, i, &info) != TFCC_OK) abort();
    if (info.rank < 1) continue;
    int64_t d64[TFCC_MAX_DIMS];
    const int r = info.rank;
    for (int d = 0; d < r; d++) d64[d] = info.dims[d];
    switch (size ? data[size - 1 - (size_t)i % size] & 3 : 0) {
      case 0: d64[r - 1] *= 2; break;
      case 1: d64[r - 1] *= 4; break;
      case 2: d64[0] += 1; break;
      default:
        for (int d = 1; d < r - 1; d++) d64[d] += 1;
        if (r <= 2) d64[0] += 1;
    }
    int32_t dims[TFCC_MAX_DIMS];
    for (int d = 0; d < r; d++) {
      if (d64[d] > (1 << 16)) return false;
      dims[d] = (int32_t)d64[d];
    }
    if (tfcc_session_resize_input(s, i, info.rank, dims) != TFCC_OK) {
      if (!tfcc_session_last_error(s)[0]) abort();
      return false;
    }
  }
  return true;
}

/* TFCC_FUZZ_WCACHE: the cold load's cache, copied out of the sink's pieces (64-byte aligned). */
typedef struct {
  uint8_t *bytes;
  size_t size;
} cache_copy;

static tfcc_status sink(void *user, const tfcc_bytes *pieces, size_t n) {
  cache_copy *c = user;
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += pieces[i].size;
  free(c->bytes);
  c->bytes = aligned_alloc(64, (total + 63) / 64 * 64 + 64);
  c->size = 0;
  if (!c->bytes) return TFCC_ERR_NO_MEMORY;
  for (size_t i = 0; i < n; i++)
    memcpy(c->bytes + c->size, pieces[i].data, pieces[i].size), c->size += pieces[i].size;
  return TFCC_OK;
}

/* Session options: the plan held to ARENA_LIMIT (refused before its memory is zeroed), and
 * (fuzz62) each of the four prefault settings, picked by two of the input's bytes (not by its
 * size: modelgen's files are multiples of 16 bytes): the arena populated
 * in one call (0, 1), the packed weights' last huge page made whole (1), nothing touched (-1),
 * the weights cache read on a thread of its own (2). */
static void session_options(tfcc_session_options *so, const uint8_t *data, size_t size) {
  tfcc_session_options_default(so);
  so->max_memory = ARENA_LIMIT;
  static const int prefault[4] = {0, 1, TFCC_PREFAULT_OFF, TFCC_PREFAULT_BACKGROUND};
  so->prefault = prefault[size ? (data[size / 2] ^ data[size / 3]) % 4 : 0];
}

/* One session of m: a run at the file's shapes (into *out, *out_n: output 0's bytes when
 * asked), then, TFCC_FUZZ_RESIZE, at resized shapes. */
static void session_runs(tfcc_model *m, const uint8_t *data, size_t size, uint8_t **out,
                         size_t *out_n) {
  tfcc_session *s = NULL;
  tfcc_session_options so;
  session_options(&so, data, size);
  if (tfcc_session_create(m, &so, &s) != TFCC_OK) {
    fail_unnamed();
    return;
  }
  if (model_macs(m) <= RUN_MACS_LIMIT) {
    run_once(s, data, size, out, out_n);
    if (g_mode.resize && resize_all(s, data, size)) run_once(s, data, size, NULL, NULL);
  }
  tfcc_session_destroy(s);
}

/* Every signature's session (fuzz62: tfcc_session_create_for_signature, which no mode made
 * before; four at most): refused naming why, or created. Each of the signature's names is
 * found (tfcc_session_find_input / _output: an index in range, or not found); a signature of
 * a subgraph other than 0 runs it once. */
static void signature_runs(tfcc_model *m, const uint8_t *data, size_t size) {
  const int n = tfcc_model_signature_count(m);
  for (int k = 0; k < n && k < 4; k++) {
    tfcc_signature_info si;
    if (tfcc_model_signature_info(m, k, &si) != TFCC_OK) abort();
    tfcc_session *s = NULL;
    tfcc_session_options so;
    session_options(&so, data, size);
    if (tfcc_session_create_for_signature(m, si.key, &so, &s) != TFCC_OK) {
      fail_unnamed();
      continue;
    }
    for (int i = 0; i < si.input_count + si.output_count; i++) {
      const bool in = i < si.input_count;
      const char *name = in ? si.input_names[i] : si.output_names[i - si.input_count];
      int idx = -1;
      if (!name) continue;
      const tfcc_status st =
          in ? tfcc_session_find_input(s, name, &idx) : tfcc_session_find_output(s, name, &idx);
      const int count = in ? tfcc_session_input_count(s) : tfcc_session_output_count(s);
      if (st == TFCC_OK ? idx < 0 || idx >= count : st != TFCC_ERR_NOT_FOUND) abort();
    }
    if (si.subgraph != 0 && model_macs(m) <= RUN_MACS_LIMIT) run_once(s, data, size, NULL, NULL);
    tfcc_session_destroy(s);
  }
}

/* Random operators whose seeds are both 0 draw a nondeterministic seed (as TFLite): two loads
 * of such a model compute different outputs. */
static bool draws_random(const tfcc_model *m) {
  for (int i = 0; i < tfcc_model_op_count(m); i++) {
    tfcc_op_info oi;
    if (tfcc_model_op_info(m, i, &oi) == TFCC_OK && oi.name &&
        (strncmp(oi.name, "RANDOM_", 7) == 0 || strcmp(oi.name, "MULTINOMIAL") == 0))
      return true;
  }
  return false;
}

/* TFCC_FUZZ_LOAD=both: the same bytes from the caller's buffer and from a file must give the
 * same load status and, where both runs succeed, output 0's bytes. */
static void compare_loads(const uint8_t *data, size_t size, const tfcc_model_options *mo) {
  tfcc_model *mb = NULL, *mf = NULL;
  const tfcc_status sb = load(data, size, mo, &mb, false);
  if (sb != TFCC_OK) fail_unnamed();
  const tfcc_status sf = load(data, size, mo, &mf, true);
  if (sf != TFCC_OK) fail_unnamed();
  if ((sb == TFCC_OK) != (sf == TFCC_OK)) abort(); /* one load refused what the other took */
  uint8_t *ob = NULL, *of = NULL;
  size_t nb = 0, nf = 0;
  if (mb) session_runs(mb, data, size, &ob, &nb);
  if (mf) session_runs(mf, data, size, &of, &nf);
  if (ob && of && !draws_random(mb) && (nb != nf || memcmp(ob, of, nb) != 0))
    abort(); /* a file load computes what a buffer load does */
  free(ob);
  free(of);
  tfcc_model_release(mf);
  tfcc_model_release(mb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!g_rt) {
    tfcc_runtime_options ro;
    tfcc_runtime_options_default(&ro);
    ro.num_threads = 1;
    ro.log_level = TFCC_LOG_DEBUG; /* every log line is formatted (and dropped) */
    ro.log_fn = quiet;
    if (tfcc_runtime_create(&ro, &g_rt) != TFCC_OK) abort();
    g_mode.file = env_is("TFCC_FUZZ_LOAD", "file");
    g_mode.both = env_is("TFCC_FUZZ_LOAD", "both");
    g_mode.resize = env_is("TFCC_FUZZ_RESIZE", "1");
    g_mode.wcache = env_is("TFCC_FUZZ_WCACHE", "1");
    g_mode.wcache_file = env_is("TFCC_FUZZ_WCACHE", "file");
    if (g_mode.wcache_file) {
      snprintf(g_wcache_path, sizeof g_wcache_path, "/tmp/fuzz_model_run.%d.wc", (int)getpid());
      atexit(remove_wcache);
    }
    g_mode.precision =
        env_is("TFCC_FUZZ_PRECISION", "bf16") ? TFCC_PRECISION_BF16 : TFCC_PRECISION_F32;
    g_mode.compat = env_is("TFCC_FUZZ_COMPAT", "reference") ? TFCC_QUANT_COMPAT_REFERENCE
                                                            : TFCC_QUANT_COMPAT_TFLITE;
  }
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = g_mode.precision;
  mo.quant_compat = g_mode.compat;
  if (g_mode.both) {
    compare_loads(data, size, &mo);
    return 0;
  }
  cache_copy cache = {NULL, 0};
  if (g_mode.wcache_file) mo.weights_cache = g_wcache_path;
  if (g_mode.wcache) {
    mo.weights_cache = "fuzz";
    mo.weights_cache_sink = sink;
    mo.weights_cache_sink_user = &cache;
  }
  tfcc_model *m = NULL;
  if (load(data, size, &mo, &m, g_mode.file) != TFCC_OK) {
    fail_unnamed();
    free(cache.bytes);
    return 0;
  }
  uint8_t *cold = NULL, *warm = NULL;
  size_t cold_n = 0, warm_n = 0;
  session_runs(m, data, size, g_mode.wcache || g_mode.wcache_file ? &cold : NULL, &cold_n);
  signature_runs(m, data, size);
  tfcc_model_release(m);
  if (g_mode.wcache_file) { /* the file the load wrote, mapped */
    m = NULL;
    if (load(data, size, &mo, &m, g_mode.file) != TFCC_OK) abort(); /* the same bytes loaded */
    session_runs(m, data, size, &warm, &warm_n);
    const bool random = draws_random(m);
    tfcc_model_release(m);
    if (cold && warm && !random && (cold_n != warm_n || memcmp(cold, warm, cold_n) != 0))
      abort(); /* a warm load computes what the first one did */
  }
  if (g_mode.wcache && cache.bytes) {
    /* the warm load: every block from the cold load's cache */
    mo.weights_cache_sink = NULL;
    mo.weights_cache_data = cache.bytes;
    mo.weights_cache_size = cache.size;
    m = NULL;
    if (load(data, size, &mo, &m, g_mode.file) != TFCC_OK)
      abort(); /* the same bytes loaded before */
    session_runs(m, data, size, &warm, &warm_n);
    tfcc_model_release(m);
    if (cold && warm && (cold_n != warm_n || memcmp(cold, warm, cold_n) != 0))
      abort(); /* a warm load computes what the cold one did */
    /* fuzz62: the previous input's cache (another model's, often of the same size: a
     * mutation keeps it) handed to this one: refused as stale or taken where the blocks are
     * this model's, the load succeeds and computes what the cold one did */
    static cache_copy prev = {NULL, 0};
    if (prev.bytes) {
      mo.weights_cache_data = prev.bytes;
      mo.weights_cache_size = prev.size;
      uint8_t *other = NULL;
      size_t other_n = 0;
      m = NULL;
      if (load(data, size, &mo, &m, g_mode.file) != TFCC_OK) abort();
      session_runs(m, data, size, &other, &other_n);
      const bool random = draws_random(m);
      tfcc_model_release(m);
      if (cold && other && !random && (cold_n != other_n || memcmp(cold, other, cold_n) != 0))
        abort(); /* another model's cache changed this one's output */
      free(other);
      free(prev.bytes);
    }
    prev = cache, cache.bytes = NULL;
  }
  free(cold);
  free(warm);
  free(cache.bytes);
  return 0;
}
