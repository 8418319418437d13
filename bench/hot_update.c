/* hot_update MODEL.tflite [--updates N] [--seconds S] [--threads T] [--load-only]
 *            [--reload-p99 --weights-cache DIR [--rounds R]]
 *
 * Measures, for a float model (the target is a ~14 MB one, e.g. modelgen's
 * mobilenet_v2_100_224_float):
 *   1. weight update time (map + verify + prepack + switch) over N updates alternating two weight
 *      files of the same graph (the second made by scaling every float constant);
 *   2. the run loop's latency (p50/p99/max) for S seconds without updates, then S seconds with
 *      an update every 100 ms from another thread;
 *   3. load time, medians of 11: plain mmap load (reads nothing up front), plain load that maps
 *      populated and reads every byte (what a decrypting load must do at least), read() + load,
 *      and the decrypting load when built with the crypto module; and their ratios.
 * --load-only: section 3 only.
 * --reload-p99: only section 4, the latency of runs during a weight update against steady
 *   state (issue 18 point 6): a run thread runs the model S without pause while another
 *   thread updates it every ~400 ms, alternating the two weight files; each round measures,
 *   for S seconds each, three settings: no weights cache; a cache at DIR that S's own updates
 *   write (every update finds the other weights' cache: stale, packs, writes after the switch);
 *   and a "peer" model P of the same file and cache (another replica) updated to the same
 *   weights 100 ms before S, so S's update takes the cache P's wrote. A run is "during the
 *   swap" when it overlaps [update call, return + 50 ms] of S's update (return: also of the
 *   cache file's rename when the update writes one, on a thread of its own), excluded when it
 *   overlaps P's, else steady. Prints p50/p99 of each set per setting and round, and the
 *   medians over rounds of p99 swap / p99 steady.
 * Benchmarks are not tests: it prints figures and asserts nothing about time. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "format/tflite_reader.h"
#include "tfcc/tfcc.h"
#ifdef TFCC_WITH_CRYPTO
#include "tfcc/tfcc_crypto.h"
#endif

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static volatile uint64_t g_sink;

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *d = malloc((size_t)sz);
  if (d && fread(d, 1, (size_t)sz, f) != (size_t)sz) {
    free(d);
    d = NULL;
  }
  fclose(f);
  *n = (size_t)sz;
  return d;
}

static int write_all(const char *path, const void *d, size_t n) {
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  int ok = fwrite(d, 1, n, f) == n;
  if (fclose(f) != 0) ok = 0;
  return ok && rename(tmp, path) == 0 ? 0 : -1; /* write-then-rename */
}

/* Same graph, every float constant scaled. */
static uint8_t *variant(const uint8_t *model, size_t size) {
  tfcc_graph g;
  memset(&g, 0, sizeof g);
  tfcc_err err = {0};
  if (tfcc_tflite_read(model, size, &g, &err) != TFCC_OK) return NULL;
  uint8_t *out = malloc(size);
  memcpy(out, model, size);
  const tfcc_ir_subgraph *sg = &g.subgraphs[0];
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    const tfcc_ir_tensor *t = &sg->tensors[i];
    const uint8_t *d = t->data;
    if (!d || t->dtype != TFCC_FLOAT32 || d < model || d + t->data_bytes > model + size) continue;
    for (size_t k = 0; k + 4 <= t->data_bytes; k += 4) {
      float v;
      memcpy(&v, d + k, 4);
      v *= 0.97f;
      memcpy(out + (d - model) + k, &v, 4);
    }
  }
  tfcc_graph_free(&g);
  return out;
}

typedef struct loop {
  tfcc_model *m;
  atomic_int stop;
  double *lat;
  size_t n, cap;
} loop;

