/* Packed-weights cache file: reading, checking, the store operators ask, writing
 * (weights_cache.h). */
#include "runtime/weights_cache.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/hash64.h"
#include "kernels/hash/sha256.h"
#include "base/durable_file.h"
#include "base/span_writer.h"

_Static_assert(sizeof(tfcc_wc_header) == 640, "cache header layout");
_Static_assert(sizeof(tfcc_wc_entry) == 32, "cache entry layout");

/* ---------------------------------------------------------------- parsing */

static uint64_t table_hash(const uint8_t *p, const tfcc_wc_header *h) {
  tfcc_wc_header z = *h;
  z.table_hash = 0;
  uint64_t a = tfcc_hash64(&z, sizeof z);
  uint64_t b = tfcc_hash64(p + sizeof z, (size_t)h->n_blocks * sizeof(tfcc_wc_entry));
  return a ^ (b * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
}

void tfcc_wc_entry_at(const uint8_t *p, uint32_t i, tfcc_wc_entry *e) {
  memcpy(e, p + sizeof(tfcc_wc_header) + (size_t)i * sizeof *e, sizeof *e);
}

tfcc_status tfcc_wc_parse(const uint8_t *p, size_t n, const tfcc_wc_expect *want, tfcc_wc_header *h,
                          tfcc_err *err) {
  if (n < sizeof *h)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%zu bytes, shorter than the %zu-byte header",
                        n, sizeof *h);
  memcpy(h, p, sizeof *h);
  if (memcmp(h->magic, TFCC_WC_MAGIC, 8) != 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "not a tfcc weights cache (magic)");
  if (h->version != TFCC_WC_VERSION)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "layout version %u, this tfcc writes %u",
                        (unsigned)h->version, TFCC_WC_VERSION);
  if (h->header_bytes != sizeof *h || h->entry_bytes != sizeof(tfcc_wc_entry))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "header or entry size differs");
  if (h->file_bytes != (uint64_t)n)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%zu bytes, the header says %llu (truncated?)",
                        n, (unsigned long long)h->file_bytes);
  const size_t max_entries = (n - sizeof *h) / sizeof(tfcc_wc_entry);
  if (h->n_blocks > max_entries)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "table of %u blocks past the end of the file",
                        (unsigned)h->n_blocks);
  if (table_hash(p, h) != h->table_hash)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "header or table hash differs (corrupt)");
  if (memchr(h->ident, 0, sizeof h->ident) == NULL)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "identity not terminated");
  if (want && want->ident && strcmp(h->ident, want->ident) != 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "made for '%s', this load is '%s'", h->ident,
                        want->ident);
  if (want && want->src_size && h->src_size != want->src_size)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "made from a model of %llu bytes, this one has %llu (stale)",
                        (unsigned long long)h->src_size, (unsigned long long)want->src_size);
  const uint64_t data0 = sizeof *h + (uint64_t)h->n_blocks * sizeof(tfcc_wc_entry);
  for (uint32_t i = 0; i < h->n_blocks; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(p, i, &e);
    if (e.offset % TFCC_WC_ALIGN || e.offset < data0 || e.bytes == 0 || e.bytes > (uint64_t)n ||
        e.offset > (uint64_t)n - e.bytes)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "block %u (node %d): %llu bytes at %llu out of bounds", (unsigned)i,
                          (int)e.node, (unsigned long long)e.bytes, (unsigned long long)e.offset);
  }
  return TFCC_OK;
}

#define SAMPLE_EDGE TFCC_WC_SAMPLE_EDGE

uint64_t tfcc_wc_sample_join(uint64_t head, uint64_t tail, size_t size) {
  return ((head ^ (uint64_t)size) * 0x9E3779B97F4A7C15ull) ^ tail;
}

uint64_t tfcc_wc_sample_hash(const uint8_t *src, size_t size) {
  if (size <= 2 * SAMPLE_EDGE) return tfcc_hash64(src, size);
  return tfcc_wc_sample_join(tfcc_hash64(src, SAMPLE_EDGE),
                             tfcc_hash64(src + size - SAMPLE_EDGE, SAMPLE_EDGE), size);
}

static bool id_set(const tfcc_wc_src_id *id) {
  return id->dev || id->ino || id->mtime_ns || id->ctime_ns;
}

static bool is_keep(int32_t node, uint32_t block) {
  return node == TFCC_WC_SKIPS_NODE && block == TFCC_WC_KEEP_BLOCK;
}

size_t tfcc_wc_skips_check(const uint8_t *p, size_t n, uint64_t src_size) {
  if (n == 0 || n % sizeof(tfcc_wc_skip) != 0 || src_size <= 2 * (uint64_t)SAMPLE_EDGE) return 0;
  const size_t k = n / sizeof(tfcc_wc_skip);
  uint64_t at = 0;
  for (size_t i = 0; i < k; i++) {
    tfcc_wc_skip r;
    memcpy(&r, p + i * sizeof r, sizeof r);
    if (r.bytes == 0 || r.offset % TFCC_WC_SKIP_PAGE || r.bytes % TFCC_WC_SKIP_PAGE ||
        r.offset < at || r.offset > src_size || r.bytes > src_size - r.offset)
      return 0;
    at = r.offset + r.bytes;
  }
  return k;
}

/* pread of exactly n bytes at off. */
static bool pread_all(int fd, void *p, size_t n, uint64_t off) {
  uint8_t *b = p;
  while (n) {
    ssize_t r = pread(fd, b, n, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    b += r;
    n -= (size_t)r;
    off += (uint64_t)r;
  }
  return true;
}

static tfcc_wc_kept_map *read_kept(int fd, uint64_t file_bytes, const uint8_t *table,
                                   uint32_t n_blocks, uint64_t src_size, size_t *n);

/* A cache file whose pages the page cache dropped (a reboot, memory pressure, another
 * program's drop) was read back in by the peek's read(2)s below, in the small folios of
 * read(2)'s readahead, and the spans the first run then faulted in through the MADV_HUGEPAGE
 * mapping came back partly small too: every later process's first run took a fault per
 * 64 KiB there (MobileNetV2 f32: 55 faults instead of 12, ResNet-50 f32 421 instead of 56; the
 * first run 1.5-2.5 x a later one; bench/README.md "first18"). Reading only the first span
 * through such a mapping made it worse. So when the file's first page is not resident, its
 * header is read through a MADV_HUGEPAGE mapping, as map_file maps it, and when it is a cache
 * file of this version and length, a byte of every whole 2 MiB span: one 2 MiB folio each,
 * one fault per span for every later process. The first run would read those pages anyway
 * (the packed weights are most of the file); a resident file costs a mapping and one mincore.
 * The file is read through the mapping only inside the length fstat gave: a cache file is
 * replaced by rename, never truncated in place (map_file's mapping is read the same way). */
static void prime_file(int fd, uint64_t file_bytes) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && defined(MADV_HUGEPAGE)
  if (file_bytes < TFCC_SPAN_BYTES || file_bytes > SIZE_MAX) return;
  const size_t n = (size_t)file_bytes;
  void *m = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) return;
  unsigned char v = 0;
  if (mincore(m, 1, &v) == 0 && !(v & 1) && madvise(m, n, MADV_HUGEPAGE) == 0) {
    /* a cache file of this version and length (the first span read in), not another file */
    tfcc_wc_header h;
    memcpy(&h, m, sizeof h);
    if (memcmp(h.magic, TFCC_WC_MAGIC, 8) == 0 && h.version == TFCC_WC_VERSION &&
        h.file_bytes == file_bytes) {
      const volatile uint8_t *p = m;
      for (size_t at = TFCC_SPAN_BYTES; at + TFCC_SPAN_BYTES <= n; at += TFCC_SPAN_BYTES)
        (void)p[at];
    }
  }
  munmap(m, n);
