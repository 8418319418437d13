/* The first run like the rest (issue 18 point 5), what the load prepares for it by default: a
 * weights cache file that the page cache dropped (a reboot, memory pressure) is read back in
 * by the next load whole 2 MiB span by span (runtime/weights_cache.c, prime_file), before any
 * run; a file that is not a cache file of this version is not read in beyond what the first
 * read of its header brings in on this kernel (measured here on the same file: two spans where
 * the file system takes 2 MiB folios, read_ahead_kb elsewhere). A 24 MiB file made here, read
 * through the load's first look at a cache, tfcc_wc_peek_skips. With a model of ../shared
 * (skipped when absent): a load right after the drop gives the outputs of a load without a
 * cache, every whole span resident before the first run; a foreign file at the cache's path is
 * refused, rebuilt, its outputs right. Where the kernel keeps a file's pages after the drop, or
 * refuses MADV_HUGEPAGE on a file mapping (the load then primes nothing), the part that
 * depends on it is counted skipped, saying why. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lifecycle_util.h"
#include "runtime/weights_cache.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

#define SPAN ((size_t)2 << 20)
#define OUT_CAP ((size_t)4 << 20)

/* Loads model (with cache when not NULL), runs it once on lc_fill_input's inputs; the outputs
 * end to end in out. Between the load and the session, at_load(user) when given. */
static bool load_run(tfcc_runtime *rt, const char *model, const char *cache, uint8_t *out,
                     size_t *out_bytes, void (*at_load)(void *), void *user) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = cache;
  tfcc_model *m = NULL;
  if (tfcc_model_load_file(rt, model, &mo, &m) != TFCC_OK) {
    fprintf(stderr, "load %s: %s\n", model, tfcc_last_error());
    return false;
  }
  if (at_load) at_load(user);
  const bool ok = lc_run_outputs(m, out, OUT_CAP, out_bytes, NULL);
  tfcc_model_release(m);
  return ok;
}

/* How many of the file's n bytes' pages are resident (SIZE_MAX: not known). */
static size_t pages_resident(int fd, size_t n) {
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE), np = (n + pg - 1) / pg;
  unsigned char *v = malloc(np ? np : 1);
  void *m = v ? mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
  size_t in = SIZE_MAX;
  if (m != MAP_FAILED) {
    if (mincore(m, n, v) == 0)
      for (size_t i = in = 0; i < np; i++) in += v[i] & 1;
    munmap(m, n);
  }
  free(v);
  return in;
}

/* Drops the file's pages from the page cache; true when then none of them is resident. The
 * kernel may keep some for a moment (pages still in another CPU's LRU batch, written back
 * late), so it tries a few times; false: the system kept the file (another process maps it,
 * or the advice is not honoured) and what depends on the drop cannot be checked. */
static bool evict(int fd, size_t n) {
  for (int attempt = 0; attempt < 5; attempt++) {
    (void)fdatasync(fd); /* dirty pages are not dropped */
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (pages_resident(fd, n) == 0) return true;
    usleep(20000);
  }
  return false;
}

/* How many of the file's whole 2 MiB spans have their first page resident, of *spans. */
static size_t spans_resident(int fd, size_t n, size_t *spans) {
  *spans = 0;
  void *m = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) return 0;
  size_t in = 0;
  for (size_t at = 0; at + SPAN <= n; at += SPAN) {
    unsigned char v = 0;
    (*spans)++;
    if (mincore((uint8_t *)m + at, 1, &v) == 0 && (v & 1)) in++;
  }
  munmap(m, n);
  return in;
}

/* Whether this kernel takes MADV_HUGEPAGE on a mapping of the file (the load's priming of a
 * dropped cache file reads it through such a mapping, and does nothing where it is refused). */
static bool hugepage_advice(int fd, size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  void *m = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) return false;
  const bool ok = madvise(m, n, MADV_HUGEPAGE) == 0;
  munmap(m, n);
  return ok;
#else
  (void)fd;
  (void)n;
  return false;
#endif
}

/* What reading a file's first bytes brings in on this kernel, in whole spans of *spans: the
 * dropped file's first byte read through a MADV_HUGEPAGE mapping, as the load's first look at
 * a cache file reads its header (the fault's readahead: two spans where the file system takes
 * 2 MiB folios, read_ahead_kb around the fault elsewhere); the file dropped again after.
 * SIZE_MAX: the drop did not happen. */
static size_t first_read_spans(int fd, size_t n, size_t *spans) {
  *spans = 0;
  if (!evict(fd, n)) return SIZE_MAX;
  void *m = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) return SIZE_MAX;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  (void)madvise(m, n, MADV_HUGEPAGE);
