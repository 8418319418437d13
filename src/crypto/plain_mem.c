#include "crypto/plain_mem.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/private_map.h"

static size_t mapped_bytes(size_t size) {
  size_t pg = tfcc_page_size();
  return size ? (size + pg - 1) / pg * pg : pg;
}

void *tfcc_plain_alloc(size_t size) {
  size_t len = mapped_bytes(size);
  if (len < size) return NULL; /* overflow */
  /* Fault every (huge) page in now, in one call: measured on a 14 MB model this is faster than
   * letting the decryption take the faults (a 2 MiB fault in the middle of the AES loop) and
   * much faster than 4 KiB pages (3400 faults); out of memory is a clean NULL now rather than
   * the OOM killer mid-decryption. */
  void *p = tfcc_map_private(len, true);
#ifdef MADV_DONTDUMP
  if (p) (void)madvise(p, len, MADV_DONTDUMP);
#endif
  return p;
}

void tfcc_plain_free(void *p, size_t size) {
  if (!p) return;
  explicit_bzero(p, size); /* memset speed; not optimised away */
  munmap(p, mapped_bytes(size));
}
