/* Packed-weights cache file (runtime/weights_cache.h): a load through the cache gives the same
 * output bits as a load without one, at every ISA cap the CPU has; a cache made at another cap,
 * from other model bytes, truncated at any length, with a flipped byte or another layout
 * version is refused (one log line), rebuilt, and the output is still right; processes racing
 * to write one cache leave a valid file. Models from ../shared (skipped when absent). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/hash64.h"
#include "lifecycle_util.h"
#include "runtime/internal.h"
#include "runtime/model_file.h"
#include "runtime/weights_cache.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static char g_dir[256];
static int g_refusals;    /* WARN lines about the cache */
static int g_verify;      /* run_once: model options.weights_cache_verify */
static int g_require_wm;  /* run_once: model options.require_watermark */
static size_t g_unread;   /* run_once: bytes of the model file the load never read */
static size_t g_released; /* run_once: bytes of consumed constants the load released */

static char g_last_refusal[1024]; /* the last of them */

static void log_fn(void *user, tfcc_log_level level, const char *tag, const char *msg) {
  (void)user;
  (void)tag;
  if (level <= TFCC_LOG_WARN && strstr(msg, "weights cache")) {
    g_refusals++;
    snprintf(g_last_refusal, sizeof g_last_refusal, "%s", msg);
  }
}

static uint8_t *read_file(const char *path, size_t *n) {
  *n = 0;
  return tfcc_test_read_file(path, n);
}

/* Bytes of the skip list of the cache file at path (for a source of src_size bytes) in the
 * source's sampled first and last 64 KiB; 0 when none or the file does not parse. */
static size_t skipped_in_ends(const char *path, size_t src_size) {
  size_t n = 0, in_ends = 0;
  uint8_t *p = read_file(path, &n);
  tfcc_wc_header h;
  tfcc_err err = {0};
  const size_t edge = TFCC_WC_SAMPLE_EDGE;
  if (p && src_size > 2 * edge && tfcc_wc_parse(p, n, NULL, &h, &err) == TFCC_OK)
    for (uint32_t i = 0; i < h.n_blocks; i++) {
      tfcc_wc_entry e;
      tfcc_wc_entry_at(p, i, &e);
      if (e.node != TFCC_WC_SKIPS_NODE || e.block != TFCC_WC_SKIPS_BLOCK) continue;
      for (uint64_t k = 0; k + sizeof(tfcc_wc_skip) <= e.bytes; k += sizeof(tfcc_wc_skip)) {
        tfcc_wc_skip r;
        memcpy(&r, p + e.offset + k, sizeof r);
        const uint64_t a = r.offset, b = r.offset + r.bytes;
        if (a < edge) in_ends += (size_t)((b < edge ? b : edge) - a);
        if (b > src_size - edge)
          in_ends += (size_t)(b - (a > src_size - edge ? a : src_size - edge));
      }
    }
  free(p);
  return in_ends;
}

/* Loads model (with the cache at cache, or none), runs it once on a fixed input, copies the
 * output into out (cap bytes; *out_bytes set) and the cache's counts into *st. */
static bool run_once(tfcc_runtime *rt, const char *model, const char *cache, void *out, size_t cap,
                     size_t *out_bytes, tfcc_wcache_stats *st) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = cache;
  mo.weights_cache_verify = g_verify;
  mo.require_watermark = g_require_wm;
  tfcc_model *m = NULL;
  if (tfcc_model_load_file(rt, model, &mo, &m) != TFCC_OK) {
    fprintf(stderr, "load %s: %s\n", model, tfcc_last_error());
    return false;
  }
  tfcc_wcache_get_stats(m->wcache, st);
  g_unread = m->file_unread;
  g_released = m->crel_on ? m->crel.released_bytes : 0;
  const bool ok = lc_run_outputs(m, (uint8_t *)out, cap, out_bytes, model);
  tfcc_model_release(m);
  return ok;
}

#define OUT_CAP (1u << 20)

typedef struct model_case {
  const char *file; /* in ../shared/models, or in dir */
  const char *dir;  /* NULL, or a folder of the source tree holding file */
  char path[4096];
  uint8_t *ref; /* output without a cache (at the cap being tested) */
  size_t ref_bytes;
  /* a block id the file must hold (0: none): 8-bit DEPTHWISE_CONV_2D nodes' packing (block 8),
   * float TRANSPOSE_CONV's (block 9) */
  uint32_t block;
  /* at least these bytes of consumed constants are released by a load without a cache (the
   * filters a block replaces: read no more), and with their pages inaccessible
   * (TFCC_DEBUG_RELEASE_TRAP) the output is the same, cold and warm */
  size_t released;
  bool light; /* the caps and the release trap only (no damaged files, races) */
  /* consumed constants lie in the sampled first or last 64 KiB: the skip list written from the
   * settled file reaches into them, and a warm load leaves them unread (layout version 4) */
  bool skips_in_ends;
  /* at least these bytes of the model mapped at open by a warm load: its per-channel
   * quantization vectors, which the load gives back after reading them, are in the kept pages
   * of the file the cold load wrote (saved before they were given back) */
  size_t kept_at_open;
} model_case;

/* Loads through cache with its bytes replaced by bad[0..n): the output must equal the
 * reference; rejected says whether the file must have been refused. */
