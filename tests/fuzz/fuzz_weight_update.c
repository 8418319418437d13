/* libFuzzer target (fuzz63): the hot weight update, tfcc_model_update_weights and _buffer, of a
 * live model with sessions. An input is a base model and an update of it:
 *
 *   bytes 0-3  the base model's size N (little endian)
 *   byte 4     flags: bit 0 the update read from a file (a memfd) rather than the buffer, bit 1
 *              the base loaded from a file (its consumed constants given back: with
 *              TFCC_DEBUG_RELEASE_TRAP=1 a read of one faults), bit 2 the base's weights put back
 *              by a second update after the first one succeeded
 *   bytes 5-7  unused
 *   8 .. 8+N   the base model (.tflite)
 *   the rest   the update (.tflite)
 *
 * The custom mutator below mutates the update (and now and then the flags, or the whole input),
 * so the base stays a model that loads and the update is a mutated copy of it, or of one of the
 * variants modelgen/make_update_seeds.py writes (new weights, a changed shape, dtype,
 * quantization, sparsity or buffer count; tests/fuzz/make_corpus.sh).
 *
 * For each input the base is loaded, a session of subgraph 0 and one of each signature of
 * another subgraph (two at most) are created and run on inputs filled from the bytes, then the
 * update is applied. Every step succeeds or fails with a message naming the cause; nothing
 * faults, reads or writes out of bounds, leaks or hits undefined behaviour, and:
 *   - a refused update leaves the base's weights in force: subgraph 0's session runs as before
 *     (same status, same output 0 bytes);
 *   - an accepted one is generation 1 (tfcc_model_update_info), and the updated session computes
 *     what a model loaded from the update's bytes computes (same run status, same output 0 bytes:
 *     the update was validated as a load validates it);
 *   - (bit 2) the base's bytes given back by a second update are taken, and the session computes
 *     its first output again.
 * Random operators that draw a nondeterministic seed are run, not compared.
 *
 * Modes, from the environment: TFCC_FUZZ_WCACHE=file keeps a weights cache file
 * (/tmp/fuzz_weight_update.PID.wc) across inputs, so the base's load finds another input's
 * cache (stale: rewritten), and each update finds the base's (stale: refused, rewritten for the
 * new weights on a thread of its own after the switch, which the next update and the release
 * wait for). Limits (arena, inputs, multiply-adds, run deadline) as fuzz_model_run's.
 *   build-asan/tests/fuzz/fuzz_weight_update -max_total_time=300 -timeout=20 -rss_limit_mb=3072 \
 *     -malloc_limit_mb=1000000 -max_len=131072 build-asan/tests/fuzz/corpus_update */
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
#define RUN_MACS_LIMIT 50000000ll
#define HEADER 8
#define MAX_SIG_SESSIONS 2

enum { UPDATE_FROM_FILE = 1, BASE_FROM_FILE = 2, REVERT = 4 };

static tfcc_runtime *g_rt;
static bool g_wcache_file;
static bool g_verbose; /* TFCC_FUZZ_VERBOSE=1: each update's outcome on stderr */
static char g_wcache_path[64];