#else
  (void)fd;
  (void)file_bytes;
#endif
}

/* The skip list of an open cache file of file_bytes bytes, checked (NULL: none or off); with
 * kept, also its kept ranges (*kept NULL with *n_kept 0 when none or off) when the file's
 * mtime (mtime_ns) is its writer's stamp. */
static tfcc_wc_skip *read_skips(int fd, uint64_t file_bytes, const tfcc_wc_src_id *src_id,
                                uint64_t src_size, size_t *n, int64_t mtime_ns,
                                tfcc_wc_kept_map **kept, size_t *n_kept) {
  tfcc_wc_header h;
  prime_file(fd, file_bytes);
  if (file_bytes < sizeof h || !pread_all(fd, &h, sizeof h, 0) ||
      memcmp(h.magic, TFCC_WC_MAGIC, 8) != 0 || h.version != TFCC_WC_VERSION ||
      h.header_bytes != sizeof h || h.entry_bytes != sizeof(tfcc_wc_entry) ||
      h.file_bytes != file_bytes || h.src_size != src_size ||
      memcmp(&h.src_id, src_id, sizeof h.src_id) != 0 ||
      h.n_blocks > (file_bytes - sizeof h) / sizeof(tfcc_wc_entry))
    return NULL;
  const size_t tb = sizeof h + (size_t)h.n_blocks * sizeof(tfcc_wc_entry);
  uint8_t *t = malloc(tb);
  if (!t) return NULL;
  memcpy(t, &h, sizeof h);
  tfcc_wc_skip *out = NULL;
  if (pread_all(fd, t + sizeof h, tb - sizeof h, sizeof h) && table_hash(t, &h) == h.table_hash) {
    for (uint32_t i = 0; i < h.n_blocks; i++) {
      tfcc_wc_entry e;
      tfcc_wc_entry_at(t, i, &e);
      if (e.node != TFCC_WC_SKIPS_NODE || e.block != TFCC_WC_SKIPS_BLOCK) continue;
      if (e.bytes == 0 || e.bytes > (1u << 24) || e.offset > file_bytes - e.bytes || e.offset < tb)
        break;
      uint8_t *b = malloc((size_t)e.bytes);
      if (b && pread_all(fd, b, (size_t)e.bytes, e.offset) &&
          tfcc_hash64(b, (size_t)e.bytes) == e.hash &&
          (*n = tfcc_wc_skips_check(b, (size_t)e.bytes, src_size)) != 0) {
        out = (tfcc_wc_skip *)(void *)b;
        b = NULL;
      }
      free(b);
      break;
    }
    if (kept && h.stamp_ns != 0 && h.stamp_ns == mtime_ns)
      *kept = read_kept(fd, file_bytes, t, h.n_blocks, src_size, n_kept);
  }
  free(t);
  return out;
}

/* The kept-pages block's ranges with their offsets in the file (table: header + entries),
 * clipped to the source's pages. Those in the sampled first and last 64 KiB too: the load
 * compares them with the source file as it hashes the sample (tfcc_model_file_read_ends),
 * so that its sample hash stays the source's own. None for a source of 128 KiB or less (all
 * of it sampled: read, as it would be compared). */
static tfcc_wc_kept_map *read_kept(int fd, uint64_t file_bytes, const uint8_t *table,
                                   uint32_t n_blocks, uint64_t src_size, size_t *n) {
  if (src_size <= 2 * (uint64_t)SAMPLE_EDGE) return NULL;
  /* the source's pages (ranges end below UINT64_MAX / 4: checked below) */
  const uint64_t lo = 0, hi = src_size >= UINT64_MAX / 4
                                  ? UINT64_MAX / 4
                                  : (src_size + TFCC_WC_SKIP_PAGE - 1) / TFCC_WC_SKIP_PAGE *
                                        TFCC_WC_SKIP_PAGE;
  *n = 0;
  for (uint32_t i = 0; i < n_blocks; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(table, i, &e);
    if (!is_keep(e.node, e.block)) continue;
    if (e.offset % TFCC_WC_SKIP_PAGE || e.bytes < 8 || e.offset > file_bytes ||
        e.bytes > file_bytes - e.offset)
      return NULL;
    uint64_t count;
    if (!pread_all(fd, &count, 8, e.offset) || count == 0 || count > (1u << 20) ||
        count > (e.bytes - 8) / sizeof(tfcc_wc_skip))
      return NULL;
    /* the list and its padding: what tfcc_wc_kept_check needs to see of the block */
    const size_t head = ((size_t)(8 + count * sizeof(tfcc_wc_skip)) + TFCC_WC_SKIP_PAGE - 1) /
                        TFCC_WC_SKIP_PAGE * TFCC_WC_SKIP_PAGE;
    uint8_t *b = malloc(8 + (size_t)count * sizeof(tfcc_wc_skip));
    tfcc_wc_kept_map *out = malloc((size_t)count * sizeof *out);
    uint64_t data = e.offset + head, total = 0;
    size_t m = 0; /* ranges kept after the clipping */
    uint64_t prev_end = 0;
    bool ok = b && out && head <= e.bytes &&
              pread_all(fd, b, 8 + (size_t)count * sizeof(tfcc_wc_skip), e.offset);
    for (uint64_t k = 0; ok && k < count; k++) {
      tfcc_wc_skip r;
      memcpy(&r, b + 8 + k * sizeof r, sizeof r);
      ok = r.bytes != 0 && r.offset % TFCC_WC_SKIP_PAGE == 0 && r.bytes % TFCC_WC_SKIP_PAGE == 0 &&
           r.offset >= prev_end && r.bytes <= UINT64_MAX / 4 - r.offset &&
           r.bytes <= e.bytes - head - total;
      if (ok) {
        uint64_t a = r.offset > lo ? r.offset : lo,
                 z = r.offset + r.bytes < hi ? r.offset + r.bytes : hi;
        if (a < z) out[m++] = (tfcc_wc_kept_map){a, z - a, data + (a - r.offset)};
      }
      data += r.bytes;
      total += r.bytes;
      prev_end = r.offset + r.bytes;
    }
    free(b);
    if (!ok || !m) {
      free(out);
      return NULL;
    }
    *n = m;
    return out;
  }
  return NULL;
}

