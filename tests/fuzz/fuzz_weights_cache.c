/* libFuzzer target: the packed-weights cache reader (runtime/weights_cache.h). Any input must
 * be refused cleanly or parse into entries that lie inside it; every block a load would take
 * is then hashed, as the store does. The skip list reader (tfcc_wc_peek_skips, the file read
 * with pread, for the identity and size the input's header names) must return ranges that lie
 * inside the source, sorted and page aligned; a kept-pages block's ranges must lie in its block.
 * The same bytes given as a cache in memory (fuzz_mem). Seeds: make_corpus.sh writes a valid
 * cache. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash64.h"
#include "runtime/weights_cache.h"

/* The sink of the in-memory path: the pieces must make a cache the parser accepts. */
static tfcc_status sink(void *user, const tfcc_bytes *v, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += v[i].size;
  uint8_t *b = aligned_alloc(64, (total + 63) / 64 * 64);
  if (!b) return TFCC_ERR_NO_MEMORY;
  size_t at = 0;
  for (size_t i = 0; i < n; i++) memcpy(b + at, v[i].data, v[i].size), at += v[i].size;
  tfcc_wc_header h;
  tfcc_err err = {0};
  if (tfcc_wc_parse(b, total, NULL, &h, &err) != TFCC_OK) abort(); /* the writer's own file */
  *(int *)user += 1;
  free(b);
  return TFCC_OK;
}

/* The cache given in memory (tfcc_model_options.weights_cache_data, how an encrypted model's
 * decrypted cache is handed to the load): opened for the identity and source size it claims (a
 * zero source: refused as stale unless its hash matches), every block asked for as an operator
 * would, one block offered, and the new cache handed to the sink. */