static void check_bad(tfcc_runtime *rt, model_case *mc, const char *cache, const uint8_t *bad,
                      size_t n, int expect_refused, const char *what, size_t at) {
  CHECK(lc_write_file(cache, bad, n));
  static uint8_t out[OUT_CAP];
  size_t ob = 0;
  tfcc_wcache_stats st;
  int before = g_refusals;
  bool ok = run_once(rt, mc->path, cache, out, sizeof out, &ob, &st);
  CHECKF(ok && ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
         "%s: %s at %zu: output differs", mc->file, what, at);
  /* written by someone else: its mtime is not the writer's stamp, every block is hashed */
  CHECKF(!st.blocks_by_stamp, "%s: %s at %zu: taken by stamp", mc->file, what, at);
  if (expect_refused == 1)
    CHECKF(st.rejected && g_refusals - before == 1 && st.written > 0,
           "%s: %s at %zu: not refused once and rebuilt", mc->file, what, at);
  if (expect_refused == 0)
    CHECKF(!st.rejected && st.misses == 0, "%s: %s at %zu: refused", mc->file, what, at);
}

/* The bytes of the kept-pages block's ranges in the cache file good[0..n) (0: none). */
static size_t kept_block_bytes(const uint8_t *good, size_t n) {
  tfcc_wc_header h;
  memcpy(&h, good, sizeof h);
  for (uint32_t i = 0; i < h.n_blocks && sizeof h + (i + 1) * sizeof(tfcc_wc_entry) <= n; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(good, i, &e);
    if (e.node != TFCC_WC_SKIPS_NODE || e.block != TFCC_WC_KEEP_BLOCK) continue;
    if (e.offset > n || e.bytes > n - e.offset || e.bytes < 8) return 0;
    uint64_t count = 0;
    memcpy(&count, good + e.offset, 8);
    if (count > (e.bytes - 8) / sizeof(tfcc_wc_skip)) return 0;
    size_t total = 0;
    for (uint64_t k = 0; k < count; k++) {
      tfcc_wc_skip r;
      memcpy(&r, good + e.offset + 8 + k * sizeof r, sizeof r);
      total += (size_t)r.bytes;
    }
    return total;
  }
  return 0;
}

/* Every range of the kept-pages block of a cache file as the load wrote it (good[0..n)) holds
 * the model file's bytes at its offset (the runs of quantization vectors the load gave back
 * included: given back only after the copy), and the ranges lie inside the file's pages. */
static void check_kept_bytes(const model_case *mc, const char *isa, const uint8_t *good, size_t n) {
  size_t mn = 0;
  uint8_t *model = read_file(mc->path, &mn);
  CHECK(model != NULL);
  tfcc_wc_header h;
  memcpy(&h, good, sizeof h);
  for (uint32_t i = 0; model && i < h.n_blocks && sizeof h + (i + 1) * sizeof(tfcc_wc_entry) <= n;
       i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(good, i, &e);
    if (e.node != TFCC_WC_SKIPS_NODE || e.block != TFCC_WC_KEEP_BLOCK) continue;
    CHECK(e.offset <= n && e.bytes <= n - e.offset && e.bytes >= 8);
    if (e.offset > n || e.bytes > n - e.offset || e.bytes < 8) break;
    const uint8_t *b = good + e.offset;
    uint64_t count = 0;
    memcpy(&count, b, 8);
    CHECK(count > 0 && count <= (e.bytes - 8) / sizeof(tfcc_wc_skip));
    if (!count || count > (e.bytes - 8) / sizeof(tfcc_wc_skip)) break;
    size_t at = (8 + (size_t)count * sizeof(tfcc_wc_skip) + 4095) / 4096 * 4096;
    for (uint64_t k = 0; k < count; k++) {
      tfcc_wc_skip r;
      memcpy(&r, b + 8 + k * sizeof r, sizeof r);
      const bool inside = r.offset < mn && r.bytes <= e.bytes - at;
      CHECKF(inside, "%s at %s: kept range %llu outside the block or the file", mc->file, isa,
             (unsigned long long)k);
      if (!inside) break;
      const size_t cmp = r.offset + r.bytes <= mn ? (size_t)r.bytes : mn - (size_t)r.offset;
      CHECKF(memcmp(b + at, model + r.offset, cmp) == 0,
             "%s at %s: kept range %llu (offset %llu, %llu bytes) differs from the model file",
             mc->file, isa, (unsigned long long)k, (unsigned long long)r.offset,
             (unsigned long long)r.bytes);
      at += (size_t)r.bytes;
    }
  }
  free(model);
}

/* The kept-pages block (weights_cache.h): a flipped byte in its pages keeps that range private
 * (compared before mapping), a damaged range list maps nothing; the output is right either
 * way and the other blocks are taken. shared: kept_shared of the intact file's warm load. */