void tfcc_wc_peek_skips(const char *path, const tfcc_wc_src_id *src_id, uint64_t src_size,
                        tfcc_wc_skip **out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (!path || !path[0] || !src_id || !id_set(src_id)) return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    *out = read_skips(fd, (uint64_t)st.st_size, src_id, src_size, n, 0, NULL, NULL);
  if (!*out) *n = 0;
  close(fd);
}

void tfcc_wc_peek_file(const char *path, const tfcc_wc_src_id *src_id, uint64_t src_size,
                       bool want_kept, tfcc_wc_peek *p) {
  memset(p, 0, sizeof *p);
  p->fd = -1;
  if (!path || !path[0] || !src_id || !id_set(src_id)) return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const int64_t mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    p->skips = read_skips(fd, (uint64_t)st.st_size, src_id, src_size, &p->n_skips, mtime_ns,
                          want_kept ? &p->kept : NULL, &p->n_kept);
  }
  if (!p->skips) p->n_skips = 0;
  if (!p->kept) p->n_kept = 0;
  if (p->n_kept)
    p->fd = fd;
  else
    close(fd);
}

void tfcc_wc_peek_free(tfcc_wc_peek *p) {
  free(p->skips);
  free(p->kept);
  if (p->fd >= 0) close(p->fd);
  memset(p, 0, sizeof *p);
  p->fd = -1;
}

/* ---------------------------------------------------------------- the store */

typedef struct wc_block {
  int32_t node;
  uint32_t block;
  const void *data;
  size_t bytes;
} wc_block;

struct tfcc_wcache {
  tfcc_packed_store store; /* first: the store operators see */
  char *path;
  const tfcc_logger *log;
  char ident[TFCC_WC_IDENT_BYTES];
  const uint8_t *src;
  size_t src_size;
  uint64_t src_hash; /* valid when have_hash */
  bool have_hash;
  tfcc_wc_src_id src_id; /* all zero: none */
  uint64_t src_sample;
  uint8_t src_sha256[32]; /* for a new file's header: taken at open, before the load's
                             operators may release source pages (runtime/const_release.h) */
  bool sha_pending;       /* src_stays: src_sha256 is taken when the file is written */
  /* the mapped file, when its header checked out */
  const uint8_t *map;
  size_t map_size;
  tfcc_wc_header h;
  uint8_t *state; /* per entry: 0 unchecked, 1 good, 2 bad; | ST_TAKEN once recorded */
  /* per class of block (small_first), the entry after the last one of it taken: operators ask
   * for a class's blocks in the order the file holds them, so a lookup starts there */
  uint32_t cursor[2];
  bool put_any; /* a block was offered (record's duplicate scan is needed) */
  bool stamped; /* unwritten since tfcc wrote it (mtime == stamp): blocks taken unhashed */
  /* the blocks of this load, in the order operators asked (hits and fresh packings) */
  wc_block *blocks;
  size_t n_blocks, cap_blocks;
  bool dirty;  /* write a new file at finish */
  bool lost;   /* a block could not be recorded (no memory): do not write */
  bool logged; /* the one line about refusing the file was written */
  atomic_bool sealed;
  tfcc_wcache_stats stats;
  void (*need_src)(void *user); /* the load reads skipped source ranges */
  void *need_src_user;
  tfcc_wc_skip *skips; /* the skip list to write (owned) */
  size_t n_skips;
  uint8_t *kept; /* the kept-pages block to write (owned) */
  size_t kept_bytes;
  int fd;      /* the mapped file, open until finish (tfcc_wcache_share_kept maps from it) */
  bool in_mem; /* a cache in memory (tfcc_wc_mem): map is the caller's, never unmapped */
  tfcc_wc_mem mem;
  uint64_t keep_off, keep_bytes; /* the kept-pages block, when shared (prefault skips it) */
  atomic_bool prefaulted;
  /* tfcc_wcache_touch_start: the thread reading the blocks' pages, its spans, its stop flag */
  atomic_bool touch_started;
  atomic_bool touch_on; /* touch_thread is to be joined (touch_stop, tfcc_wcache_free) */
  atomic_bool touch_stop;
  pthread_t touch_thread;
  pid_t touch_pid; /* the process that started it (a forked child has no such thread) */
  struct touch_span *touch;
  size_t n_touch;
};

/* The source's bytes are about to be read beyond its sampled ends. */
static void need_src(tfcc_wcache *c) {
  if (c->need_src) c->need_src(c->need_src_user);
}

static void refuse(tfcc_wcache *c, const char *why) {
  c->dirty = true;
  c->stats.rejected = true;
  if (c->logged) return;
  c->logged = true;
  tfcc_log(c->log, TFCC_LOG_WARN, TFCC_TAG_MODEL_LOAD,
           "weights cache %s ignored (%s); rebuilding it", c->path, why);
}

static void append(tfcc_wcache *c, int32_t node, uint32_t block, const void *data, size_t bytes) {
  wc_block *blocks = tfcc_grow(c->blocks, &c->cap_blocks, c->n_blocks, sizeof *blocks, 64);
  if (!blocks) {
    c->lost = true;
    return;
  }
  c->blocks = blocks;
  c->blocks[c->n_blocks++] = (wc_block){node, block, data, bytes};
}

static void record(tfcc_wcache *c, int32_t node, uint32_t block, const void *data, size_t bytes) {
  for (size_t i = 0; i < c->n_blocks; i++)
    if (c->blocks[i].node == node && c->blocks[i].block == block) return;
  append(c, node, block, data, bytes);
}

enum { ST_TAKEN = 0x80 };

static bool block_good(tfcc_wcache *c, uint32_t i, const tfcc_wc_entry *e) {
  if (c->state[i] == 0 && c->stamped) c->state[i] = 1;
  if (c->state[i] == 0)
    c->state[i] = tfcc_hash64(c->map + e->offset, (size_t)e->bytes) == e->hash ? 1 : 2;
  return (c->state[i] & ~ST_TAKEN) == 1;
}

/* The requantization tables (a few KiB each, read at every load's init): written before the
 * other blocks (write_out), together in a few pages rather than one or two pages of their own
 * each between the packed blocks, which a warm load would first-touch one by one. */
static uint32_t small_first(uint32_t block) {
  return block == TFCC_BLOCK_REQUANT || block == TFCC_BLOCK_REQUANT_DW;
}

/* A block the cache leaves to the operator (tfcc_wc_mem.no_float): neither taken nor written. */
static bool left_out(const tfcc_wcache *c, uint32_t block) {
  return c->in_mem && c->mem.no_float &&
         (block == TFCC_BLOCK_F32_GEMM || block == TFCC_BLOCK_F32_WINO ||
          block == TFCC_BLOCK_XDW_EXPAND || block == TFCC_BLOCK_XDW_DW ||
          block == TFCC_BLOCK_XNN_FC || block == TFCC_BLOCK_F32_TCONV ||
          block == TFCC_BLOCK_XNN_FC_TAIL || block == TFCC_BLOCK_EIGEN_CONV ||
          block == TFCC_BLOCK_FC_EIGEN || block == TFCC_BLOCK_BMM_F32_GEMM ||
          block == TFCC_BLOCK_BMM_F32_T || block == TFCC_BLOCK_F32_LSTM ||
          block == TFCC_BLOCK_XNN_CONV || block == TFCC_BLOCK_HYB_DW32 ||
          block == TFCC_BLOCK_DENSIFY || block == TFCC_BLOCK_BF16_GEMM ||
          block == TFCC_BLOCK_Q16_DW);
}