static void fuzz_mem(const uint8_t *p, size_t size) {
  tfcc_wc_header h;
  memset(&h, 0, sizeof h);
  if (size >= sizeof h) memcpy(&h, p, sizeof h);
  h.ident[sizeof h.ident - 1] = 0;
  const size_t src_n = h.src_size <= (1u << 20) ? (size_t)h.src_size : 4096;
  uint8_t *src = calloc(1, src_n ? src_n : 1);
  if (!src) return;
  /* odd lengths: bytes the caller vouches for (the blocks are taken unhashed); bit 1 of the
   * length: the float blocks left out */
  tfcc_wc_mem mem = {p, size, sink, NULL, (size & 1) != 0, (size & 2) != 0};
  int sunk = 0;
  mem.sink_user = &sunk;
  tfcc_wcache *c = NULL;
  tfcc_err err = {0};
  static const tfcc_logger quiet = {TFCC_LOG_ERROR, NULL, NULL};
  if (tfcc_wcache_open_mem("fuzz", &mem, h.ident, src, src_n, false, &quiet, NULL, NULL, &c,
                           &err) != TFCC_OK) {
    free(src);
    return;
  }
  tfcc_packed_store *st = tfcc_wcache_store(c);
  tfcc_wc_header ph;
  if (size >= sizeof ph && tfcc_wc_parse(p, size, NULL, &ph, &err) == TFCC_OK)
    for (uint32_t i = 0; i < ph.n_blocks && i < 4096; i++) {
      tfcc_wc_entry e;
      tfcc_wc_entry_at(p, i, &e);
      const uint8_t *b = st->get(st, e.node, e.block, (size_t)e.bytes);
      if (b && (b < p || b + e.bytes > p + size)) abort(); /* a block inside the bytes */
      if (b) (void)tfcc_hash64(b, (size_t)e.bytes);
    }
  static const uint8_t fresh[192] = {1, 2, 3};
  st->put(st, 1 << 20, 7, fresh, sizeof fresh);
  const bool will = tfcc_wcache_will_write(c);
  tfcc_wcache_finish(c);
  if (will != (sunk == 1)) abort();
  tfcc_wcache_free(c);
  free(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a mapping is page aligned: give the parser an aligned copy of exactly size bytes */
  uint8_t *p = aligned_alloc(64, size ? (size + 63) / 64 * 64 : 64);
  if (!p) return 0;
  memcpy(p, data, size);
  tfcc_wc_header h;
  tfcc_err err = {0};
  if (tfcc_wc_parse(p, size, NULL, &h, &err) == TFCC_OK) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < h.n_blocks; i++) {
      tfcc_wc_entry e;
      tfcc_wc_entry_at(p, i, &e);
      if (e.offset > size || e.bytes > size - e.offset || e.offset % TFCC_WC_ALIGN) abort();
      sum += tfcc_hash64(p + e.offset, (size_t)e.bytes) == e.hash;
      if (e.node == TFCC_WC_SKIPS_NODE && e.block == TFCC_WC_KEEP_BLOCK) {
        /* the kept pages: every range's bytes inside the block, ranges sorted */
        const uint8_t *kb = p + e.offset;
        const size_t nk = tfcc_wc_kept_check(kb, (size_t)e.bytes);
        uint64_t at = 0, data = (8 + nk * sizeof(tfcc_wc_skip) + 4095) / 4096 * 4096;
        for (size_t k = 0; k < nk; k++) {
          tfcc_wc_skip r;
          memcpy(&r, kb + 8 + k * sizeof r, sizeof r);
          if (r.offset < at || r.bytes == 0 || r.offset % TFCC_WC_SKIP_PAGE ||
              data + r.bytes > e.bytes)
            abort();
          at = r.offset + r.bytes;
          data += r.bytes;
        }
      }
    }
    (void)sum;
  } else if (!err.msg[0]) {
    abort(); /* a refusal names its cause */
  }
  if (size >= sizeof h) {
    memcpy(&h, p, sizeof h); /* the identity and size the file claims: the peek goes deep */
    static int fd = -2;
    if (fd == -2) fd = memfd_create("fuzz_wc", 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (fd >= 0 && ftruncate(fd, 0) == 0 && pwrite(fd, p, size, 0) == (ssize_t)size) {
      tfcc_wc_skip *sk = NULL;
      size_t n = 0;
      tfcc_wc_peek_skips(path, &h.src_id, h.src_size, &sk, &n);
      /* layout 4: ranges anywhere in the source (the sampled ends included), sorted, apart */
      uint64_t at = 0;
      for (size_t i = 0; i < n; i++) {
        if (sk[i].offset < at || sk[i].bytes == 0 || sk[i].offset % TFCC_WC_SKIP_PAGE ||
            sk[i].offset > h.src_size || sk[i].bytes > h.src_size - sk[i].offset)
          abort();
        at = sk[i].offset + sk[i].bytes;
      }
      if ((n == 0) != (sk == NULL)) abort();
      free(sk);
      /* the kept ranges a warm load maps at open: read only from a file whose mtime is its
       * stamp (given here), each page aligned, inside the file and the source's pages (the
       * sampled ends included since load7; none for a source of 128 KiB or less), sorted */
      if (h.stamp_ns > 0) {
        const struct timespec ts[2] = {{0, UTIME_OMIT},
                                       {h.stamp_ns / 1000000000, h.stamp_ns % 1000000000}};
        (void)futimens(fd, ts);
      }
      tfcc_wc_peek pk;
      tfcc_wc_peek_file(path, &h.src_id, h.src_size, true, &pk);
      at = 0;
      const uint64_t src_pages =
          h.src_size >= UINT64_MAX / 4
              ? UINT64_MAX / 4
              : (h.src_size + TFCC_WC_SKIP_PAGE - 1) / TFCC_WC_SKIP_PAGE * TFCC_WC_SKIP_PAGE;
      if (pk.n_kept && h.src_size <= 2 * (uint64_t)TFCC_WC_SAMPLE_EDGE) abort();
      for (size_t i = 0; i < pk.n_kept; i++) {
        const tfcc_wc_kept_map *k = &pk.kept[i];
        if (k->offset < at || k->bytes == 0 || k->offset % TFCC_WC_SKIP_PAGE ||
            k->bytes % TFCC_WC_SKIP_PAGE || k->at % TFCC_WC_SKIP_PAGE || k->offset > src_pages ||
            k->bytes > src_pages - k->offset || k->at > size || k->bytes > size - k->at)
          abort();
        at = k->offset + k->bytes;
      }
      if ((pk.n_kept == 0) != (pk.kept == NULL) || (pk.n_kept != 0) != (pk.fd >= 0)) abort();
      tfcc_wc_peek_free(&pk);
    }
  }
  fuzz_mem(p, size);
  free(p);
  return 0;
}