static void check_kept(tfcc_runtime *rt, model_case *mc, const char *cache, const uint8_t *good,
                       size_t n, size_t shared) {
  tfcc_wc_header h;
  memcpy(&h, good, sizeof h);
  tfcc_wc_entry e = {0};
  bool found = false;
  for (uint32_t i = 0; i < h.n_blocks && !found; i++) {
    tfcc_wc_entry_at(good, i, &e);
    found = e.node == TFCC_WC_SKIPS_NODE && e.block == TFCC_WC_KEEP_BLOCK;
  }
  CHECKF(found && e.offset % 4096 == 0, "%s: no page-aligned kept-pages block", mc->file);
  uint64_t count = 0;
  if (found) memcpy(&count, good + e.offset, 8);
  const size_t data = (8 + (size_t)count * sizeof(tfcc_wc_skip) + 4095) / 4096 * 4096;
  CHECK(found && count > 0 && data < e.bytes);
  if (!found || !count || data >= e.bytes) return;
  uint8_t *bad = malloc(n);
  CHECK(bad != NULL);
  if (!bad) return;
  static uint8_t out[OUT_CAP];
  size_t ob = 0;
  tfcc_wcache_stats st;
  /* a flipped byte in the first range's pages */
  memcpy(bad, good, n);
  bad[e.offset + data + 5] ^= 0x40;
  CHECK(lc_write_file(cache, bad, n));
  CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
  CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
         "%s: output with a damaged kept page differs", mc->file);
  CHECKF(st.misses == 0 && st.kept_shared < shared,
         "%s: damaged kept page: %u misses, %zu of %zu bytes shared", mc->file, st.misses,
         st.kept_shared, shared);
  /* the writer's stamp put back (the file's mtime set to the header's stamp, as if never
   * written since): its kept pages are mapped when the model file is opened, unread and
   * uncompared in the middle, and compared with the model file in the sampled first and last
   * 64 KiB (the sample hash is the model file's own). The intact file: mapped at open. The
   * first range's pages flipped (the FlatBuffer's root, at offset 0, in the sampled head): the
   * compare finds it, nothing is left mapped at open, the output is right, every block is
   * taken (by the stamp) and the other kept ranges (if any: hand_landmark_lite keeps all of
   * its file in one range) are shared after the compare as above. */
  tfcc_wc_skip r0;
  memcpy(&r0, good + e.offset + 8, sizeof r0);
  struct stat ms;
  if (r0.offset == 0 && stat(mc->path, &ms) == 0 && ms.st_size > 4 * 65536 && h.stamp_ns > 0) {
    const struct timespec ts[2] = {
        {0, UTIME_OMIT}, {(time_t)(h.stamp_ns / 1000000000), (long)(h.stamp_ns % 1000000000)}};
    for (int flip = 0; flip < 2; flip++) {
      memcpy(bad, good, n);
      if (flip) bad[e.offset + data + 5] ^= 0x40;
      CHECK(lc_write_file(cache, bad, n) && utimensat(AT_FDCWD, cache, ts, 0) == 0);
      CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
      CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
             "%s: output with the stamp put back%s differs", mc->file,
             flip ? " and a damaged kept page in the sampled head" : "");
      CHECKF(st.misses == 0 && !st.rejected && st.blocks_by_stamp &&
                 (flip ? st.kept_at_open == 0 && st.kept_shared < shared
                       : st.kept_at_open > 0 && st.kept_shared == shared),
             "%s: stamp put back%s: %u misses, %zu bytes mapped at open, %zu of %zu shared",
             mc->file, flip ? ", damaged kept page in the sampled head" : "", st.misses,
             st.kept_at_open, st.kept_shared, shared);
    }
  }
  /* a damaged range list (a misaligned offset): nothing is mapped from the block */
  memcpy(bad, good, n);
  const uint64_t huge = UINT64_MAX / 2;
  memcpy(bad + e.offset + 8, &huge, 8);
  CHECK(lc_write_file(cache, bad, n));
  CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
  CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
         "%s: output with a damaged kept-page list differs", mc->file);
  CHECKF(st.misses == 0 && st.kept_shared == 0, "%s: damaged kept-page list: %zu bytes shared",
         mc->file, st.kept_shared);
  free(bad);
}

/* Writes header h over file's and makes the table's hash again as the writer makes it
 * (weights_cache.c, table_hash): the file then fails no check but those h's fields fail. */
static void set_table_hash(uint8_t *file, tfcc_wc_header *h) {
  tfcc_wc_header z = *h;
  z.table_hash = 0;
  const uint64_t a = tfcc_hash64(&z, sizeof z);
  const uint64_t b = tfcc_hash64(file + sizeof *h, (size_t)h->n_blocks * sizeof(tfcc_wc_entry));
  h->table_hash = a ^ (b * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
  memcpy(file, h, sizeof *h);
}

/* A cache of a build that did not have block `block`: a copy of good[0..n) whose entries of that
 * block are under the retired id 5 instead (the q8 depthwise packing's before block 8), the
 * table's hash made again as the writer makes it (weights_cache.c, table_hash). The load takes
 * every other block, packs the missing ones and rewrites the file once; the output is the
 * reference's. */
static void check_old_file(tfcc_runtime *rt, model_case *mc, const char *cache, const uint8_t *good,
                           size_t n) {
  uint8_t *old = malloc(n);
  CHECK(old != NULL);
  if (!old) return;
  memcpy(old, good, n);
  tfcc_wc_header h;
  memcpy(&h, old, sizeof h);
  uint32_t moved = 0;
  for (uint32_t i = 0; i < h.n_blocks; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(old, i, &e);
    if (e.block != mc->block) continue;
    e.block = 5;
    memcpy(old + sizeof h + (size_t)i * sizeof e, &e, sizeof e);
    moved++;
  }
  set_table_hash(old, &h);
  CHECK(moved > 0 && lc_write_file(cache, old, n));
  static uint8_t out[OUT_CAP];
  size_t ob = 0;
  tfcc_wcache_stats st;
  int before = g_refusals;
  CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
  CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
         "%s: output with an old cache differs", mc->file);
  CHECKF(!st.rejected && g_refusals == before && st.misses == moved && st.written > 0,
         "%s: old cache (block %u absent): %u hits %u misses (%u absent) %u written%s", mc->file,
         (unsigned)mc->block, st.hits, st.misses, moved, st.written,
         st.rejected ? ", refused" : "");
  CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
  CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0 && st.hits > 0 && st.misses == 0 &&
             st.written == 0 && !st.rejected,
         "%s: the rewritten old cache: %u hits %u misses %u written", mc->file, st.hits, st.misses,
         st.written);
  free(old);
}

/* How test_model damages a cache file (robust): which lengths it truncates the file to and
 * which bytes it flips. Past the table: a sample of lengths and positions (sample of them).
 * dense (step 1): every header length and byte, every 4th length and 8th byte of the table:
 * the reader's checks do not depend on the model, so this runs on the small model (its loads
 * are cheap). Otherwise with step > 1 the same at every step-th; with words, at the field
 * boundaries of a larger model: each 8-byte word of the header cut at its start and at a
 * rotating offset inside it, a byte of each 4-byte word flipped (rotating its position in the
 * word), a length and a flipped byte in each table entry (rotating through the entry's 32
 * bytes), every 4th length of the last entry and just past the table. */