static void *run_loop(void *arg) {
  loop *l = arg;
  tfcc_session *s = NULL;
  if (tfcc_session_create(l->m, NULL, &s) != TFCC_OK) return NULL;
  tfcc_tensor_info ii, oi;
  tfcc_session_input_info(s, 0, &ii);
  tfcc_session_output_info(s, 0, &oi);
  void *in = calloc(1, ii.bytes), *out = malloc(oi.bytes);
  const void *ins[1] = {in};
  void *outs[1] = {out};
  tfcc_session_run(s, ins, outs); /* warm */
  while (!atomic_load(&l->stop) && l->n < l->cap) {
    double t0 = now_ms();
    tfcc_session_run(s, ins, outs);
    l->lat[l->n++] = now_ms() - t0;
  }
  free(in);
  free(out);
  tfcc_session_destroy(s);
  return NULL;
}

typedef struct updater {
  tfcc_model *m;
  const char *a, *b;
  atomic_int stop;
  int count;
  double worst;
} updater;

static void *update_loop(void *arg) {
  updater *u = arg;
  while (!atomic_load(&u->stop)) {
    if (tfcc_model_update_weights(u->m, u->count % 2 ? u->a : u->b) != TFCC_OK) {
      fprintf(stderr, "update failed: %s\n", tfcc_last_error());
      return NULL;
    }
    tfcc_update_info info;
    tfcc_model_update_info(u->m, &info);
    if (info.total_ms > u->worst) u->worst = info.total_ms;
    u->count++;
    usleep(100000);
  }
  return NULL;
}

static void stats(const char *what, double *v, size_t n) {
  if (!n) return;
  qsort(v, n, sizeof *v, cmp_d);
  printf("%-34s n=%-6zu p50 %8.3f ms  p99 %8.3f ms  max %8.3f ms\n", what, n, v[n / 2],
         v[(size_t)((double)n * 0.99)], v[n - 1]);
}

static double measure_loop(tfcc_model *m, updater *u, double seconds, const char *label) {
  loop l = {.m = m};
  atomic_init(&l.stop, 0);
  l.cap = 1000000;
  l.lat = malloc(l.cap * sizeof *l.lat);
  pthread_t th, tu;
  pthread_create(&th, NULL, run_loop, &l);
  if (u) {
    atomic_init(&u->stop, 0);
    pthread_create(&tu, NULL, update_loop, u);
  }
  usleep((useconds_t)(seconds * 1e6));
  if (u) {
    atomic_store(&u->stop, 1);
    pthread_join(tu, NULL);
  }
  atomic_store(&l.stop, 1);
  pthread_join(th, NULL);
  stats(label, l.lat, l.n);
  double p99 = l.n ? l.lat[(size_t)((double)l.n * 0.99)] : 0;
  free(l.lat);
  return p99;
}

#define LOAD_REPS 11

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return v[n / 2];
}

/* Plain loader that reads every byte, as a decrypting one must: map the file populated and
 * sum it (the pass an integrity check makes), then load from the mapping. */
static tfcc_status load_touching(tfcc_runtime *rt, const char *path, tfcc_model **m, void **map,
                                 size_t *n) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0) return TFCC_ERR_IO;
  *n = (size_t)sb.st_size;
  *map = mmap(NULL, *n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close(fd);
  if (*map == MAP_FAILED) return TFCC_ERR_IO;
  const uint64_t *w = *map;
  uint64_t sum = 0;
  for (size_t i = 0; i < *n / 8; i++) sum += w[i];
  g_sink += sum;
  return tfcc_model_load_buffer(rt, *map, *n, NULL, m);
}

#ifdef TFCC_WITH_CRYPTO
/* The encrypted packed-weights cache (docs/weights_cache.md, "Encrypted models"): interleaved
 * rounds (the order rotates each round) of a plain load of the file, an encrypted load without
 * a cache, an encrypted load with a warm encrypted cache and (for reference) a plain load with a
 * warm plain cache; medians of LOAD_REPS. */
