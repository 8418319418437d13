/* Packed-weights cache file: every packed and transformed weight block of a model, written
 * after its first load and mapped read-only by later loads, which then pack nothing.
 *
 * File (native byte order; docs/weights_cache.md):
 *   header   magic "TFCCWC1\n", layout version, the identity: the ISA level, packing options
 *            (precision, passes...) and the names of the kernels whose layouts the blocks hold
 *            (runtime/wcache_kernels.h), the source model's
 *            size, 64-bit content hash, SHA-256, file identity and sample hash, the file's size,
 *            block count, and a hash of header + table
 *   table    per block: node index, block id (ops/packed_store.h), offset (64-byte aligned),
 *            bytes, 64-bit content hash
 *   blocks
 * A load checks the header against its own identity and the model bytes (size, and file
 * identity + sample hash or else the content hash; content hash and SHA-256 on request) and each block's hash when an operator asks for it (all of
 * them up front on request). Anything that does not match (stale, foreign, truncated, tampered,
 * other version) makes the load ignore the file with one log line and pack as without a cache;
 * the blocks are then written to a new file (temporary file, fsync, rename over the old one),
 * so concurrent writers never leave a torn file. Processes that map one cache share its pages.
 * The file must be replaced only by rename, never truncated in place (a mapping would fault). */
#ifndef TFCC_RUNTIME_WEIGHTS_CACHE_H
#define TFCC_RUNTIME_WEIGHTS_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/log.h"
#include "ops/packed_store.h"

#define TFCC_WC_MAGIC "TFCCWC1\n"
#define TFCC_WC_VERSION \
  5u /* 4: the skip list reaches into the sampled ends; 5: the AVX2 q8 GEMM
                              * and depthwise layouts of stop 62 (a version-4 block may have the
                              * size of a new one) */
#define TFCC_WC_IDENT_BYTES 480 /* 96 before the kernel names (header 256 bytes) */
#define TFCC_WC_ALIGN 64u
#define TFCC_WC_SAMPLE_EDGE ((size_t)64 << 10) /* bytes sampled at either end of the source */

/* The source model file as the load read it (fstat of the file its bytes were read from and
 * checked against, runtime/model_file.h). Recorded only for a file that was settled when opened
 * (no change for TFCC_MF_SETTLED_S seconds): any later write to it stamps a later mtime and
 * ctime, so equal identities mean equal bytes (docs/weights_cache.md says where not). All zero:
 * none (a buffer, a file changed just before the load). */
typedef struct tfcc_wc_src_id {
  uint64_t dev, ino;
  int64_t mtime_ns, ctime_ns;
} tfcc_wc_src_id;

typedef struct tfcc_wc_header {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;           /* sizeof(tfcc_wc_header) */
  char ident[TFCC_WC_IDENT_BYTES]; /* level, options, kernel names; NUL padded */
  uint64_t src_size;
  uint64_t src_hash; /* tfcc_hash64 of the model bytes */
  uint8_t src_sha256[32];
  uint64_t file_bytes;
  uint32_t n_blocks;
  uint32_t entry_bytes; /* sizeof(tfcc_wc_entry) */
  uint64_t table_hash;  /* tfcc_hash64 of header (this field 0) + table */
  uint8_t reserved[8];
  tfcc_wc_src_id src_id; /* the source file's identity, or all zero */
  uint64_t src_sample;   /* tfcc_wc_sample_hash of the model bytes */
  int64_t stamp_ns;      /* the mtime the writer gave the file after its last write (ns) */
  uint8_t reserved2[16];
} tfcc_wc_header;

typedef struct tfcc_wc_entry {
  int32_t node;
  uint32_t block;
  uint64_t offset;
  uint64_t bytes;
  uint64_t hash; /* tfcc_hash64 of the block */
} tfcc_wc_entry;

/* What a cache must have been made for (NULL fields / zero size: not checked). The content of
 * the source is checked by the store (tfcc_wcache_open), not by the parser. */
typedef struct tfcc_wc_expect {
  const char *ident;
  uint64_t src_size;
} tfcc_wc_expect;

/* tfcc_hash64 of the first and last 64 KiB of the model bytes (the FlatBuffer's root tables,
 * which the load reads anyway): a cheap second check beside the file identity. Pages inside
 * the weights are not sampled: a warm load never touches those the cache replaces (each first
 * touch is a page fault; 4 KiB per MiB cost ResNet-50 about 7 ms here). */