typedef struct damage {
  size_t sample, step;
  bool words;
} damage;

/* The next length (truncation) or position (flip) after at in the file good[0..n) (header h,
 * table ending at table_end) damaged as d says; n when done. */
static size_t next_damage(const damage *d, bool flip, size_t at, size_t n, size_t table_end) {
  const size_t hb = sizeof(tfcc_wc_header), eb = sizeof(tfcc_wc_entry);
  if (d->words && at < hb) {
    if (flip) return at + 4 - at % 4 + (at / 4 + 1) % 4; /* a byte of the next word */
    return at % 8 == 0 ? at + 1 + (at / 8) % 7 : at - at % 8 + 8;
  }
  if (d->words && at < table_end + (flip ? 0 : 64)) {
    const size_t j = (at - hb) / eb, nb = (table_end - hb) / eb; /* at is in entry j */
    if (j + 2 < nb) return hb + (j + 1) * eb + ((j + 1) * (flip ? 9 : 5)) % eb;
    if (j + 2 == nb) return table_end - eb;
    if (flip) return at + 8 < table_end ? at + 8 : at + n / d->sample + 1; /* the last entry */
    return at + 4; /* the last entry, just past the table */
  }
  if (flip)
    return at < hb ? at + d->step : at < table_end ? at + 8 * d->step : at + n / d->sample + 1;
  return at <= hb ? at + d->step : at < table_end + 64 ? at + 4 * d->step : at + n / d->sample + 1;
}

/* Cold and warm loads at cap isa (NULL: the CPU's best) give the reference bits; robust (d not
 * NULL): also the damaged files. */
static void test_model(model_case *mc, const char *isa, const damage *d) {
  tfcc_runtime *rt = lc_runtime(isa, log_fn);
  if (!rt) return; /* cap above the CPU: nothing to test at it */
  static uint8_t out[OUT_CAP];
  char cache[600];
  if (!isa) isa = "best";
  snprintf(cache, sizeof cache, "%s/%s.%s.wc", g_dir, mc->file, isa);
  unlink(cache);
  size_t ob = 0;
  tfcc_wcache_stats st;
  free(mc->ref);
  mc->ref = malloc(OUT_CAP);
  CHECK(mc->ref && run_once(rt, mc->path, NULL, mc->ref, OUT_CAP, &mc->ref_bytes, &st));
  /* cold: packs and writes */
  int before = g_refusals;
  CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
  CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
         "%s at %s: cold cache output differs", mc->file, isa);
  CHECKF(st.hits == 0 && st.written > 0 && !st.rejected, "%s at %s: cold: %u hits %u written",
         mc->file, isa, st.hits, st.written);
  CHECK(g_refusals == before);
  /* warm: every block from the file, nothing written, same bits */
  CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
  CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
         "%s at %s: warm cache output differs", mc->file, isa);
  CHECKF(st.hits > 0 && st.misses == 0 && st.written == 0 && !st.rejected,
         "%s at %s: warm: %u hits %u misses", mc->file, isa, st.hits, st.misses);
  CHECKF(st.blocks_by_stamp, "%s at %s: warm: the writer's mtime stamp not recognised", mc->file,
         isa);
  /* the pages the model keeps (tables, biases, filters read raw) are the cache file's */
  CHECKF(st.kept_shared > 0, "%s at %s: warm: no kept page mapped from the cache", mc->file, isa);
  /* mapped when the model file was opened: in the middle neither read nor compared, in the
   * sampled 64 KiB at either end compared with the model file (not mapped over its pages at the
   * end of the load) */
  struct stat ms;
  const bool mapped_at_open = stat(mc->path, &ms) == 0 && ms.st_size > 4 * 65536;
  if (mapped_at_open)
    CHECKF(st.kept_at_open > 0 && st.kept_at_open == st.kept_shared,
           "%s at %s: warm: %zu of %zu kept bytes mapped at open", mc->file, isa, st.kept_at_open,
           st.kept_shared);
  CHECKF(st.kept_at_open >= mc->kept_at_open,
         "%s at %s: warm: %zu bytes mapped at open, expected at least %zu (the quantization "
         "vectors)",
         mc->file, isa, st.kept_at_open, mc->kept_at_open);
  size_t n = 0;
  uint8_t *good = read_file(cache, &n);
  CHECK(good && n > sizeof(tfcc_wc_header));
  if (good && n > sizeof(tfcc_wc_header)) check_kept_bytes(mc, isa, good, n);
  if (good && n > sizeof(tfcc_wc_header) && mapped_at_open) {
    /* every kept range, the sampled ends' included */
    const size_t all = kept_block_bytes(good, n);
    CHECKF(st.kept_at_open == all, "%s at %s: warm: %zu bytes mapped at open, the file keeps %zu",
           mc->file, isa, st.kept_at_open, all);
  }
  if (mc->block && good && n > sizeof(tfcc_wc_header)) {
    /* the q8 depthwise / float TRANSPOSE_CONV blocks were written, and the warm load above
     * took them unpacked (no miss) */
    tfcc_wc_header hh;
    memcpy(&hh, good, sizeof hh);
    uint32_t dw = 0;
    for (uint32_t i = 0; i < hh.n_blocks && sizeof hh + (i + 1) * sizeof(tfcc_wc_entry) <= n; i++) {
      tfcc_wc_entry e;
      tfcc_wc_entry_at(good, i, &e);
      dw += e.block == mc->block;
    }
    CHECKF(dw > 0, "%s at %s: no block %u in the cache", mc->file, isa, (unsigned)mc->block);
  }
  if (mc->released) {
    /* the constants the blocks replace are released and never read: with their pages
     * inaccessible, the same output without a cache, cold and warm */
    setenv("TFCC_DEBUG_RELEASE_TRAP", "1", 1);
    CHECK(run_once(rt, mc->path, NULL, out, sizeof out, &ob, &st));
    CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0 && g_released >= mc->released,
           "%s at %s: released pages trapped, no cache: %zu bytes released, output %s", mc->file,
           isa, g_released, memcmp(out, mc->ref, ob) ? "differs" : "same");
    unlink(cache);
    CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st) && st.written > 0);
    CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st) && st.misses == 0);
    CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0 && g_released >= mc->released,
           "%s at %s: released pages trapped, warm cache: %zu bytes released", mc->file, isa,
           g_released);
    unsetenv("TFCC_DEBUG_RELEASE_TRAP");
  }
  if (!d || !good || n <= sizeof(tfcc_wc_header)) {
    free(good);
    tfcc_runtime_destroy(rt);
    return;
  }
  check_kept(rt, mc, cache, good, n, st.kept_shared);
  if (mc->block) check_old_file(rt, mc, cache, good, n);
  uint8_t *bad = malloc(n);
  /* truncated (next_damage: through the header and the table, then a sample) */
  tfcc_wc_header h;
  memcpy(&h, good, sizeof h);
  const size_t table_end = sizeof h + (size_t)h.n_blocks * sizeof(tfcc_wc_entry);
  for (size_t len = 0; len < n; len = next_damage(d, false, len, n, table_end))
    check_bad(rt, mc, cache, good, len, 1, "truncated", len);
  check_bad(rt, mc, cache, good, n - 1, 1, "truncated", n - 1);
  /* a flipped byte: in the header and the table, a sample of block bytes (a flip in padding
   * between blocks changes nothing: only the output is checked there) */
  for (size_t at = 0; at < n; at = next_damage(d, true, at, n, table_end)) {
    memcpy(bad, good, n);
    bad[at] ^= 0x20;
    int expect = at < table_end ? 1 : -1;
    check_bad(rt, mc, cache, bad, n, expect, "flipped byte", at);
  }
  /* another layout version */
  memcpy(bad, good, n);
  tfcc_wc_header hv = h;
  hv.version++;
  memcpy(bad, &hv, sizeof hv);
  check_bad(rt, mc, cache, bad, n, 1, "version", 0);
  /* the good file again: taken */
  check_bad(rt, mc, cache, good, n, 0, "intact", 0);
  free(bad);
  free(good);
  tfcc_runtime_destroy(rt);
}