static void measure_enc_cache(tfcc_runtime *rt, const char *pa, const char *pe,
                              const tfcc_key_source *ks) {
  enum { N = 4 };
  static const char *const names[N] = {"plain file, no cache", "encrypted, no cache",
                                       "encrypted, warm encrypted cache",
                                       "plain file, warm plain cache"};
  char ce[600], cp[600];
  snprintf(ce, sizeof ce, "%s.wce", pe);
  snprintf(cp, sizeof cp, "%s.wc", pe);
  double w[N][LOAD_REPS], c[N][LOAD_REPS];
  for (int k = -1; k < LOAD_REPS; k++) /* round -1 writes both caches, untimed */
    for (int j = 0; j < N; j++) {
      const int i = (j + (k < 0 ? 0 : k)) % N;
      tfcc_model_options mo;
      tfcc_model_options_default(&mo);
      mo.weights_cache = i == 2 ? ce : i == 3 ? cp : NULL;
      tfcc_model *m = NULL;
      const double t0 = now_ms(), c0 = cpu_ms();
      const tfcc_status st = i == 1 || i == 2 ? tfcc_model_load_encrypted(rt, pe, ks, &mo, &m)
                                              : tfcc_model_load_file(rt, pa, &mo, &m);
      if (st != TFCC_OK) {
        fprintf(stderr, "%s: %s\n", names[i], tfcc_crypto_last_error());
        exit(1);
      }
      if (k >= 0) w[i][k] = now_ms() - t0, c[i][k] = cpu_ms() - c0;
      tfcc_model_release(m);
    }
  printf("encrypted weights cache, interleaved rounds, medians of %d   wall ms    thread CPU ms\n",
         LOAD_REPS);
  double pw[N], pc[N];
  for (int i = 0; i < N; i++) {
    pw[i] = median(w[i], LOAD_REPS), pc[i] = median(c[i], LOAD_REPS);
    printf("  %-40s %8.3f    %8.3f\n", names[i], pw[i], pc[i]);
  }
  printf("ratios (wall / CPU): encrypted warm cache over encrypted no cache %.2f / %.2f; over plain "
         "file %.2f / %.2f; plain warm cache over plain file %.2f / %.2f\n",
         pw[2] / pw[1], pc[2] / pc[1], pw[2] / pw[0], pc[2] / pc[0], pw[3] / pw[0], pc[3] / pc[0]);
  unlink(ce);
  unlink(cp);
}
#endif

/* Medians of LOAD_REPS loads each way; every model is released (and a decrypted one wiped)
 * outside the timed region. */