static const void *store_get(tfcc_packed_store *s, int32_t node, uint32_t block, size_t bytes) {
  tfcc_wcache *c = (tfcc_wcache *)s;
  if (atomic_load_explicit(&c->sealed, memory_order_acquire)) return NULL;
  if (left_out(c, block)) {
    need_src(c); /* packed from the source, as a miss */
    return NULL;
  }
  if (c->map) {
    const uint32_t n = c->h.n_blocks, cl = small_first(block);
    for (uint32_t k = 0, i = c->cursor[cl] < n ? c->cursor[cl] : 0; k < n;
         k++, i = i + 1 < n ? i + 1 : 0) {
      tfcc_wc_entry e;
      tfcc_wc_entry_at(c->map, i, &e);
      if (e.node != node || e.block != block) continue;
      char why[96];
      if (e.bytes != bytes) {
        snprintf(why, sizeof why, "node %d block %u holds %llu bytes, the operator needs %zu",
                 (int)node, (unsigned)block, (unsigned long long)e.bytes, bytes);
        refuse(c, why);
        break;
      }
      if (!block_good(c, i, &e)) {
        snprintf(why, sizeof why, "node %d block %u: content hash differs (corrupt)", (int)node,
                 (unsigned)block);
        refuse(c, why);
        break;
      }
      const void *p = c->map + e.offset;
      /* taken before: recorded; else recorded without record's scan unless a block was offered
       * (a key is in the list once) */
      if (!(c->state[i] & ST_TAKEN) && c->put_any)
        record(c, node, block, p, bytes);
      else if (!(c->state[i] & ST_TAKEN))
        append(c, node, block, p, bytes);
      c->state[i] |= ST_TAKEN;
      c->cursor[cl] = i + 1;
      c->stats.hits++;
      return p;
    }
  }
  c->stats.misses++;
  c->dirty = true; /* not in the file (or refused): packed now, written at finish */
  need_src(c);
  return NULL;
}

static void store_put(tfcc_packed_store *s, int32_t node, uint32_t block, const void *data,
                      size_t bytes) {
  tfcc_wcache *c = (tfcc_wcache *)s;
  if (atomic_load_explicit(&c->sealed, memory_order_acquire) || left_out(c, block)) return;
  c->put_any = true;
  record(c, node, block, data, bytes);
  c->dirty = true;
}

tfcc_packed_store *tfcc_wcache_store(tfcc_wcache *c) { return c ? &c->store : NULL; }

void tfcc_wcache_set_skips(tfcc_wcache *c, const tfcc_wc_skip *s, size_t n) {
  if (!c || !id_set(&c->src_id)) return;
  free(c->skips);
  c->skips = NULL;
  c->n_skips = 0;
  if (!n || n > SIZE_MAX / sizeof *s) return;
  c->skips = malloc(n * sizeof *s);
  if (!c->skips) return;
  memcpy(c->skips, s, n * sizeof *s);
  c->n_skips = n;
}

/* ---------------------------------------------------------------- kept pages */

#define PAGE ((size_t)TFCC_WC_SKIP_PAGE)

static size_t page_up(size_t n) { return (n + PAGE - 1) / PAGE * PAGE; }

void tfcc_wcache_set_kept(tfcc_wcache *c, const uint8_t *base, const tfcc_wc_skip *r, size_t n) {
  if (!c || !n || n > (SIZE_MAX / 2 - 8) / sizeof *r) return;
  free(c->kept);
  c->kept = NULL;
  const size_t head = page_up(8 + n * sizeof *r);
  size_t total = head;
  for (size_t i = 0; i < n; i++) {
    if (r[i].bytes > SIZE_MAX / 2 - total) return;
    total += (size_t)r[i].bytes;
  }
  uint8_t *b = calloc(1, total);
  if (!b) return;
  const uint64_t count = n;
  memcpy(b, &count, 8);
  memcpy(b + 8, r, n * sizeof *r);
  size_t at = head;
  for (size_t i = 0; i < n; i++) {
    memcpy(b + at, base + r[i].offset, (size_t)r[i].bytes);
    at += (size_t)r[i].bytes;
  }
  c->kept = b;
  c->kept_bytes = total;
}

size_t tfcc_wc_kept_check(const uint8_t *p, size_t n) {
  uint64_t count;
  if (n < 8) return 0;
  memcpy(&count, p, 8);
  if (count == 0 || count > (n - 8) / sizeof(tfcc_wc_skip)) return 0;
  uint64_t at = 0, data = page_up(8 + (size_t)count * sizeof(tfcc_wc_skip));
  for (uint64_t k = 0; k < count; k++) {
    tfcc_wc_skip r;
    memcpy(&r, p + 8 + k * sizeof r, sizeof r);
    if (data > n || r.bytes == 0 || r.offset % PAGE || r.bytes % PAGE || r.offset < at ||
        r.bytes > UINT64_MAX / 4 - r.offset || r.bytes > n - data)
      return 0;
    at = r.offset + r.bytes;
    data += r.bytes;
  }
  return (size_t)count;
}

/* The file's kept-pages block, checked: its entry in *e, its range count in *n. */
static bool find_kept(const tfcc_wcache *c, tfcc_wc_entry *e, size_t *n) {
  for (uint32_t i = 0; i < c->h.n_blocks; i++) {
    tfcc_wc_entry_at(c->map, i, e);
    if (!is_keep(e->node, e->block)) continue;
    if (e->offset % PAGE) return false;
    *n = tfcc_wc_kept_check(c->map + e->offset, (size_t)e->bytes);
    return *n != 0;
  }
  return false;
}

/* Maps len bytes of the file at file offset off over dst, whose bytes equal src (the same
 * bytes through the file's mapping), populated (resident now, as the private pages were: the
 * first run takes no fault on them; MAP_POPULATE in the same call, not a madvise after it: on
 * a VM each of those calls cost a TLB shootdown). On failure the private bytes are put back
 * (copied from src); false only when even that failed. */