/* A cache made at one cap is refused at another and rebuilt; outputs are right at both. */
static void test_foreign(model_case *mc, const char *isa_a, const char *isa_b) {
  tfcc_runtime *ra = lc_runtime(isa_a, log_fn), *rb = lc_runtime(isa_b, log_fn);
  if (ra && rb) {
    char cache[600];
    snprintf(cache, sizeof cache, "%s/%s.foreign.wc", g_dir, mc->file);
    unlink(cache);
    static uint8_t out[OUT_CAP], want[OUT_CAP];
    size_t ob = 0, wb = 0;
    tfcc_wcache_stats st;
    CHECK(run_once(rb, mc->path, NULL, want, sizeof want, &wb, &st));
    CHECK(run_once(ra, mc->path, cache, out, sizeof out, &ob, &st) && st.written > 0);
    int before = g_refusals;
    CHECK(run_once(rb, mc->path, cache, out, sizeof out, &ob, &st));
    CHECKF(st.rejected && st.hits == 0 && st.written > 0 && g_refusals - before == 1,
           "%s: cache of %s not refused at %s", mc->file, isa_a, isa_b);
    CHECKF(ob == wb && memcmp(out, want, ob) == 0, "%s: output at %s after a %s cache differs",
           mc->file, isa_b, isa_a);
    CHECK(run_once(rb, mc->path, cache, out, sizeof out, &ob, &st) && st.hits > 0 &&
          st.misses == 0);
  }
  tfcc_runtime_destroy(ra);
  tfcc_runtime_destroy(rb);
}

/* The identity names the kernels the blocks are packed for (runtime/wcache_kernels.h): a cache
 * made for another q8 GEMM kernel at the same level (another CPU feature, or a build before the
 * kernel's layout changed: stop 62's q8-gemm-4x8-avx2) is foreign, and a file of the layout
 * before the names (a 256-byte header: stop 62's) is refused too; each once, then rewritten
 * and taken, the output the reference's. */
static void test_kernel_names(model_case *mc) {
  tfcc_runtime *rt = lc_runtime(NULL, log_fn);
  char cache[600];
  snprintf(cache, sizeof cache, "%s/%s.kernels.wc", g_dir, mc->file);
  unlink(cache);
  static uint8_t out[OUT_CAP];
  size_t ob = 0, n = 0;
  tfcc_wcache_stats st;
  CHECK(rt && run_once(rt, mc->path, cache, out, sizeof out, &ob, &st) && st.written > 0);
  uint8_t *good = rt ? read_file(cache, &n) : NULL;
  uint8_t *bad = good ? malloc(n) : NULL;
  CHECK(bad && n > sizeof(tfcc_wc_header));
  if (bad && n > sizeof(tfcc_wc_header)) {
    tfcc_wc_header h;
    memcpy(&h, good, sizeof h);
    const char *q8 = strstr(h.ident, " q8-gemm-"), *dw = strstr(h.ident, " q8-dwconv-");
    CHECKF(q8 && dw && strstr(h.ident, " f32-gemm-") && strstr(h.ident, " q16-gemm-"),
           "%s: the identity '%s' does not name the kernels", mc->file, h.ident);
    if (q8) {
      /* the q8 GEMM named another kernel, the rest as written */
      const char *end = strchr(q8 + 1, ' ');
      tfcc_wc_header o = h;
      snprintf(o.ident, sizeof o.ident, "%.*s q8-gemm-4x8-avx2%s", (int)(q8 - h.ident), h.ident,
               end ? end : "");
      memcpy(bad, good, n);
      set_table_hash(bad, &o);
      check_bad(rt, mc, cache, bad, n, 1, "another q8 GEMM kernel", 0);
      CHECKF(strstr(g_last_refusal, "made for") && strstr(g_last_refusal, "q8-gemm-4x8-avx2"),
             "%s: another q8 GEMM kernel: refused as '%s'", mc->file, g_last_refusal);
    }
    /* the header of the layout before the kernel names */
    tfcc_wc_header o = h;
    o.header_bytes = 256;
    memcpy(bad, good, n);
    set_table_hash(bad, &o);
    check_bad(rt, mc, cache, bad, n, 1, "a 256-byte header", 0);
    check_bad(rt, mc, cache, good, n, 0, "intact", 0);
  }
  free(bad);
  free(good);
  tfcc_runtime_destroy(rt);
}