const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t base_size(const uint8_t *data) {
  return (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
         (uint32_t)data[3] << 24;
}

/* Mutates the update (14 times in 16), the flags byte (1 in 16) or the whole input (1 in 16:
 * the base too, its size field included). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  const unsigned pick = seed % 16;
  if (size < HEADER || pick == 0) return LLVMFuzzerMutate(data, size, max_size);
  const uint32_t n = base_size(data);
  if (n > size - HEADER) return LLVMFuzzerMutate(data, size, max_size);
  if (pick == 1) {
    data[4] ^= (uint8_t)(1u << (seed / 16 % 3));
    return size;
  }
  const size_t off = HEADER + n;
  if (off >= size || off >= max_size) return LLVMFuzzerMutate(data, size, max_size);
  return off + LLVMFuzzerMutate(data + off, size - off, max_size - off);
}

static void fail_unnamed(void) {
  if (!tfcc_last_error() || !tfcc_last_error()[0]) abort(); /* every failure names its cause */
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

static bool draws_random(const tfcc_model *m) {
  for (int i = 0; i < tfcc_model_op_count(m); i++) {
    tfcc_op_info oi;
    if (tfcc_model_op_info(m, i, &oi) == TFCC_OK && oi.name &&
        (strncmp(oi.name, "RANDOM_", 7) == 0 || strcmp(oi.name, "MULTINOMIAL") == 0))
      return true;
  }
  return false;
}

/* Writes bytes to a memfd (one per role, reused) and returns its /proc path in path. */
static void memfd_path(int *fd, const char *name, const uint8_t *data, size_t size, char *path,
                       size_t cap) {
  if (*fd < 0 && (*fd = memfd_create(name, 0)) < 0) abort();
  if (ftruncate(*fd, 0) != 0 || (size && pwrite(*fd, data, size, 0) != (ssize_t)size)) abort();
  snprintf(path, cap, "/proc/self/fd/%d", *fd);
}

static tfcc_status load(const uint8_t *data, size_t size, const tfcc_model_options *mo,
                        tfcc_model **m, bool file) {
  if (!file) return tfcc_model_load_buffer(g_rt, data, size, mo, m);
  static int fd = -1;
  char path[64];
  memfd_path(&fd, "fuzz_weight_update_base", data, size, path, sizeof path);
  return tfcc_model_load_file(g_rt, path, mo, m);
}

static tfcc_status update(tfcc_model *m, const uint8_t *data, size_t size, bool file) {
  if (!file) return tfcc_model_update_weights_buffer(m, data, size);
  static int fd = -1;
  char path[64];
  memfd_path(&fd, "fuzz_weight_update_new", data, size, path, sizeof path);
  return tfcc_model_update_weights(m, path);
}

/* A session with its inputs filled from the bytes and its static outputs bound, once; run as
 * often as asked. */
typedef struct {
  tfcc_session *s;
  uint8_t *buf;
  size_t out0_at; /* output 0's offset in buf (static), or SIZE_MAX (dynamic / none) */
  bool runnable;  /* inside the limits and bound */
} bound_session;

static bool add_buffer(size_t bytes, size_t *total) {
  if (bytes > INPUT_LIMIT) return false;
  *total += (bytes + 63) & ~(size_t)63;
  return *total <= INPUT_LIMIT;
}

static void bind(bound_session *b, const tfcc_model *m, const uint8_t *data, size_t size) {
  tfcc_session *s = b->s;
  b->runnable = false;
  b->out0_at = SIZE_MAX;
  if (tfcc_session_arena_bytes(s) > ARENA_LIMIT || model_macs(m) > RUN_MACS_LIMIT) return;
  const int n_in = tfcc_session_input_count(s), n_out = tfcc_session_output_count(s);
  size_t total = 0;
  for (int i = 0; i < n_in; i++) {
    tfcc_tensor_info info;
    if (tfcc_session_input_info(s, i, &info) != TFCC_OK) abort();
    if (!add_buffer(info.bytes, &total)) return;
  }
  const size_t in_total = total;
  for (int o = 0; o < n_out; o++) {
    tfcc_tensor_info info;
    if (tfcc_session_output_info(s, o, &info) != TFCC_OK) abort();
    if (!tfcc_session_output_is_dynamic(s, o) && !add_buffer(info.bytes, &total)) return;
  }
  if ((b->buf = malloc(total ? total : 1)) == NULL) return;
  for (size_t i = 0; i < in_total; i++) b->buf[i] = size ? data[i % size] : (uint8_t)i;
  size_t off = 0;
  for (int i = 0; i < n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    if (tfcc_session_set_input(s, i, b->buf + off, info.bytes) != TFCC_OK) {
      if (!tfcc_session_last_error(s)[0]) abort();
      return;
    }
    off += (info.bytes + 63) & ~(size_t)63;
  }
  for (int o = 0; o < n_out; o++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(s, o, &info);
    const bool dyn = tfcc_session_output_is_dynamic(s, o);
    if (tfcc_session_set_output(s, o, dyn ? NULL : b->buf + off, dyn ? 0 : info.bytes) != TFCC_OK)
      abort(); /* the size the session gave */
    if (o == 0 && !dyn) b->out0_at = off;
    if (!dyn) off += (info.bytes + 63) & ~(size_t)63;
  }
  tfcc_session_set_run_timeout(s, RUN_TIMEOUT_US);
  tfcc_session_set_run_max_work(s, RUN_MACS_LIMIT);
  b->runnable = true;
}

static void session_options(tfcc_session_options *so, const uint8_t *data, size_t size) {
  tfcc_session_options_default(so);
  so->max_memory = ARENA_LIMIT;
  static const int prefault[4] = {0, 1, TFCC_PREFAULT_OFF, TFCC_PREFAULT_BACKGROUND};
  so->prefault = prefault[size ? (data[size / 2] ^ data[size / 3]) % 4 : 0];
}

/* Creates and binds a session of subgraph 0 (key NULL) or of a signature; false when refused
 * (naming why). */
static bool open_session(bound_session *b, tfcc_model *m, const char *key, const uint8_t *data,
                         size_t size) {
  memset(b, 0, sizeof *b);
  tfcc_session_options so;
  session_options(&so, data, size);
  const tfcc_status st = key ? tfcc_session_create_for_signature(m, key, &so, &b->s)
                             : tfcc_session_create(m, &so, &b->s);
  if (st != TFCC_OK) {
    fail_unnamed();
    b->s = NULL;
    return false;
  }
  bind(b, m, data, size);
  return true;
}

static void close_session(bound_session *b) {
  tfcc_session_destroy(b->s);
  free(b->buf);
  memset(b, 0, sizeof *b);
}

/* What a server asks of a session between runs, after an update too (the plan may still be
 * bound to a retired generation until its next run): every input's and output's info, its
 * name and quantization read. */
static void peek(const bound_session *b) {
  if (!b->s) return;
  for (int io = 0; io < 2; io++) {
    const int n = io ? tfcc_session_output_count(b->s) : tfcc_session_input_count(b->s);
    for (int i = 0; i < n; i++) {
      tfcc_tensor_info info;
      if ((io ? tfcc_session_output_info(b->s, i, &info)
              : tfcc_session_input_info(b->s, i, &info)) != TFCC_OK)
        abort();
      if (info.name) g_sink += (uint32_t)strlen(info.name);
      for (int32_t q = 0; q < info.quant_count; q++) {
        uint32_t bits; /* (a scale may be anything: its bits, not a conversion) */
        memcpy(&bits, &info.scales[q], sizeof bits);
        g_sink += bits + (uint32_t)info.zero_points[q];
      }
    }
  }
}

/* One run from the zero state (variables reset): its status (TFCC_ERR_UNSUPPORTED when not
 * runnable, unrun) and, when out is given and the run succeeded, a copy of output 0's bytes. */
static tfcc_status run(bound_session *b, uint8_t **out, size_t *out_n) {
  if (out) *out = NULL, *out_n = 0;
  if (!b->s || !b->runnable) return TFCC_ERR_UNSUPPORTED;
  peek(b);
  if (tfcc_session_reset_state(b->s) != TFCC_OK) abort();
  const tfcc_status st = tfcc_session_invoke(b->s);
  if (st != TFCC_OK) {
    if (!tfcc_session_last_error(b->s)[0]) abort();
    return st;
  }
  const uint8_t *p = NULL;
  size_t n = 0;
  if (tfcc_session_output_count(b->s) > 0) {
    if (b->out0_at != SIZE_MAX) {
      tfcc_tensor_info info;
      tfcc_session_output_info(b->s, 0, &info);
      p = b->buf + b->out0_at, n = info.bytes;
    } else {
      const void *d = NULL;
      if (tfcc_session_output_data(b->s, 0, &d, &n) == TFCC_OK) p = d;
    }
  }
  if (p && n) g_sink += p[0] + p[n - 1]; /* written by the run */
  peek(b);
  if (out && p && n && (*out = malloc(n)) != NULL) memcpy(*out, p, n), *out_n = n;
  return st;
}

static bool same(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* Two runs that should compute the same: the same status and, where both have one, the same
 * output 0. A run stopped by its deadline (the machine's load) is not compared. */
static bool differ(tfcc_status sa, const uint8_t *a, size_t an, tfcc_status sb, const uint8_t *b,
                   size_t bn) {
  if (sa == TFCC_ERR_DEADLINE || sb == TFCC_ERR_DEADLINE) return false;
  return sa != sb || (a && b && !same(a, an, b, bn));
}

/* The update's bytes loaded as a model of their own and run as the updated session was: the
 * same status and output 0 (where both are there). */
static void compare_fresh(const uint8_t *upd, size_t upd_n, const tfcc_model_options *mo,
                          tfcc_status updated_st, const uint8_t *updated, size_t updated_n,
                          const uint8_t *data, size_t size) {
  tfcc_model_options fo = *mo;
  fo.weights_cache = NULL; /* the cache file is the updated model's */
  tfcc_model *f = NULL;
  if (tfcc_model_load_buffer(g_rt, upd, upd_n, &fo, &f) != TFCC_OK) {
    fail_unnamed();
    abort(); /* an update the model took, whose bytes do not load */
  }
  bound_session b;
  if (!open_session(&b, f, NULL, data, size)) abort(); /* the updated model's session runs */
  if (b.runnable) {
    uint8_t *out = NULL;
    size_t out_n = 0;
    const tfcc_status st = run(&b, &out, &out_n);
    if (!draws_random(f) && differ(st, out, out_n, updated_st, updated, updated_n)) abort();
    free(out);
  }
  close_session(&b);
  tfcc_model_release(f);
}

static void remove_wcache(void) { unlink(g_wcache_path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!g_rt) {
    tfcc_runtime_options ro;
    tfcc_runtime_options_default(&ro);
    ro.num_threads = 1;
    ro.log_level = TFCC_LOG_DEBUG; /* every log line is formatted (and dropped) */
    ro.log_fn = quiet;
    if (tfcc_runtime_create(&ro, &g_rt) != TFCC_OK) abort();
    g_verbose = getenv("TFCC_FUZZ_VERBOSE") != NULL;
    const char *w = getenv("TFCC_FUZZ_WCACHE");
    g_wcache_file = w && strcmp(w, "file") == 0;
    if (g_wcache_file) {
      snprintf(g_wcache_path, sizeof g_wcache_path, "/tmp/fuzz_weight_update.%d.wc", (int)getpid());
      atexit(remove_wcache);
    }
  }
  if (size < HEADER || base_size(data) > size - HEADER) return 0;
  const size_t base_n = base_size(data);
  const uint8_t flags = data[4], *base = data + HEADER, *upd = base + base_n;
  const size_t upd_n = size - HEADER - base_n;
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  if (g_wcache_file) mo.weights_cache = g_wcache_path;
  tfcc_model *m = NULL;
  if (load(base, base_n, &mo, &m, flags & BASE_FROM_FILE) != TFCC_OK) {
    fail_unnamed();
    return 0;
  }
  const bool random = draws_random(m);
  bound_session s0, sig[MAX_SIG_SESSIONS];
  int n_sig = 0;
  const bool have_s0 = open_session(&s0, m, NULL, data, size);
  for (int k = 0; k < tfcc_model_signature_count(m) && n_sig < MAX_SIG_SESSIONS; k++) {
    tfcc_signature_info si;
    if (tfcc_model_signature_info(m, k, &si) != TFCC_OK) abort();
    if (si.subgraph != 0 && open_session(&sig[n_sig], m, si.key, data, size)) n_sig++;
  }
  uint8_t *before = NULL;
  size_t before_n = 0;
  const tfcc_status before_st = have_s0 ? run(&s0, &before, &before_n) : TFCC_ERR_UNSUPPORTED;
  for (int k = 0; k < n_sig; k++) (void)run(&sig[k], NULL, NULL);

  uint8_t *after = NULL;
  size_t after_n = 0;
  const tfcc_status ust = update(m, upd, upd_n, flags & UPDATE_FROM_FILE);
  if (g_verbose) fprintf(stderr, "update: %s\n", ust == TFCC_OK ? "taken" : tfcc_last_error());
  if (ust != TFCC_OK) {
    fail_unnamed();
    /* refused: the base's weights stay in force */
    const tfcc_status st = have_s0 ? run(&s0, &after, &after_n) : TFCC_ERR_UNSUPPORTED;
    if (!random && differ(st, after, after_n, before_st, before, before_n)) abort();
    for (int k = 0; k < n_sig; k++) (void)run(&sig[k], NULL, NULL);
  } else {
    tfcc_update_info info;
    if (tfcc_model_update_info(m, &info) != TFCC_OK || info.generation != 1) abort();
    const tfcc_status st = have_s0 ? run(&s0, &after, &after_n) : TFCC_ERR_UNSUPPORTED;
    for (int k = 0; k < n_sig; k++) (void)run(&sig[k], NULL, NULL);
    if (have_s0 && s0.runnable) compare_fresh(upd, upd_n, &mo, st, after, after_n, data, size);
    if (flags & REVERT) {
      /* the weights the model was loaded with, back */
      if (update(m, base, base_n, flags & UPDATE_FROM_FILE) != TFCC_OK) abort();
      if (tfcc_model_update_info(m, &info) != TFCC_OK || info.generation != 2) abort();
      uint8_t *again = NULL;
      size_t again_n = 0;
      const tfcc_status st2 = have_s0 ? run(&s0, &again, &again_n) : TFCC_ERR_UNSUPPORTED;
      if (!random && differ(st2, again, again_n, before_st, before, before_n)) abort();
      free(again);
      for (int k = 0; k < n_sig; k++) (void)run(&sig[k], NULL, NULL);
    }
  }
  free(before);
  free(after);
  for (int k = 0; k < n_sig; k++) close_session(&sig[k]);
  if (have_s0) close_session(&s0);
  tfcc_model_release(m);
  return 0;
}