static bool map_over(int fd, uint8_t *dst, size_t len, uint64_t off, const uint8_t *src,
                     bool *mapped) {
  *mapped = mmap(dst, len, PROT_READ, MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd, (off_t)off) !=
            MAP_FAILED;
  if (*mapped) return true;
  /* MAP_FIXED may have unmapped dst: private pages again, with the same bytes */
  if (mmap(dst, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
      MAP_FAILED)
    return false;
  memcpy(dst, src, len);
  return true;
}

/* once the kept pages are mapped at the model's addresses, the cache's own mapping
 * must not map them too. The 2 MiB folio that holds the last blocks before the kept-pages block
 * and its first pages was mapped whole (one PMD entry) by the cache's own mapping as soon as a
 * run read one of those blocks: RSS counted its kept part twice (ResNet-50 int16x8 warm: 1.6
 * MiB, over the floor). Advising the kept block's pages no huge pages splits the
 * mapping at them, so that folio can no longer be mapped whole there (its blocks' pages are
 * mapped in 4 KiB entries, a first-run fault per 64 KiB of them), and what the mapping holds of
 * the kept pages is dropped (they stay in the page cache). A cache in memory is the caller's. */
static void split_kept(tfcc_wcache *c) {
#ifdef MADV_NOHUGEPAGE
  if (c->in_mem || !c->map || !c->keep_bytes || c->keep_off >= c->map_size) return;
  const size_t a = (size_t)c->keep_off / PAGE * PAGE;
  size_t b = page_up((size_t)(c->keep_off + c->keep_bytes));
  b = b < c->map_size ? b : c->map_size;
  if (a >= b) return;
  (void)madvise((void *)(uintptr_t)(c->map + a), b - a, MADV_NOHUGEPAGE);
  (void)madvise((void *)(uintptr_t)(c->map + a), b - a, MADV_DONTNEED);
#else
  (void)c;
#endif
}

size_t tfcc_wcache_share_kept(tfcc_wcache *c, uint8_t *base, size_t base_bytes,
                              const tfcc_wc_skip *r, size_t n, bool *failed) {
  *failed = false;
  tfcc_wc_entry e;
  size_t nk = 0;
  if (!c || !c->map || c->fd < 0 || (uintptr_t)base % PAGE || sysconf(_SC_PAGESIZE) != (long)PAGE ||
      !find_kept(c, &e, &nk))
    return 0;
  const uint8_t *kr = c->map + e.offset + 8;
  const uint64_t data0 = e.offset + page_up(8 + nk * sizeof(tfcc_wc_skip));
  uint64_t data = data0;
  size_t shared = 0, j = 0;
  for (size_t k = 0; k < nk && !*failed; k++) {
    tfcc_wc_skip ck;
    memcpy(&ck, kr + k * sizeof ck, sizeof ck);
    const uint64_t ce = ck.offset + ck.bytes;
    while (j < n && r[j].offset + r[j].bytes <= ck.offset) j++;
    for (size_t i = j; i < n && r[i].offset < ce && !*failed; i++) {
      uint64_t a = r[i].offset > ck.offset ? r[i].offset : ck.offset;
      uint64_t b = r[i].offset + r[i].bytes < ce ? r[i].offset + r[i].bytes : ce;
      if (b > base_bytes) b = base_bytes / PAGE * PAGE;
      if (a >= b) continue;
      const uint64_t at = data + (a - ck.offset);
      const uint8_t *src = c->map + at;
      if (memcmp(base + a, src, (size_t)(b - a)) != 0) continue; /* another state: stays private */
      bool mapped;
      if (!map_over(c->fd, base + a, (size_t)(b - a), at, src, &mapped)) *failed = true;
      if (mapped) shared += (size_t)(b - a);
    }
    data += ck.bytes;
  }
  c->stats.kept_shared = shared;
  /* the compares read the kept pages through the cache's own mapping too: unmap them there
   * (they stay in the page cache), or RSS would count the shared ones twice; one call for the
   * whole block, not one per range */
  if (data > data0 && data <= c->map_size)
    (void)madvise((void *)(uintptr_t)(c->map + data0), (size_t)(data - data0), MADV_DONTNEED);
  if (shared) {
    c->keep_off = e.offset;
    c->keep_bytes = e.bytes;
    split_kept(c);
  }
  return shared;
}

void tfcc_wcache_kept_mapped(tfcc_wcache *c, size_t at_open, size_t shared) {
  if (!c || !c->map || !at_open) return;
  /* the entry only (inside the file: tfcc_wc_parse): its range list was checked when it was
   * read before the open (tfcc_wc_peek_file), and reading it again here through the cache's
   * own mapping would be a first touch of its page, for nothing but the prefault's bounds */
  tfcc_wc_entry e;
  uint32_t i = 0;
  for (; i < c->h.n_blocks; i++) {
    tfcc_wc_entry_at(c->map, i, &e);
    if (is_keep(e.node, e.block)) break;
  }
  if (i == c->h.n_blocks) return;
  c->stats.kept_shared = at_open + shared;
  c->stats.kept_at_open = at_open;
  c->keep_off = e.offset;
  c->keep_bytes = e.bytes;
  split_kept(c);
}

void tfcc_wcache_get_stats(const tfcc_wcache *c, tfcc_wcache_stats *s) {
  if (c)
    *s = c->stats;
  else
    memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- open */

static void close_fd(tfcc_wcache *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
}

static void unmap(tfcc_wcache *c) {
  close_fd(c);
  if (c->map && !c->in_mem) munmap((void *)(uintptr_t)c->map, c->map_size);
  c->map = NULL;
  c->map_size = 0;
  free(c->state);
  c->state = NULL;
}

static void check_map(tfcc_wcache *c, bool verify_full, int64_t mtime_ns);

/* Maps path and checks its header; on any refusal the cache stays unmapped and dirty. */
static void map_file(tfcc_wcache *c, bool verify_full) {
  int fd = open(c->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    c->dirty = true;
    if (errno != ENOENT) {
      char why[96];
      snprintf(why, sizeof why, "cannot open: %s", strerror(errno));
      refuse(c, why);
    } else {
      tfcc_log(c->log, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
               "weights cache %s: none yet, writing it after the load", c->path);
    }
    return;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    close(fd);
    refuse(c, "not a regular, non-empty file");
    return;
  }
  void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    close(fd);
    refuse(c, "cannot map it");
    return;
  }
#ifdef MADV_HUGEPAGE
  /* pages read back after the page cache dropped them (a reboot, memory pressure) come in
   * 2 MiB folios, as the writer's whole-span writes leave them (base/span_writer.h): one
   * page-table entry each at the first run's first touch */
  if (st.st_size >= (off_t)TFCC_SPAN_BYTES) (void)madvise(m, (size_t)st.st_size, MADV_HUGEPAGE);
#endif
  c->fd = fd;
  c->map = m;
  c->map_size = (size_t)st.st_size;
  const int64_t mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  check_map(c, verify_full, mtime_ns);
}

/* The cache in memory (tfcc_wc_mem): checked as a mapped file, with no stamp. */
static void map_mem(tfcc_wcache *c, bool verify_full) {
  if (!c->mem.data) {
    c->dirty = true;
    tfcc_log(c->log, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
             "weights cache %s: none yet, making it after the load", c->path);
    return;
  }
  if ((uintptr_t)c->mem.data % TFCC_WC_ALIGN) {
    refuse(c, "its bytes in memory are not 64-byte aligned");
    return;
  }
  c->map = c->mem.data;
  c->map_size = c->mem.size;
  check_map(c, verify_full, 0);
}

/* The header, the source and (verify_full) every block of the bytes at c->map; on any refusal
 * the cache is unmapped and dirty. mtime_ns: the file's mtime (0: none, blocks hashed). */
static void check_map(tfcc_wcache *c, bool verify_full, int64_t mtime_ns) {
  tfcc_err e = {0};
  tfcc_wc_expect want = {c->ident, (uint64_t)c->src_size};
  if (tfcc_wc_parse(c->map, c->map_size, &want, &c->h, &e) != TFCC_OK) {
    refuse(c, e.msg);
    unmap(c);
    return;
  }
  /* the source: the same settled file (identity and sample), else the same content */
  const bool trusted = !verify_full && c->in_mem && c->mem.trusted;
  const bool by_id = trusted || (!verify_full && id_set(&c->src_id) &&
                                 memcmp(&c->h.src_id, &c->src_id, sizeof c->src_id) == 0 &&
                                 c->h.src_sample == c->src_sample);
  if (by_id) {
    c->src_hash = c->h.src_hash; /* same bytes: for a rewritten file's header */
    c->have_hash = true;
    c->stats.src_by_id = true;
  } else {
    need_src(c);
    c->src_hash = tfcc_hash64(c->src, c->src_size);
    c->have_hash = true;
    if (c->src_hash != c->h.src_hash) {
      refuse(c, "made from other model bytes (stale)");
      unmap(c);
      return;
    }
  }
  c->state = calloc(c->h.n_blocks ? c->h.n_blocks : 1, 1);
  if (!c->state) {
    unmap(c);
    c->dirty = true;
    return;
  }
  /* no write since the writer stamped its mtime (a write stamps the time of day, later than
   * the stamp): the blocks are the ones it hashed */
  c->stamped = trusted || (!verify_full && c->h.stamp_ns != 0 && mtime_ns == c->h.stamp_ns);
  c->stats.blocks_by_stamp = c->stamped;
  if (!verify_full) return;
  need_src(c);
  uint8_t sha[32];
  tfcc_sha256_fast(c->src, c->src_size, sha);
  if (memcmp(sha, c->h.src_sha256, sizeof sha) != 0) {
    refuse(c, "made from other model bytes (SHA-256 differs)");
    unmap(c);
    return;
  }
  for (uint32_t i = 0; i < c->h.n_blocks; i++) {
    tfcc_wc_entry en;
    tfcc_wc_entry_at(c->map, i, &en);
    if (!block_good(c, i, &en)) {
      char why[96];
      snprintf(why, sizeof why, "node %d block %u: content hash differs (corrupt)", (int)en.node,
               (unsigned)en.block);
      refuse(c, why);
      unmap(c);
      return;
    }
  }
}

static tfcc_status open_impl(const char *path, const tfcc_wc_mem *mem, const char *ident,
                             const uint8_t *src, size_t size, const tfcc_wc_src_id *src_id,
                             const uint64_t *src_sample, bool verify_full, bool src_stays,
                             const tfcc_logger *log, void (*need_src_fn)(void *user), void *user,
                             tfcc_wcache **out, tfcc_err *err) {
  *out = NULL;
  tfcc_wcache *c = calloc(1, sizeof *c);
  if (c) c->path = strdup(path);
  if (!c || !c->path) {
    free(c);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory for the weights cache");
  }
  c->fd = -1;
  if (mem) {
    c->in_mem = true;
    c->mem = *mem;
  }
  c->store.get = store_get;
  c->store.put = store_put;
  c->log = log;
  c->need_src = need_src_fn;
  c->need_src_user = user;
  snprintf(c->ident, sizeof c->ident, "%s", ident);
  c->src = src;
  c->src_size = size;
  if (src_id) c->src_id = *src_id;
  c->src_sample = src_sample ? *src_sample : tfcc_wc_sample_hash(src, size);
  atomic_init(&c->sealed, false);
  atomic_init(&c->prefaulted, false);
  if (c->in_mem)
    map_mem(c, verify_full);
  else
    map_file(c, verify_full);
  /* a header that matched the source carries its hash and SHA-256; else compute them now,
   * while every source byte is still there */
  if (c->map) {
    memcpy(c->src_sha256, c->h.src_sha256, sizeof c->src_sha256);
  } else if (c->in_mem && c->mem.trusted && !verify_full) {
    /* none (zeros): a trusted cache in memory is taken without comparing the source's hashes,
     * unless verify_full, which then refuses it once and writes one with them (the encrypted
     * cache, bound to its model file; SHA-256 of a 100 MB model: about 0.35 s in portable C,
     * 0.07 s on SHA instructions) */
    c->have_hash = true;
  } else {
    need_src(c);
    if (!c->have_hash) c->src_hash = tfcc_hash64(src, size);
    c->have_hash = true;
    if (src_stays)
      c->sha_pending = true; /* only if a file is written, then */
    else
      tfcc_sha256_fast(src, size, c->src_sha256);
  }
  *out = c;
  return TFCC_OK;
}

tfcc_status tfcc_wcache_open(const char *path, const char *ident, const uint8_t *src, size_t size,
                             const tfcc_wc_src_id *src_id, const uint64_t *src_sample,
                             bool verify_full, bool src_stays, const tfcc_logger *log,
                             void (*need_src_fn)(void *user), void *user, tfcc_wcache **out,
                             tfcc_err *err) {
  return open_impl(path, NULL, ident, src, size, src_id, src_sample, verify_full, src_stays, log,
                   need_src_fn, user, out, err);
}

tfcc_status tfcc_wcache_open_mem(const char *name, const tfcc_wc_mem *mem, const char *ident,
                                 const uint8_t *src, size_t size, bool verify_full,
                                 const tfcc_logger *log, void (*need_src_fn)(void *user),
                                 void *user, tfcc_wcache **out, tfcc_err *err) {
  return open_impl(name && name[0] ? name : "(in memory)", mem, ident, src, size, NULL, NULL,
                   verify_full, false, log, need_src_fn, user, out, err);
}

/* ---------------------------------------------------------------- write */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Header + table for the recorded blocks (NULL: no memory). */
static uint8_t *build_table(const tfcc_wcache *c, int64_t stamp_ns, size_t *table_bytes,
                            uint64_t *file_bytes) {
  const size_t n = c->n_blocks, tb = sizeof(tfcc_wc_header) + n * sizeof(tfcc_wc_entry);
  uint8_t *t = calloc(1, tb);
  if (!t) return NULL;
  tfcc_wc_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, TFCC_WC_MAGIC, 8);
  h.version = TFCC_WC_VERSION;
  h.header_bytes = sizeof h;
  h.entry_bytes = sizeof(tfcc_wc_entry);
  snprintf(h.ident, sizeof h.ident, "%s", c->ident);
  h.src_size = c->src_size;
  h.src_hash = c->src_hash;
  memcpy(h.src_sha256, c->src_sha256, sizeof h.src_sha256);
  h.src_id = c->src_id;
  h.src_sample = c->src_sample;
  h.stamp_ns = stamp_ns;
  h.n_blocks = (uint32_t)n;
  uint64_t end = tb;
  for (size_t i = 0; i < n; i++) {
    const wc_block *b = &c->blocks[i];
    /* the kept pages are mapped page by page: page aligned in the file */
    const uint64_t a = is_keep(b->node, b->block) ? TFCC_WC_SKIP_PAGE : TFCC_WC_ALIGN;
    const uint64_t off = (end + a - 1) / a * a;
    tfcc_wc_entry e = {b->node, b->block, off, b->bytes, tfcc_hash64(b->data, b->bytes)};
    memcpy(t + sizeof h + i * sizeof e, &e, sizeof e);
    end = off + b->bytes;
  }
  h.file_bytes = end; /* the last block ends the file */
  memcpy(t, &h, sizeof h);
  h.table_hash = table_hash(t, &h);
  memcpy(t, &h, sizeof h);
  *table_bytes = tb;
  *file_bytes = h.file_bytes;
  return t;
}