/* A copy of the model whose largest constant differs (a few of its bytes changed). */
static uint8_t *stale_variant(const uint8_t *model, size_t size) {
  tfcc_graph g;
  memset(&g, 0, sizeof g);
  tfcc_err err = {0};
  if (tfcc_tflite_read(model, size, &g, &err) != TFCC_OK) return NULL;
  const tfcc_ir_subgraph *sg = &g.subgraphs[0];
  const tfcc_ir_tensor *big = NULL;
  for (int32_t i = 0; i < sg->n_tensors; i++) {
    const tfcc_ir_tensor *t = &sg->tensors[i];
    const uint8_t *d = t->data;
    if (d && d >= model && d + t->data_bytes <= model + size &&
        (!big || t->data_bytes > big->data_bytes))
      big = t;
  }
  uint8_t *out = big ? malloc(size) : NULL;
  if (out) {
    memcpy(out, model, size);
    const size_t at = (size_t)((const uint8_t *)big->data - model);
    for (size_t k = 0; k + 4 <= big->data_bytes; k += big->data_bytes / 16 + 4)
      out[at + k + 1] ^= 0x11;
  }
  tfcc_graph_free(&g);
  return out;
}

/* Other weights, same graph, same cache path: refused as stale; the new weights' output. */
static void test_stale(model_case *mc) {
  size_t n = 0;
  uint8_t *orig = read_file(mc->path, &n);
  uint8_t *var = orig ? stale_variant(orig, n) : NULL;
  CHECK(var != NULL);
  tfcc_runtime *rt = lc_runtime(NULL, log_fn);
  char vpath[600], cache[600];
  snprintf(vpath, sizeof vpath, "%s/variant_%s", g_dir, mc->file);
  snprintf(cache, sizeof cache, "%s/%s.stale.wc", g_dir, mc->file);
  unlink(cache);
  if (var && rt && lc_write_file(vpath, var, n)) {
    static uint8_t out[OUT_CAP], want[OUT_CAP];
    size_t ob = 0, wb = 0;
    tfcc_wcache_stats st;
    CHECK(run_once(rt, vpath, NULL, want, sizeof want, &wb, &st));
    CHECK(run_once(rt, mc->path, cache, out, sizeof out, &ob, &st) && st.written > 0);
    int before = g_refusals;
    CHECK(run_once(rt, vpath, cache, out, sizeof out, &ob, &st));
    CHECKF(st.rejected && st.hits == 0 && g_refusals - before == 1, "%s: stale cache not refused",
           mc->file);
    CHECKF(ob == wb && memcmp(out, want, ob) == 0, "%s: output with a stale cache differs",
           mc->file);
  }
  tfcc_runtime_destroy(rt);
  free(var);
  free(orig);
}

/* The source matched by file identity: a settled copy of the model is taken by identity (no
 * content hash); with verify on, by content; rewritten in place at the same size with its
 * mtime put back (only ctime tells), the cache is refused as stale and the new bytes' output
 * comes out. */
/* The settled copies test_identity loads (a plain and a watermarked copy of mc's model, in
 * g_dir): written before the other tests of the model, so that they have settled
 * (TFCC_MF_SETTLED_S) by the time test_identity runs instead of it sleeping that long. true
 * when both were written. */
static bool write_settled_copies(const model_case *mc) {
  size_t n = 0;
  uint8_t *orig = read_file(mc->path, &n);
  char path[600], wm_path[600];
  snprintf(path, sizeof path, "%s/settled_%s", g_dir, mc->file);
  snprintf(wm_path, sizeof wm_path, "%s/settled_wm_%s", g_dir, mc->file);
  void *wm = NULL;
  size_t wm_n = 0;
  CHECK(orig && tfcc_watermark_embed(orig, n, "acme/cache test", &wm, &wm_n) == TFCC_OK);
  const bool ok = wm && lc_write_file(wm_path, wm, wm_n) && lc_write_file(path, orig, n);
  free(wm);
  free(orig);
  return ok;
}

/* Waits until the files at paths[0..n) have settled: their last change (mtime, ctime) at least
 * TFCC_MF_SETTLED_S + 1 seconds ago (model_file.c's test, with a second to spare). */
static bool wait_settled(const char *const *paths, int n) {
  time_t last = 0;
  for (int i = 0; i < n; i++) {
    struct stat s;
    if (stat(paths[i], &s) != 0) return false;
    if (s.st_mtim.tv_sec > last) last = s.st_mtim.tv_sec;
    if (s.st_ctim.tv_sec > last) last = s.st_ctim.tv_sec;
  }
  for (;;) {
    struct timespec t;
    if (clock_gettime(CLOCK_REALTIME, &t) != 0) return false;
    if (t.tv_sec - last >= TFCC_MF_SETTLED_S + 1) return true;
    sleep((unsigned)(TFCC_MF_SETTLED_S + 1 - (t.tv_sec - last)));
  }
}