#endif
  (void)*(const volatile uint8_t *)m;
  munmap(m, n);
  const size_t in = spans_resident(fd, n, spans);
  return evict(fd, n) ? in : SIZE_MAX;
}

typedef struct probe {
  int fd;
  size_t bytes, spans, resident;
} probe;

static void probe_spans(void *user) {
  probe *p = user;
  p->resident = spans_resident(p->fd, p->bytes, &p->spans);
}

/* What a look at a dropped file saw: its whole spans, how many a first read of it brings in on
 * this kernel (first_read_spans), how many the load's first look at it left resident
 * (SIZE_MAX for either: the drop did not happen). */
typedef struct peek_seen {
  size_t spans, first, in;
} peek_seen;

/* A 24 MiB file at path: a cache header of this version and length (magic: good) or another
 * magic, the rest 0x5a; dropped from the page cache, then looked at as the load does first. */
static peek_seen peek_dropped(const char *path, bool good) {
  const size_t n = 24 * ((size_t)1 << 20);
  peek_seen s = {0, SIZE_MAX, SIZE_MAX};
  uint8_t *b = malloc(n);
  if (!b) return s;
  memset(b, 0x5a, n);
  tfcc_wc_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, good ? TFCC_WC_MAGIC : "NOTACACH", 8);
  h.version = TFCC_WC_VERSION;
  h.header_bytes = sizeof h;
  h.file_bytes = n;
  memcpy(b, &h, sizeof h);
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(b, 1, n, f) == n;
  if (f) ok = fclose(f) == 0 && ok;
  free(b);
  int fd = ok ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) return s;
  s.first = first_read_spans(fd, n, &s.spans);
  if (s.first != SIZE_MAX) {                /* dropped again */
    const tfcc_wc_src_id id = {1, 2, 3, 4}; /* another source's: the peek finds no list */
    tfcc_wc_skip *sk = NULL;
    size_t nsk = 0;
    tfcc_wc_peek_skips(path, &id, 1000, &sk, &nsk);
    free(sk);
    s.in = spans_resident(fd, n, &s.spans);
  }
  close(fd);
  return s;
}