static void measure_loads(tfcc_runtime *rt, const char *pa) {
  double mm[LOAD_REPS], touch[LOAD_REPS], readl[LOAD_REPS], c_mm[LOAD_REPS], c_touch[LOAD_REPS],
      c_read[LOAD_REPS];
  tfcc_model *m = NULL;
  for (int k = 0; k < LOAD_REPS; k++) {
    double t0 = now_ms(), c0 = cpu_ms();
    if (tfcc_model_load_file(rt, pa, NULL, &m) != TFCC_OK) exit(1);
    mm[k] = now_ms() - t0;
    c_mm[k] = cpu_ms() - c0;
    tfcc_model_release(m);
  }
  for (int k = 0; k < LOAD_REPS; k++) {
    void *map = NULL;
    size_t n = 0;
    double t0 = now_ms(), c0 = cpu_ms();
    if (load_touching(rt, pa, &m, &map, &n) != TFCC_OK) exit(1);
    touch[k] = now_ms() - t0;
    c_touch[k] = cpu_ms() - c0;
    tfcc_model_release(m);
    munmap(map, n);
  }
  for (int k = 0; k < LOAD_REPS; k++) {
    double t0 = now_ms(), c0 = cpu_ms();
    size_t n = 0;
    void *d = read_all(pa, &n);
    if (!d || tfcc_model_load_buffer(rt, d, n, NULL, &m) != TFCC_OK) exit(1);
    readl[k] = now_ms() - t0;
    c_read[k] = cpu_ms() - c0;
    tfcc_model_release(m);
    free(d);
  }
  double p_mm = median(mm, LOAD_REPS), p_touch = median(touch, LOAD_REPS),
         p_read = median(readl, LOAD_REPS);
  double q_mm = median(c_mm, LOAD_REPS), q_touch = median(c_touch, LOAD_REPS),
         q_read = median(c_read, LOAD_REPS);
  printf("load, medians of %d (file in page cache)          wall ms    thread CPU ms\n", LOAD_REPS);
  printf("  plain, mmap (file pages not read up front)  %8.3f    %8.3f\n", p_mm, q_mm);
  printf("  plain, mmap populated + every byte read     %8.3f    %8.3f\n", p_touch, q_touch);
  printf("  plain, read() into malloc + load_buffer     %8.3f    %8.3f\n", p_read, q_read);
#ifdef TFCC_WITH_CRYPTO
  uint8_t key[32];
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)(i * 7 + 1);
  tfcc_key_source ks = {TFCC_KEY_FROM_BYTES, NULL, NULL, NULL, NULL, key};
  char pe[512];
  snprintf(pe, sizeof pe, "/tmp/bench_hot_update_%d.tfcce", (int)getpid());
  if (tfcc_crypto_encrypt_file(pa, pe, &ks, "bench") != TFCC_OK) exit(1);
  double enc[LOAD_REPS], dec[LOAD_REPS], c_enc[LOAD_REPS], c_dec[LOAD_REPS];
  for (int k = 0; k < LOAD_REPS; k++) {
    double t0 = now_ms(), c0 = cpu_ms();
    if (tfcc_model_load_encrypted(rt, pe, &ks, NULL, &m) != TFCC_OK) {
      fprintf(stderr, "%s\n", tfcc_crypto_last_error());
      exit(1);
    }
    enc[k] = now_ms() - t0;
    c_enc[k] = cpu_ms() - c0;
    tfcc_model_release(m);
  }
  for (int k = 0; k < LOAD_REPS; k++) {
    void *p = NULL;
    size_t n = 0;
    double t0 = now_ms(), c0 = cpu_ms();
    if (tfcc_crypto_decrypt_file(pe, &ks, &p, &n) != TFCC_OK) exit(1);
    dec[k] = now_ms() - t0;
    c_dec[k] = cpu_ms() - c0;
    tfcc_crypto_free(p, n);
  }
  double p_enc = median(enc, LOAD_REPS), p_dec = median(dec, LOAD_REPS);
  double q_enc = median(c_enc, LOAD_REPS), q_dec = median(c_dec, LOAD_REPS);
  printf("  encrypted: map + decrypt + load             %8.3f    %8.3f\n", p_enc, q_enc);
  printf("    of which map + decrypt                    %8.3f    %8.3f\n", p_dec, q_dec);
  printf(
      "ratios (wall / CPU): encrypted over plain mmap %.2f / %.2f (target < 2); over plain reading every byte "
      "%.2f / %.2f; over read()+load %.2f / %.2f\n",
      p_enc / p_mm, q_enc / q_mm, p_enc / p_touch, q_enc / q_touch, p_enc / p_read, q_enc / q_read);
  measure_enc_cache(rt, pa, pe, &ks);
  unlink(pe);
#else
  printf("  encrypted: not built (TFCC_WITH_CRYPTO off)\n");
#endif
}

/* ---------------------------------------------------------------- 4. reload p99 */

typedef struct rl_run {
  double t0, t1;
} rl_run;

typedef struct rl_state {
  tfcc_model *s, *peer;
  const char *a, *b;
  atomic_int stop;
  rl_run *runs;
  size_t n, cap;
  double win[4096][2];  /* S's updates: [call, return + settle] */
  double pwin[4096][2]; /* the peer's */
  atomic_int n_win, n_pwin;
  double map_ms[4096], prep_ms[4096], total_ms[4096]; /* S's updates */
  double write_ms[4096]; /* S's update's return to its cache file renamed in place */
  const char *cache;
  bool own;
  int failed;
} rl_state;

#define RL_SETTLE_MS 50.0

