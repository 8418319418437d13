/* libFuzzer target: the packed-weights cache reader (runtime/weights_cache.h). Any input must
 * be refused cleanly or parse into entries that lie inside it; every block a load would take
 * is then hashed, as the store does. The skip list reader (tfcc_wc_peek_skips, the file read
 * with pread, for the identity and size the input's header names) must return ranges that lie
 * inside the source, sorted and page aligned; a kept-pages block's ranges must lie in its block. Seeds: make_corpus.sh writes a valid cache. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash64.h"
#include "runtime/weights_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a mapping is page aligned: give the parser an aligned copy of exactly size bytes */
  uint8_t *p = malloc(size ? size : 1);
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
      uint64_t at = TFCC_WC_SAMPLE_EDGE;
      for (size_t i = 0; i < n; i++) {
        if (sk[i].offset < at || sk[i].bytes == 0 || sk[i].offset % TFCC_WC_SKIP_PAGE ||
            sk[i].bytes > h.src_size - TFCC_WC_SAMPLE_EDGE - sk[i].offset)
          abort();
        at = sk[i].offset + sk[i].bytes;
      }
      if ((n == 0) != (sk == NULL)) abort();
      free(sk);
    }
  }
  free(p);
  return 0;
}