uint64_t tfcc_wc_sample_hash(const uint8_t *src, size_t size);
/* The same of a source of size bytes (more than twice TFCC_WC_SAMPLE_EDGE) from the
 * tfcc_hash64 of its head and of its tail (a load that hashes its file's sampled ends as it
 * reads them, runtime/model_file.h, instead of its copy: the ends' pages the cache replaces
 * then stay unread). */
uint64_t tfcc_wc_sample_join(uint64_t head, uint64_t tail, size_t size);

/* Checks the structure of a cache file's bytes p[0..n) (p 8-byte aligned) against want (may be
 * NULL): header, table hash, every entry within the file and aligned. Does not read the blocks.
 * TFCC_OK with *h filled, or TFCC_ERR_INVALID_MODEL with why the file is refused in err. */
tfcc_status tfcc_wc_parse(const uint8_t *p, size_t n, const tfcc_wc_expect *want, tfcc_wc_header *h,
                          tfcc_err *err);
/* Entry i of a parsed file (i < h.n_blocks). */
void tfcc_wc_entry_at(const uint8_t *p, uint32_t i, tfcc_wc_entry *e);

/* The skip list: a block of the table under node -1, block TFCC_WC_SKIPS_BLOCK, holding the
 * byte ranges of the source model file that the load which wrote the cache released (the
 * constants its packing consumed: runtime/const_release.h), as tfcc_wc_skip pairs (file
 * offsets, page aligned, sorted, disjoint). A later load of the same settled file (same
 * identity) with a warm cache does not read them from the file at all
 * (tfcc_model_file_open_holes); anything that turns out to need them reads them then. Since
 * layout version 4 the list includes the ranges in the sampled first and last 64 KiB: such a
 * load hashes its sample from the file (tfcc_model_file_read_ends, tfcc_wc_sample_join), not
 * from its copy. */
#define TFCC_WC_SKIPS_NODE (-1)
#define TFCC_WC_SKIPS_BLOCK 0x50494b53u /* "SKIP" */
#define TFCC_WC_SKIP_PAGE 4096u         /* offsets and lengths are multiples of this */
typedef struct tfcc_wc_skip {
  uint64_t offset, bytes;
} tfcc_wc_skip;

/* Checks a skip list's bytes p[0..n) against a source of more than twice the sampled 64 KiB
 * (src_size bytes): whole pairs, each range non-empty, page aligned, inside the source, sorted
 * and disjoint. Returns the pair count, 0 if anything is off (then nothing is skipped). */
size_t tfcc_wc_skips_check(const uint8_t *p, size_t n, uint64_t src_size);

/* Before a load reads its model file: the skip list of the cache at path, if that cache was
 * written from the same settled file (src_id equal and non-zero, same size; header, table and
 * skip block hashes checked; nothing else). *out: malloc'ed pairs (free), or NULL with *n 0
 * (no cache, another file, no list, anything off). The load's full check of the cache
 * (tfcc_wcache_open) still decides whether its blocks are used; when they are not, the load
 * reads the skipped ranges before anything reads them. */
void tfcc_wc_peek_skips(const char *path, const tfcc_wc_src_id *src_id, uint64_t src_size,
                        tfcc_wc_skip **out, size_t *n);

/* A kept range of a cache file (below) to be mapped at the open of its model file: offset and
 * bytes in the source (page multiples), at: the range's offset in the cache file (page
 * aligned). */
typedef struct tfcc_wc_kept_map {
  uint64_t offset, bytes, at;
} tfcc_wc_kept_map;

/* What a load learns from a cache file before it reads its model file. */
typedef struct tfcc_wc_peek {
  tfcc_wc_skip *skips; /* as tfcc_wc_peek_skips (malloc'ed, or NULL with n_skips 0) */
  size_t n_skips;
  /* with want_kept, a cache that has not been written since its writer stamped it (its mtime
   * is the header's stamp, as for taking its blocks unhashed): its kept pages, which are the
   * source file's bytes at those ranges, clipped to its pages (malloc'ed, or NULL); those in
   * the sampled first and last 64 KiB are to be compared with the source file as its
   * sample is hashed (tfcc_model_file_read_ends); none for a source of 128 KiB or less */
  tfcc_wc_kept_map *kept;
  size_t n_kept;
  int fd; /* the cache file, open for mapping the kept ranges when n_kept; else -1 */
} tfcc_wc_peek;
/* tfcc_wc_peek_skips, and (want_kept) the kept ranges: the same checks, plus the kept block's
 * list (tfcc_wc_kept_check; the block inside the file and page aligned). Never fails: *p empty
 * when anything is off. */