static void *rl_run_loop(void *arg) {
  rl_state *r = arg;
  tfcc_session *s = NULL;
  if (tfcc_session_create(r->s, NULL, &s) != TFCC_OK) return NULL;
  tfcc_tensor_info ii, oi;
  tfcc_session_input_info(s, 0, &ii);
  tfcc_session_output_info(s, 0, &oi);
  void *in = calloc(1, ii.bytes), *out = malloc(oi.bytes);
  const void *ins[1] = {in};
  void *outs[1] = {out};
  for (int k = 0; k < 5; k++) tfcc_session_run(s, ins, outs); /* warm */
  while (!atomic_load(&r->stop) && r->n < r->cap) {
    double t0 = now_ms();
    tfcc_session_run(s, ins, outs);
    r->runs[r->n++] = (rl_run){t0, now_ms()};
  }
  free(in);
  free(out);
  tfcc_session_destroy(s);
  return NULL;
}

static uint64_t file_ino(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (uint64_t)sb.st_ino : 0;
}

/* An update that packed blocks writes the cache file on a thread of its own after it returns:
 * waits (<= 3 s) until the file at path is another one than ino (a rename), so that the write
 * counts in the update's window. Returns at once when no cache is written. */
static void wait_cache_written(const char *path, uint64_t ino, bool expect) {
  for (int k = 0; expect && k < 3000 && file_ino(path) == ino; k++) usleep(1000);
}

static void *rl_update_loop(void *arg) {
  rl_state *r = arg;
  for (int k = 0; !atomic_load(&r->stop); k++) {
    const char *to = k % 2 ? r->a : r->b;
    if (r->peer) {
      double t0 = now_ms();
      const uint64_t ino = file_ino(r->cache);
      if (tfcc_model_update_weights(r->peer, to) != TFCC_OK) r->failed = 1;
      wait_cache_written(r->cache, ino, true); /* the peer's always rewrites it */
      int i = atomic_load(&r->n_pwin);
      if (i < 4096) {
        r->pwin[i][0] = t0;
        r->pwin[i][1] = now_ms() + RL_SETTLE_MS;
        atomic_store(&r->n_pwin, i + 1);
      }
      usleep(100000);
    }
    double t0 = now_ms();
    const uint64_t ino = file_ino(r->cache);
    if (tfcc_model_update_weights(r->s, to) != TFCC_OK) r->failed = 1;
    const double t_ret = now_ms();
    wait_cache_written(r->cache, ino, r->own); /* own cache: stale each time, rewritten */
    int i = atomic_load(&r->n_win);
    if (i < 4096) {
      tfcc_update_info u;
      tfcc_model_update_info(r->s, &u);
      r->map_ms[i] = u.map_ms, r->prep_ms[i] = u.prepare_ms;
      r->win[i][0] = t0;
      r->win[i][1] = now_ms() + RL_SETTLE_MS;
      r->total_ms[i] = t_ret - t0;
      r->write_ms[i] = now_ms() - t_ret;
      atomic_store(&r->n_win, i + 1);
    }
    usleep(r->peer ? 300000 : 400000);
  }
  return NULL;
}

static bool rl_overlaps(const rl_run *x, double (*w)[2], int n) {
  for (int i = 0; i < n; i++)
    if (x->t0 < w[i][1] && x->t1 > w[i][0]) return true;
  return false;
}