int main(void) {
  bool advice = false; /* the kernel takes MADV_HUGEPAGE on a file mapping: the load primes */
  {
    char d[] = "/tmp/tfcc_first_run_XXXXXX", path[64];
    CHECK(mkdtemp(d) != NULL);
    snprintf(path, sizeof path, "%s/f.wc", d);
    const peek_seen good = peek_dropped(path, true);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    advice = fd >= 0 && hugepage_advice(fd, (size_t)24 << 20);
    if (fd >= 0) close(fd);
    if (good.in == SIZE_MAX) {
      fprintf(stderr, "first_run: the page cache kept the file: its reading not checked\n");
      tfcc_test_skipped = 1;
    } else if (!advice) {
      fprintf(stderr,
              "first_run: no MADV_HUGEPAGE on a file mapping here (the load does not "
              "prime a dropped cache file): its reading not checked\n");
      tfcc_test_skipped = 1;
    } else {
      CHECKF(good.spans == 12 && good.in == 12, "a dropped cache file: %zu of %zu spans read in",
             good.in, good.spans);
    }
    /* another file: not read in beyond what the first read of its header brings in */
    const peek_seen other = peek_dropped(path, false);
    if (other.in == SIZE_MAX) {
      fprintf(stderr, "first_run: the page cache kept the other file: not checked\n");
      tfcc_test_skipped = 1;
    } else if (other.first >= other.spans) {
      fprintf(stderr,
              "first_run: a first read brings in all %zu spans here (readahead): the "
              "other file's reading not checked\n",
              other.spans);
      tfcc_test_skipped = 1;
    } else {
      CHECKF(other.spans == 12 && other.in <= other.first,
             "another file: %zu of %zu spans read in (a first read brings in %zu)", other.in,
             other.spans, other.first);
    }
    unlink(path);
    rmdir(d);
  }
  const char *shared = getenv("TFCC_SHARED_DIR");
  static const char *const names[] = {"tf2_mobilenet_v2_224_ptq", "ssd_mobilenet_v1_detect_quant"};
  char model[4096] = "";
  for (size_t k = 0; shared && k < sizeof names / sizeof *names && !model[0]; k++) {
    snprintf(model, sizeof model, "%s/models/%s.tflite", shared, names[k]);
    if (access(model, R_OK) != 0) model[0] = 0;
  }
  if (!model[0]) {
    fprintf(stderr, "first_run: no model of ../shared (TFCC_SHARED_DIR): skipped\n");
    tfcc_test_skipped = 1;
    return tfcc_test_finish("first_run");
  }
  char dir[] = "/tmp/tfcc_first_run_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char cache[4200], other[4200];
  snprintf(cache, sizeof cache, "%s/model.wc", dir);
  snprintf(other, sizeof other, "%s/other.wc", dir);

  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(&ro, &rt) == TFCC_OK);
  uint8_t *ref = malloc(OUT_CAP), *out = malloc(OUT_CAP);
  CHECK(ref && out);
  size_t ref_bytes = 0, n = 0;
  CHECK(load_run(rt, model, NULL, ref, &ref_bytes, NULL, NULL) && ref_bytes > 0);
  /* the load that writes the cache, then one that maps it */
  CHECK(load_run(rt, model, cache, out, &n, NULL, NULL) && n == ref_bytes &&
        memcmp(out, ref, n) == 0);

  /* the cache dropped from the page cache: the next load reads every whole span back in */
  probe p = {open(cache, O_RDONLY | O_CLOEXEC), 0, 0, 0};
  struct stat st;
  CHECK(p.fd >= 0 && fstat(p.fd, &st) == 0);
  p.bytes = (size_t)st.st_size;
  CHECKF(p.bytes >= 2 * SPAN, "cache of %zu bytes: fewer than two whole 2 MiB spans", p.bytes);
  for (int round = 0; round < 2 && p.fd >= 0; round++) {
    if (!advice || !evict(p.fd, p.bytes)) {
      fprintf(stderr, "first_run: %s: the cache file's priming not checked\n",
              advice ? "the page cache kept the cache file" : "no MADV_HUGEPAGE on a file mapping");
      tfcc_test_skipped = 1;
      CHECK(load_run(rt, model, cache, out, &n, NULL, NULL) && n == ref_bytes &&
            memcmp(out, ref, n) == 0);
      break;
    }
    CHECK(load_run(rt, model, cache, out, &n, probe_spans, &p) && n == ref_bytes &&
          memcmp(out, ref, n) == 0);
    CHECKF(p.spans >= 2 && p.resident == p.spans, "round %d: %zu of %zu spans resident", round,
           p.resident, p.spans);
  }
  if (p.fd >= 0) close(p.fd);

  /* not a cache file (copies of the model's own bytes, 24 MiB or more): refused, rebuilt,
   * right outputs, and not read in beyond what a first read of its header brings in */
  size_t msize = 0;
  uint8_t *mbytes = tfcc_test_read_file(model, &msize);
  CHECK(mbytes != NULL);
  FILE *f = fopen(other, "wb");
  CHECK(f != NULL);
  const size_t copies = msize ? (24 * ((size_t)1 << 20) + msize - 1) / msize : 0;
  for (size_t k = 0; f && mbytes && k < copies; k++) CHECK(fwrite(mbytes, 1, msize, f) == msize);
  if (f) CHECK(fclose(f) == 0);
  free(mbytes);
  probe q = {open(other, O_RDONLY | O_CLOEXEC), copies * msize, 0, 0};
  CHECK(q.fd >= 0);
  size_t first = SIZE_MAX, spans = 0;
  if (q.fd >= 0) first = first_read_spans(q.fd, q.bytes, &spans);
  if (first == SIZE_MAX || first >= spans) {
    fprintf(stderr, "first_run: %s: a foreign file's reading not checked\n",
            first == SIZE_MAX ? "the page cache kept the foreign file"
                              : "a first read brings in the whole file here (readahead)");
    tfcc_test_skipped = 1;
    CHECK(load_run(rt, model, other, out, &n, NULL, NULL) && n == ref_bytes &&
          memcmp(out, ref, n) == 0);
  } else {
    CHECK(load_run(rt, model, other, out, &n, probe_spans, &q) && n == ref_bytes &&
          memcmp(out, ref, n) == 0);
    /* the probe read the old file (the load wrote a new one in its place) */
    CHECKF(q.spans >= 12 && q.resident <= first,
           "%zu of %zu spans of a foreign file read in (a first read brings in %zu)", q.resident,
           q.spans, first);
  }
  if (q.fd >= 0) close(q.fd);

  free(ref);
  free(out);
  tfcc_runtime_destroy(rt);
  unlink(cache);
  unlink(other);
  rmdir(dir);
  return tfcc_test_finish("first_run");
}
