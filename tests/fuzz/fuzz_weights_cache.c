/* libFuzzer target: the packed-weights cache reader (runtime/weights_cache.h). Any input must
 * be refused cleanly or parse into entries that lie inside it; every block a load would take
 * is then hashed, as the store does. Seeds: make_corpus.sh writes a valid cache. */
#include <stdint.h>
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
    }
    (void)sum;
  } else if (!err.msg[0]) {
    abort(); /* a refusal names its cause */
  }
  free(p);
  return 0;
}