/* p99 swap / p99 steady of one setting (0: no cache, 1: own cache, 2: peer's cache). */
static double rl_measure(tfcc_runtime *rt, const char *pa, const char *pb, const char *dir,
                         int mode, double seconds, int round) {
  static const char *names[] = {"no cache", "own cache", "peer's cache"};
  char cache[600];
  (void)mkdir(dir, 0755);
  snprintf(cache, sizeof cache, "%s/hot_update_reload_%d.wc", dir, (int)getpid());
  unlink(cache);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = mode ? cache : NULL;
  rl_state *r = calloc(1, sizeof *r);
  r->a = pa, r->b = pb;
  r->cache = cache;
  r->own = mode == 1;
  r->cap = 2000000;
  r->runs = malloc(r->cap * sizeof *r->runs);
  if (tfcc_model_load_file(rt, pa, &mo, &r->s) != TFCC_OK ||
      (mode == 2 && tfcc_model_load_file(rt, pa, &mo, &r->peer) != TFCC_OK)) {
    fprintf(stderr, "load: %s\n", tfcc_last_error());
    exit(1);
  }
  atomic_init(&r->stop, 0);
  atomic_init(&r->n_win, 0);
  atomic_init(&r->n_pwin, 0);
  pthread_t th, tu;
  pthread_create(&th, NULL, rl_run_loop, r);
  usleep(200000);
  pthread_create(&tu, NULL, rl_update_loop, r);
  usleep((useconds_t)(seconds * 1e6));
  atomic_store(&r->stop, 1);
  pthread_join(tu, NULL);
  pthread_join(th, NULL);
  if (r->failed) fprintf(stderr, "an update failed: %s\n", tfcc_last_error());
  const int nw = atomic_load(&r->n_win), npw = atomic_load(&r->n_pwin);
  double *sw = malloc(r->n * sizeof *sw), *st = malloc(r->n * sizeof *st);
  size_t nsw = 0, nst = 0;
  for (size_t i = 0; i < r->n; i++) {
    const rl_run *x = &r->runs[i];
    if (rl_overlaps(x, r->win, nw))
      sw[nsw++] = x->t1 - x->t0;
    else if (!rl_overlaps(x, r->pwin, npw))
      st[nst++] = x->t1 - x->t0;
  }
  char label[96];
  snprintf(label, sizeof label, "round %d, %s: steady", round, names[mode]);
  stats(label, st, nst);
  snprintf(label, sizeof label, "round %d, %s: swap (%d updates)", round, names[mode], nw);
  stats(label, sw, nsw);
  double ratio =
      nsw && nst ? sw[(size_t)((double)nsw * 0.99)] / st[(size_t)((double)nst * 0.99)] : 0;
  printf(
      "round %d, %-14s p99 swap / steady %.2f; update call ms (median): %.1f (map %.1f, prepare %.1f), then cache written after %.1f\n",
      round, names[mode], ratio, nw ? median(r->total_ms, nw) : 0, nw ? median(r->map_ms, nw) : 0,
      nw ? median(r->prep_ms, nw) : 0, nw ? median(r->write_ms, nw) : 0);
  fflush(stdout);
  tfcc_model_release(r->s);
  tfcc_model_release(r->peer);
  unlink(cache);
  free(sw), free(st), free(r->runs), free(r);
  return ratio;
}