/* Reads a byte of each page of [p, p + n) from user space (pg: the page size; 0: nothing). */
static void read_each_page(const uint8_t *p, size_t n, size_t pg) {
  uint8_t sum = 0;
  for (size_t i = 0; pg && i < n; i += pg) sum ^= ((const volatile uint8_t *)p)[i];
  (void)sum;
}

/* Reads a byte of each page of the file just written through a mapping, as a reader's first
 * run will. The first user-space access of a page-cache page the kernel has only written costs
 * once, in whichever process comes first (measured on the test VM, a PVM guest: ResNet-50 f32's
 * 100 MB, 4 KiB at a time, 40 ms CPU and 110-170 ms wall the first time, 3 ms from then on, in
 * a new process as much as in the same one; a read() of the file or a touch per 2 MiB did not
 * pay it). Paid here, by the writer, it is off the path of the first process that serves the
 * published cache (bench/README.md, "load12"). Nothing to report: a failed map skips it. */
static void touch_written(int fd, size_t n) {
#ifndef __EMSCRIPTEN__
  /* a 2 MiB span at a time: the file's pages count in this process's RSS only while mapped
   * (the whole file mapped at once: ResNet-50 f32's writing peak 117 -> 210 MB); a span's
   * mapping is 2 MiB aligned and maps the span's folio with one entry, as a reader's does (a
   * 256 KiB window, mapped in 4 KiB entries, left the cost to the reader) */
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  if (!pg || TFCC_SPAN_BYTES % pg) return;
  for (size_t at = 0; at < n; at += TFCC_SPAN_BYTES) {
    const size_t len = n - at < TFCC_SPAN_BYTES ? n - at : TFCC_SPAN_BYTES;
    void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)at);
    if (m == MAP_FAILED) return;