static void test_identity(model_case *mc, bool copies_ok) {
  size_t n = 0;
  uint8_t *orig = read_file(mc->path, &n);
  uint8_t *var = orig ? stale_variant(orig, n) : NULL;
  CHECK(var != NULL);
  tfcc_runtime *rt = lc_runtime(NULL, log_fn);
  char path[600], cache[600], wm_path[600], wm_cache[600];
  snprintf(path, sizeof path, "%s/settled_%s", g_dir, mc->file);
  snprintf(cache, sizeof cache, "%s/%s.id.wc", g_dir, mc->file);
  snprintf(wm_path, sizeof wm_path, "%s/settled_wm_%s", g_dir, mc->file);
  snprintf(wm_cache, sizeof wm_cache, "%s/%s.wm.wc", g_dir, mc->file);
  unlink(cache);
  unlink(wm_cache);
  /* the plain and the watermarked copy (write_settled_copies), settled: identities recorded */
  const char *copies[2] = {path, wm_path};
  CHECK(copies_ok && wait_settled(copies, 2));
  if (var && rt && copies_ok) {
    static uint8_t out[OUT_CAP], want[OUT_CAP];
    size_t ob = 0, wb = 0;
    tfcc_wcache_stats st;
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st) && st.written > 0);
    CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st));
    CHECKF(st.hits > 0 && st.misses == 0 && !st.rejected && st.src_by_id,
           "%s: settled source not matched by identity (%u hits, %u misses)", mc->file, st.hits,
           st.misses);
    CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    /* the constants the cache replaces were not read from the file (its skip list) */
    CHECKF(g_unread > n / 4, "%s: warm load read %zu of %zu bytes", mc->file, n - g_unread, n);
    /* those in the sampled ends too: the sample is hashed from the file, not from the copy */
    if (mc->skips_in_ends)
      CHECKF(skipped_in_ends(cache, n) >= 4096, "%s: no skipped range in the sampled ends",
             mc->file);
    /* ... and nothing reads them: with the unread ranges inaccessible, the same output */
    setenv("TFCC_DEBUG_RELEASE_TRAP", "1", 1);
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st) && st.hits > 0 && g_unread > 0 &&
          st.kept_shared > 0);
    unsetenv("TFCC_DEBUG_RELEASE_TRAP");
    CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    /* a watermarked settled file with require_watermark: the warm load (skip list) still sees
     * every byte the watermark's hash covers, so it is accepted, with the same output */
    g_require_wm = 1;
    for (int k = 0; k < 2; k++) {
      CHECKF(run_once(rt, wm_path, wm_cache, out, sizeof out, &ob, &st),
             "%s: watermarked model refused by a %s load", mc->file, k ? "warm" : "cold");
      CHECK(k == 0 ? st.written > 0 : st.hits > 0 && st.src_by_id);
      CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    }
    g_require_wm = 0;
    g_verify = 1;
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st));
    g_verify = 0;
    CHECKF(st.hits > 0 && st.misses == 0 && !st.rejected && !st.src_by_id && g_unread == 0,
           "%s: verify: source not checked by content", mc->file);
    CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    /* every settled file mapped privately, constants released as soon as packed, released
     * pages inaccessible: same output, no released byte read (the copy never made) */
    setenv("TFCC_MODEL_MAP_PRIVATE", "1", 1);
    setenv("TFCC_DEBUG_RELEASE_TRAP", "1", 1);
    CHECK(run_once(rt, path, NULL, out, sizeof out, &ob, &st));
    CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0,
           "%s: output with TFCC_MODEL_MAP_PRIVATE differs", mc->file);
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st) && st.hits > 0);
    CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    unsetenv("TFCC_MODEL_MAP_PRIVATE");
    unsetenv("TFCC_DEBUG_RELEASE_TRAP");
    /* rewritten in place, same size, mtime put back */
    struct stat was;
    CHECK(stat(path, &was) == 0);
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0);
    if (fd >= 0) {
      CHECK(pwrite(fd, var, n, 0) == (ssize_t)n);
      const struct timespec ts[2] = {was.st_atim, was.st_mtim};
      CHECK(futimens(fd, ts) == 0);
      close(fd);
    }
    CHECK(run_once(rt, path, NULL, want, sizeof want, &wb, &st));
    CHECK(wb == mc->ref_bytes);
    int before = g_refusals;
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st));
    CHECKF(st.rejected && st.hits == 0 && !st.src_by_id && g_refusals - before == 1,
           "%s: in-place rewrite with the old mtime not refused", mc->file);
    CHECKF(ob == wb && memcmp(out, want, ob) == 0, "%s: output after an in-place rewrite differs",
           mc->file);
  }
  tfcc_runtime_destroy(rt);
  free(var);
  free(orig);
}