void tfcc_wc_peek_file(const char *path, const tfcc_wc_src_id *src_id, uint64_t src_size,
                       bool want_kept, tfcc_wc_peek *p);
/* Frees the lists and closes the fd. */
void tfcc_wc_peek_free(tfcc_wc_peek *p);

/* The kept pages: a block under node -1, block TFCC_WC_KEEP_BLOCK, at a page-aligned offset
 * of the file: a uint64 count, that many tfcc_wc_skip ranges (offsets into the source model,
 * page aligned, sorted, disjoint), zeros up to the next TFCC_WC_SKIP_PAGE, then each range's
 * bytes in order. They are the pages of the model's private copy that the load which wrote the
 * cache kept (not released: FlatBuffer tables, biases, filters read raw). A later load maps
 * those of its own kept pages whose bytes are equal (compared first) from the cache file
 * (MAP_SHARED, read only) over its copy, so processes serving one model from one cache share
 * them too (tfcc_wcache_share_kept). */
#define TFCC_WC_KEEP_BLOCK 0x5045454bu /* "KEEP" */
/* Checks a kept-pages block's bytes p[0..n): a count, that many ranges (page multiples, sorted,
 * disjoint) whose bytes fit in the block after the padded list. Returns the range count, 0 if
 * anything is off (then nothing is mapped from it). */
size_t tfcc_wc_kept_check(const uint8_t *p, size_t n);

typedef struct tfcc_wcache tfcc_wcache;

/* Opens the cache at path for a model over src[0..size) built with ident (never fails on a bad
 * or missing file: it logs one line and the load packs and rewrites it). src_id: the identity
 * of the file src was read from (NULL or all zero: none). The source matches a cache when its
 * size does and either both identities (non-zero) and the sample hashes are equal, or its
 * 64-bit content hash is. src_sample: the source's tfcc_wc_sample_hash, taken from its file by
 * the caller (its sampled ends are not all in src: pages the cache replaces left unread), or
 * NULL: hashed from src. verify_full: the content hash and the SHA-256 whatever the identity
 * says, and every block's hash now. need_src (may be NULL): called, with user, before the
 * cache reads the source's bytes other than its sampled ends (to hash them) and on every miss
 * (a block not in the file, or refused) before the operator packs from its source bytes: a
 * load that skipped reading ranges of its file (skip list) reads them then. src_stays: every
 * source byte stays readable until tfcc_wcache_finish (a weight update: nothing is released),
 * so the SHA-256 a new file's header needs is taken there, only if a file is written.
 * TFCC_ERR_NO_MEMORY only. */
tfcc_status tfcc_wcache_open(const char *path, const char *ident, const uint8_t *src, size_t size,
                             const tfcc_wc_src_id *src_id, const uint64_t *src_sample,
                             bool verify_full, bool src_stays, const tfcc_logger *log,
                             void (*need_src)(void *user), void *user, tfcc_wcache **out,
                             tfcc_err *err);
/* A cache held in memory instead of a file (tfcc_model_options.weights_cache_data / _sink):
 * data[0..size) (64-byte aligned; NULL: none yet) is checked as a file's bytes would be and its
 * blocks are used in place (the caller keeps it until tfcc_wcache_free); a new cache's bytes go
 * to sink (NULL: not written) as pieces instead of a file. There is no file stamp: every block's
 * hash is checked when an operator takes it, and the source's content hash at open, unless the
 * caller vouches for the bytes (trusted; then as a settled file whose stamps agree, and a new
 * cache's header gets no hashes of the source unless verify_full). */
typedef struct tfcc_wc_mem {
  const uint8_t *data;
  size_t size;
  tfcc_status (*sink)(void *user, const tfcc_bytes *pieces, size_t n);
  void *sink_user;
  bool trusted;  /* the caller vouches for data: made from these source bytes, blocks intact */
  bool no_float; /* float32 blocks (F32_*, XDW_*, XNN_FC*, *_EIGEN*) packed at every load */
} tfcc_wc_mem;
/* Like tfcc_wcache_open, for the cache in mem (copied); name names it in log lines. */
tfcc_status tfcc_wcache_open_mem(const char *name, const tfcc_wc_mem *mem, const char *ident,
                                 const uint8_t *src, size_t size, bool verify_full,
                                 const tfcc_logger *log, void (*need_src)(void *user), void *user,
                                 tfcc_wcache **out, tfcc_err *err);