#ifdef MADV_HUGEPAGE
    (void)madvise(m, len, MADV_HUGEPAGE); /* as map_file maps it */
#endif
    read_each_page(m, len, pg);
    munmap(m, len);
  }
#else
  (void)fd, (void)n;
#endif
}

static bool write_file(tfcc_wcache *c, const char *tmp) {
  /* the stamp: the settled source's mtime (none without one). Any later write to the cache
   * file stamps the time of day, later than that by seconds, so another mtime; and the same
   * source writes the same bytes */
  const int64_t stamp_ns = id_set(&c->src_id) ? c->src_id.mtime_ns : 0;
  size_t tb;
  uint64_t total;
  uint8_t *t = build_table(c, stamp_ns, &tb, &total);
  if (!t) return false;
  /* read-write: touch_written maps it */
  int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    free(t);
    return false;
  }
  /* in whole 2 MiB spans: 2 MiB page-cache folios, which readers map with one entry each
   * (base/span_writer.h) */
  tfcc_span_writer sw;
  tfcc_span_writer_init(&sw, fd);
  tfcc_span_write(&sw, t, tb);
  uint64_t pos = tb;
  for (size_t i = 0; i < c->n_blocks; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(t, (uint32_t)i, &e);
    tfcc_span_write(&sw, NULL, (size_t)(e.offset - pos)); /* under one page */
    tfcc_span_write(&sw, c->blocks[i].data, c->blocks[i].bytes);
    pos = e.offset + e.bytes;
  }
  bool ok = tfcc_span_writer_finish(&sw);
  free(t);
  if (ok && stamp_ns) {
    const struct timespec ts[2] = {
        {0, UTIME_OMIT}, {(time_t)(stamp_ns / 1000000000), (long)(stamp_ns % 1000000000)}};
    if (futimens(fd, ts) != 0) ok = false;
  }
  ok = ok && pos == total && fsync(fd) == 0;
  if (ok) touch_written(fd, (size_t)total);
  ok = close(fd) == 0 && ok;
  return ok;
}

/* The recorded blocks as the pieces of a new cache's bytes, to the memory cache's sink. */
static bool write_sink(tfcc_wcache *c) {
  size_t tb;
  uint64_t total;
  uint8_t *t = build_table(c, 0, &tb, &total);
  tfcc_bytes *v = t ? malloc((2 * c->n_blocks + 1) * sizeof *v) : NULL;
  if (!v) {
    free(t);
    errno = ENOMEM;
    return false;
  }
  static const uint8_t zeros[TFCC_WC_SKIP_PAGE];
  size_t nv = 0;
  uint64_t pos = tb;
  v[nv++] = (tfcc_bytes){t, tb};
  for (size_t i = 0; i < c->n_blocks; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(t, (uint32_t)i, &e);
    if (e.offset > pos) v[nv++] = (tfcc_bytes){zeros, (size_t)(e.offset - pos)}; /* < a page */
    v[nv++] = (tfcc_bytes){c->blocks[i].data, c->blocks[i].bytes};
    pos = e.offset + e.bytes;
  }
  const tfcc_status st = pos == total ? c->mem.sink(c->mem.sink_user, v, nv) : TFCC_ERR_RUNTIME;
  free(v);
  free(t);
  if (st != TFCC_OK) {
    tfcc_log(c->log, TFCC_LOG_WARN, TFCC_TAG_MODEL_LOAD,
             "weights cache %s not written: its sink failed (status %d)", c->path, (int)st);
    return false;
  }
  return true;
}

bool tfcc_wcache_has_file(const tfcc_wcache *c) { return c && c->map && !c->in_mem; }

bool tfcc_wcache_will_write(const tfcc_wcache *c) {
  return c && c->dirty && !c->lost && c->n_blocks > 0 && (!c->in_mem || c->mem.sink);
}