static void measure_reload(tfcc_runtime *rt, const char *pa, const char *pb, const char *dir,
                           double seconds, int rounds) {
  static const char *names[] = {"no cache", "own cache", "peer's cache"};
  double ratios[3][64];
  if (rounds > 64) rounds = 64;
  for (int k = 0; k < rounds; k++)
    for (int j = 0; j < 3; j++) { /* the settings interleaved, their order rotated */
      const int mode = (j + k) % 3;
      ratios[mode][k] = rl_measure(rt, pa, pb, dir, mode, seconds, k);
    }
  for (int mode = 0; mode < 3; mode++)
    printf("p99 swap / steady, median of %d rounds, %-14s %.2f (target <= 1.5)\n", rounds,
           names[mode], median(ratios[mode], rounds));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(
        stderr,
        "usage: hot_update MODEL.tflite [--updates N] [--seconds S] [--threads T] [--load-only]\n"
        "       hot_update MODEL.tflite --reload-p99 --weights-cache DIR [--seconds S] [--rounds R] [--threads T]\n");
    return 2;
  }
  int updates = 20, threads = 1, load_only = 0, reload = 0, rounds = 3;
  double seconds = 5;
  const char *cache_dir = NULL;
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--load-only"))
      load_only = 1, memmove(argv + i, argv + i + 1, (size_t)(argc-- - i - 1) * sizeof *argv), i--;
    else if (!strcmp(argv[i], "--reload-p99"))
      reload = 1, memmove(argv + i, argv + i + 1, (size_t)(argc-- - i - 1) * sizeof *argv), i--;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--updates"))
      updates = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--seconds"))
      seconds = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--threads"))
      threads = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--weights-cache"))
      cache_dir = argv[i + 1];
    else if (!strcmp(argv[i], "--rounds"))
      rounds = atoi(argv[i + 1]);
  }
  if (reload && !cache_dir) {
    fprintf(stderr, "--reload-p99 needs --weights-cache DIR\n");
    return 2;
  }
  size_t size = 0;
  uint8_t *a = read_all(argv[1], &size), *b = a ? variant(a, size) : NULL;
  if (!b) {
    fprintf(stderr, "%s: cannot read the model\n", argv[1]);
    return 1;
  }
  char pa[512], pb[512];
  snprintf(pa, sizeof pa, "/tmp/bench_hot_update_%d_a.tflite", (int)getpid());
  snprintf(pb, sizeof pb, "/tmp/bench_hot_update_%d_b.tflite", (int)getpid());
  if (write_all(pa, a, size) || write_all(pb, b, size)) return 1;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = threads;
  tfcc_runtime *rt = NULL;
  tfcc_model *m = NULL;
  if (tfcc_runtime_create(&ro, &rt) || tfcc_model_load_file(rt, pa, NULL, &m)) {
    fprintf(stderr, "load: %s\n", tfcc_last_error());
    return 1;
  }
  printf("model %s: %zu bytes, %zu constant bytes, %d operators; run threads %d\n", argv[1], size,
         tfcc_model_constant_bytes(m), tfcc_model_op_count(m), threads);
  if (reload) {
    tfcc_model_release(m);
    measure_reload(rt, pa, pb, cache_dir, seconds, rounds < 1 ? 1 : rounds);
    unlink(pa);
    unlink(pb);
    tfcc_runtime_destroy(rt);
    free(a), free(b);
    return 0;
  }
  if (load_only) updates = 0;

  /* 1. update time */
  double *tot = malloc((size_t)updates * sizeof *tot),
         *prep = malloc((size_t)updates * sizeof *prep), *sw = malloc((size_t)updates * sizeof *sw),
         *mp = malloc((size_t)updates * sizeof *mp);
  for (int k = 0; k < updates; k++) {
    if (tfcc_model_update_weights(m, k % 2 ? pa : pb) != TFCC_OK) {
      fprintf(stderr, "update: %s\n", tfcc_last_error());
      return 1;
    }
    tfcc_update_info u;
    tfcc_model_update_info(m, &u);
    tot[k] = u.total_ms, prep[k] = u.prepare_ms, sw[k] = u.switch_ms, mp[k] = u.map_ms;
  }
  if (updates) {
    stats("update total (switch time)", tot, (size_t)updates);
    stats("  map+prefault+checksum", mp, (size_t)updates);
    stats("  verify+check+prepack+recheck", prep, (size_t)updates);
    stats("  publish (atomic switch)", sw, (size_t)updates);
  }

  /* 2. run loop p99 without and with updates */
  if (!load_only) {
    double p99_quiet = measure_loop(m, NULL, seconds, "run loop, no updates");
    updater up = {.m = m, .a = pa, .b = pb};
    double p99_busy = measure_loop(m, &up, seconds, "run loop, update every 100 ms");
    printf("updates during the loop: %d (worst switch %.1f ms); p99 ratio %.2f (target <= 2)\n",
           up.count, up.worst, p99_quiet > 0 ? p99_busy / p99_quiet : 0);
  }
  tfcc_model_release(m);

  /* 3. plain vs encrypted load (file in the page cache: it was just written) */
  measure_loads(rt, pa);
  unlink(pa);
  unlink(pb);
  tfcc_runtime_destroy(rt);
  free(a), free(b), free(tot), free(prep), free(sw), free(mp);
  return 0;
}