/* The store operators ask (ops/packed_store.h). */
tfcc_packed_store *tfcc_wcache_store(tfcc_wcache *c);
/* The skip list to write with the file (copied; file offsets of the ranges this load released,
 * tfcc_wc_skip pairs). Only for a source with a file identity. */
void tfcc_wcache_set_skips(tfcc_wcache *c, const tfcc_wc_skip *s, size_t n);
/* The kept pages to write with the file: ranges r[0..n) of the model bytes at base (page
 * aligned, sorted, disjoint; copied now). Only when the file will be written. */
void tfcc_wcache_set_kept(tfcc_wcache *c, const uint8_t *base, const tfcc_wc_skip *r, size_t n);
/* Before tfcc_wcache_finish, on a load that took the file: maps over base (the model's private
 * copy, page aligned, base_bytes long) every part of its kept ranges r[0..n) (as for set) that
 * the file's kept pages hold with equal bytes: read-only, shared pages of the cache file in
 * place of private ones. Returns the bytes mapped; *failed is set when a mapping failed and
 * the private bytes could not be put back (the model must not be used then). */
size_t tfcc_wcache_share_kept(tfcc_wcache *c, uint8_t *base, size_t base_bytes,
                              const tfcc_wc_skip *r, size_t n, bool *failed);
/* On a load that took the file and whose model file mapped at_open bytes of its kept pages
 * from this file when it was opened (tfcc_wc_peek_file, tfcc_model_file), after
 * tfcc_wcache_share_kept of the rest (shared bytes): records them (stats.kept_shared,
 * kept_at_open; tfcc_wcache_prefault skips the kept block). */
void tfcc_wcache_kept_mapped(tfcc_wcache *c, size_t at_open, size_t shared);
/* The load succeeded: stop answering, and write the file if a block was missing or refused
 * (a failed write logs one warning; the model is fine either way). The copies made for the
 * file (skip list, kept pages) are freed either way. */
void tfcc_wcache_finish(tfcc_wcache *c);
/* Whether the cache's file was there and its header checked out (its blocks may answer). */
bool tfcc_wcache_has_file(const tfcc_wcache *c);
/* Whether tfcc_wcache_finish would write a file (a block was missing or refused). */
bool tfcc_wcache_will_write(const tfcc_wcache *c);
/* Maps every page of the cache file into the process's page tables now (once; later calls
 * return at once), so that the first run takes no page fault on the blocks. Thread safe. */
void tfcc_wcache_prefault(tfcc_wcache *c);
/* Starts (once per cache, not after tfcc_wcache_prefault) a thread that reads a byte of each
 * page of the blocks taken from the file, in node order (the order a run reads them), and
 * ends: a session's first run, started right after, then finds most of those pages in its page
 * tables instead of faulting them itself (docs/weights_cache.md, "First run"). Nothing waits
 * for it or locks with it; tfcc_wcache_free stops and joins it (it reads only the mapping).
 * false: not started (no mapped blocks, already started, prefaulted, or no thread). */
bool tfcc_wcache_touch_start(tfcc_wcache *c);
/* Stops the touch thread (between two 2 MiB steps) and joins it; no-op when none runs or it
 * was joined already. Not from two threads at once (the session that started it, at its
 * destroy, then tfcc_wcache_free, at the model's). */
void tfcc_wcache_touch_stop(tfcc_wcache *c);
/* After every user of its blocks is gone (the model's params released). NULL-safe. */
void tfcc_wcache_free(tfcc_wcache *c);

/* Counts of the last load, for tests and tools. */
typedef struct tfcc_wcache_stats {
  uint32_t hits, misses, written; /* blocks */
  bool rejected;                  /* the file was there and refused */
  bool src_by_id;                 /* the source matched by file identity (no content hash) */
  bool blocks_by_stamp;           /* the file's mtime is the writer's stamp: blocks not hashed */
  size_t kept_shared;             /* bytes of the model mapped from its kept pages */
  size_t kept_at_open;            /* of which mapped when the model file was opened (never read) */
} tfcc_wcache_stats;
void tfcc_wcache_get_stats(const tfcc_wcache *c, tfcc_wcache_stats *s);

#endif