/* Writes the recorded blocks to a new cache file (c is dirty, nothing lost). */
static void write_out(tfcc_wcache *c) {
  if (c->sha_pending) {
    tfcc_sha256_fast(c->src, c->src_size, c->src_sha256);
    c->sha_pending = false;
  }
  /* the tables first, each class in the order operators asked (a stable partition) */
  wc_block *order = malloc(c->n_blocks * sizeof *order + 1);
  if (order) {
    size_t k = 0;
    for (uint32_t pass = 1; pass < 3; pass++)
      for (size_t i = 0; i < c->n_blocks; i++)
        if (small_first(c->blocks[i].block) == 2 - pass) order[k++] = c->blocks[i];
    memcpy(c->blocks, order, c->n_blocks * sizeof *order);
    free(order);
  }
  if (c->n_skips)
    record(c, TFCC_WC_SKIPS_NODE, TFCC_WC_SKIPS_BLOCK, c->skips, c->n_skips * sizeof *c->skips);
  if (c->kept) record(c, TFCC_WC_SKIPS_NODE, TFCC_WC_KEEP_BLOCK, c->kept, c->kept_bytes);
  double t0 = now_ms();
  if (c->in_mem) {
    if (!write_sink(c)) return;
    c->stats.written = (uint32_t)c->n_blocks;
    tfcc_log(c->log, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
             "weights cache %s: handed %zu blocks over in %.1f ms", c->path, c->n_blocks,
             now_ms() - t0);
    return;
  }
  static atomic_uint seq;
  char tmp[4200];
  int w = snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", c->path, (long)getpid(),
                   atomic_fetch_add(&seq, 1u));
  if (w < 0 || (size_t)w >= sizeof tmp) return;
  if (!write_file(c, tmp) || rename(tmp, c->path) != 0) {
    int e = errno;
    unlink(tmp);
    tfcc_log(c->log, TFCC_LOG_WARN, TFCC_TAG_MODEL_LOAD, "weights cache %s not written: %s",
             c->path, strerror(e));
    return;
  }
  tfcc_sync_dir_of(c->path);
  c->stats.written = (uint32_t)c->n_blocks;
  tfcc_log(c->log, TFCC_LOG_INFO, TFCC_TAG_MODEL_LOAD,
           "weights cache %s: wrote %zu blocks in %.1f ms", c->path, c->n_blocks, now_ms() - t0);
}

/* A block taken from the mapped file, as the background touch reads it (node order). */
typedef struct touch_span {
  int32_t node;
  const uint8_t *p;
  size_t n;
} touch_span;

static int cmp_touch(const void *a, const void *b) {
  const touch_span *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return x->p < y->p ? -1 : x->p > y->p;
}

/* The background touch: a byte of each page of each span, in node order, until told to stop
 * (checked between spans and every 2 MiB). Only reads of the read-only mapping: nothing a run
 * writes, no lock. */
static void *touch_main(void *arg) {
  tfcc_wcache *c = arg;
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE), step = (size_t)2 << 20;
  for (size_t i = 0; i < c->n_touch; i++)
    for (size_t o = 0; o < c->touch[i].n; o += step) {
      if (atomic_load_explicit(&c->touch_stop, memory_order_relaxed)) return NULL;
      read_each_page(c->touch[i].p + o, c->touch[i].n - o < step ? c->touch[i].n - o : step, pg);
    }
  return NULL;
}

/* The blocks taken from the mapped file as spans from their first page, in node order (for
 * tfcc_wcache_touch_start; the block list goes at finish). No memory: none. */
static void build_touch(tfcc_wcache *c) {
  const uintptr_t lo = (uintptr_t)c->map, pg = (uintptr_t)sysconf(_SC_PAGESIZE);
  if (!c->map || c->in_mem || !c->n_blocks || !pg) return;
  touch_span *t = malloc(c->n_blocks * sizeof *t);
  if (!t) return;
  size_t n = 0;
  for (size_t i = 0; i < c->n_blocks; i++) {
    const uintptr_t a = (uintptr_t)c->blocks[i].data;
    if (!a || a < lo || a - lo >= c->map_size || !c->blocks[i].bytes) continue; /* not a hit */
    const uintptr_t a0 = a & ~(pg - 1);
    t[n++] = (touch_span){c->blocks[i].node, (const uint8_t *)a0, a + c->blocks[i].bytes - a0};
  }
  qsort(t, n, sizeof *t, cmp_touch);
  c->touch = t;
  c->n_touch = n;
}

void tfcc_wcache_finish(tfcc_wcache *c) {
  if (!c) return;
  atomic_store_explicit(&c->sealed, true, memory_order_release);
  close_fd(c);
  if (tfcc_wcache_will_write(c)) write_out(c);
  build_touch(c);
  /* written or never to be: the list of blocks and the copies made for the file (the kept
   * pages: ResNet-50 int8 0.95 MiB of heap, held for the model's life before) go now */
  free(c->blocks);
  free(c->skips);
  free(c->kept);
  c->blocks = NULL, c->skips = NULL, c->kept = NULL;
  c->n_blocks = c->cap_blocks = c->n_skips = c->kept_bytes = 0;
  c->dirty = false;
}

void tfcc_wcache_prefault(tfcc_wcache *c) {
  /* a cache in memory: the caller's memory, resident (decrypted) */
  if (!c || !c->map || c->in_mem || atomic_exchange(&c->prefaulted, true)) return;
  /* not the kept pages when the model maps them itself (tfcc_wcache_share_kept): they are
   * resident there already, and mapped here too they would count twice in RSS */
  const size_t a = c->keep_bytes ? (size_t)c->keep_off : c->map_size;
  const size_t b = c->keep_bytes ? (size_t)(c->keep_off + c->keep_bytes) : c->map_size;
  /* a read of each page from user space, no MADV_POPULATE_READ first: the reads map the
   * file's pages 64 KiB at a time (the kernel's fault-around), the populate one page at a time.
   * On the test VM, 14 MB of a page-cached file: reads alone 0.23-0.32 ms CPU, the populate
   * 0.65-0.72 and nothing left for the reads after it; MobileNetV2 f32's warm load 0.81-0.93
   * of main's CPU without it (docs/bench.md, "mem61"). The reads are what a VM with shadowed
   * page tables needs anyway: there the first user access of each page left the guest after
   * the kernel had mapped it (the first run of MobileNetV2 f32 on a warm cache took 3.5x a
   * later one with the populate alone, cache59) */
  const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  read_each_page(c->map, a, pg);
  if (pg && b < c->map_size) { /* the pages from the first page boundary at or after b */
    const size_t pb = (b + pg - 1) / pg * pg;
    if (pb < c->map_size) read_each_page(c->map + pb, c->map_size - pb, pg);
  }
}

bool tfcc_wcache_touch_start(tfcc_wcache *c) {
  if (!c || !c->n_touch || atomic_load(&c->prefaulted) || atomic_exchange(&c->touch_started, true))
    return false;
  atomic_store(&c->touch_stop, false);
  c->touch_pid = getpid();
  /* no signal is delivered to it (the process's handlers run on its own threads) */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  const bool on = pthread_create(&c->touch_thread, NULL, touch_main, c) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  atomic_store(&c->touch_on, on);
  return on;
}

void tfcc_wcache_touch_stop(tfcc_wcache *c) {
  if (!c || !atomic_exchange(&c->touch_on, false) || c->touch_pid != getpid()) return;
  atomic_store(&c->touch_stop, true);
  pthread_join(c->touch_thread, NULL);
}

void tfcc_wcache_free(tfcc_wcache *c) {
  if (!c) return;
  tfcc_wcache_touch_stop(c); /* before the mapping it reads goes */
  free(c->touch);
  unmap(c);
  free(c->blocks);
  free(c->skips);
  free(c->kept);
  free(c->path);
  free(c);
}