/* Processes writing one cache at once: afterwards it is whole and taken, outputs right. */
static void test_race(model_case *mc) {
  tfcc_runtime *r0 = lc_runtime(NULL, log_fn);
  size_t rb = 0;
  tfcc_wcache_stats s0;
  CHECK(r0 && run_once(r0, mc->path, NULL, mc->ref, OUT_CAP, &rb, &s0) && rb == mc->ref_bytes);
  tfcc_runtime_destroy(r0);
  char cache[600];
  snprintf(cache, sizeof cache, "%s/%s.race.wc", g_dir, mc->file);
  for (int round = 0; round < 3; round++) {
    unlink(cache);
    pid_t kids[4];
    for (int k = 0; k < 4; k++) {
      kids[k] = fork();
      if (kids[k] == 0) {
        tfcc_runtime *rt = lc_runtime(NULL, log_fn);
        static uint8_t out[OUT_CAP];
        size_t ob = 0;
        tfcc_wcache_stats st;
        bool ok = rt && run_once(rt, mc->path, cache, out, sizeof out, &ob, &st) &&
                  ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0;
        _exit(ok ? 0 : 1);
      }
    }
    for (int k = 0; k < 4; k++) {
      int status = 0;
      CHECK(kids[k] > 0 && waitpid(kids[k], &status, 0) == kids[k] && WIFEXITED(status) &&
            WEXITSTATUS(status) == 0);
    }
    tfcc_runtime *rt = lc_runtime(NULL, log_fn);
    static uint8_t out[OUT_CAP];
    size_t ob = 0;
    tfcc_wcache_stats st;
    CHECK(rt && run_once(rt, mc->path, cache, out, sizeof out, &ob, &st));
    CHECKF(st.hits > 0 && st.misses == 0 && !st.rejected,
           "%s: cache after a race: %u hits %u misses%s", mc->file, st.hits, st.misses,
           st.rejected ? ", refused" : "");
    CHECK(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0);
    tfcc_runtime_destroy(rt);
  }
}

/* A hybrid model's XNNPACK-order float FULLY_CONNECTED (block _XNN_FC, a conformance model in
 * the repository): cold writes it, warm maps it, outputs bit-identical to a cache-less load at
 * every cap. */
static void test_xnn_fc(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/hybrid_net_fc_f32w_u17.tflite",
           tfcc_test_source_dir());
  const char *caps[] = {"generic", "sse4", "avx2", "avx512"};
  static uint8_t ref[OUT_CAP], out[OUT_CAP];
  for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
    tfcc_runtime *rt = lc_runtime(caps[i], log_fn);
    if (!rt) continue; /* cap above the CPU */
    char cache[600];
    snprintf(cache, sizeof cache, "%s/xnn_fc.%s.wc", g_dir, caps[i]);
    unlink(cache);
    size_t rb = 0, ob = 0;
    tfcc_wcache_stats st;
    CHECK(run_once(rt, path, NULL, ref, sizeof ref, &rb, &st));
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st));
    CHECKF(ob == rb && memcmp(out, ref, ob) == 0, "xnn fc at %s: cold output differs", caps[i]);
    CHECKF(st.hits == 0 && st.written > 0, "xnn fc at %s: cold: %u hits %u written", caps[i],
           st.hits, st.written);
    CHECK(run_once(rt, path, cache, out, sizeof out, &ob, &st));
    CHECKF(ob == rb && memcmp(out, ref, ob) == 0, "xnn fc at %s: warm output differs", caps[i]);
    CHECKF(st.hits > 0 && st.misses == 0 && st.written == 0 && !st.rejected,
           "xnn fc at %s: warm: %u hits %u misses", caps[i], st.hits, st.misses);
    tfcc_runtime_destroy(rt);
  }
}

int main(void) {
  const char *shared = tfcc_test_shared_dir();
  if (!shared) return TFCC_TEST_SKIP;
  snprintf(g_dir, sizeof g_dir, "/tmp/tfcc_wcache_XXXXXX");
  if (!mkdtemp(g_dir)) return 1;
  /* 8-bit GEMM and depthwise; float GEMM + GEMV + the fused expand/depthwise filter; float
   * TRANSPOSE_CONV in XNNPACK's order (16 output channels, 40 KiB of weights) */
  model_case cases[] = {{.file = "mobilenet_v1_025_128_quant.tflite",
                         .block = TFCC_BLOCK_Q8_DW,
                         .skips_in_ends = true},
                        {.file = "hand_landmark_lite.tflite"},
                        {.file = "transpose_conv_f32_xnnpack_order_n16_k1x16_s8.tflite",
                         .dir = "tests/ops/conformance",
                         .block = TFCC_BLOCK_F32_TCONV,
                         .released = 32768},
                        /* int8 expand 1x1 + depthwise pairs fused (EXPAND_DEPTHWISE_CONV_2D):
                         * both packings cached (blocks 2 and 8 under the fused node), both
                         * filters and biases released (3.47 MB in all); a warm load maps
                         * 688128 bytes at open, 528384 without its quantization vectors */
                        {.file = "tf2_mobilenet_v2_224_ptq.tflite",
                         .block = TFCC_BLOCK_Q8_DW,
                         .released = 3000000,
                         .light = true,
                         .kept_at_open = 650000}};
  const char *caps[] = {"generic", "sse4", "avx2", "avx512"};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    model_case *mc = &cases[c];
    if (mc->dir)
      snprintf(mc->path, sizeof mc->path, "%s/%s/%s", tfcc_test_source_dir(), mc->dir, mc->file);
    else
      snprintf(mc->path, sizeof mc->path, "%s/models/%s", shared, mc->file);
    if (access(mc->path, R_OK) != 0) {
      fprintf(stderr, "SKIP: %s absent\n", mc->path);
      tfcc_test_skipped = 1;
      continue;
    }
    /* test_identity's settled copies of the first model, settling meanwhile */
    const bool copies_ok = c == 0 && write_settled_copies(mc);
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) test_model(mc, caps[i], NULL);
    if (mc->light) {
      free(mc->ref);
      continue;
    }
    /* every header byte and length on the small model, the field boundaries of mobilenet's
     * 64 blocks, every 8th of the larger hand_landmark's */
    const damage dmg[] = {{.sample = 97, .step = 1, .words = true},
                          {.sample = 7, .step = 8},
                          {.sample = 97, .step = 1}};
    test_model(mc, NULL, &dmg[c]);
    test_foreign(mc, "avx2", "sse4");
    if (c == 0) test_kernel_names(mc);
    test_stale(mc);
    if (c == 0) test_identity(mc, copies_ok);
    test_race(mc);
    free(mc->ref);
  }
  test_xnn_fc();
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
  return tfcc_test_finish("test_weights_cache");
}
