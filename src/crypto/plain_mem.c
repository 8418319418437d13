#include "crypto/plain_mem.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((size_t)2 << 20)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE \
  23 /* Linux 5.14; older kernels answer EINVAL and pages fault on first write */
#endif

static size_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096;
}

static size_t mapped_bytes(size_t size) {
  size_t pg = page_size();
  return size ? (size + pg - 1) / pg * pg : pg;
}

void *tfcc_plain_alloc(size_t size) {
  size_t len = mapped_bytes(size);
  if (len < size) return NULL; /* overflow */
  size_t align = len >= HUGE_PAGE ? HUGE_PAGE : page_size();
  size_t over = len + align - page_size();
  if (over < len) return NULL;
  uint8_t *raw = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  /* Trim to an aligned start so the region is made of whole huge pages where possible. */
  uint8_t *p = (uint8_t *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
  if (p > raw) munmap(raw, (size_t)(p - raw));
  if (raw + over > p + len) munmap(p + len, (size_t)(raw + over - (p + len)));
#ifdef MADV_HUGEPAGE
  if (align == HUGE_PAGE) (void)madvise(p, len, MADV_HUGEPAGE);
#endif
#ifdef MADV_DONTDUMP
  (void)madvise(p, len, MADV_DONTDUMP);
#endif
  /* Fault every (huge) page in now, in one call: measured on a 14 MB model this is faster than
   * letting the decryption take the faults (a 2 MiB fault in the middle of the AES loop) and
   * much faster than 4 KiB pages (3400 faults). */
  if (madvise(p, len, MADV_POPULATE_WRITE) != 0 && errno == ENOMEM) {
    munmap(p, len); /* a clean "out of memory" now rather than the OOM killer mid-decryption */
    return NULL;
  }
  return p;
}

void tfcc_plain_free(void *p, size_t size) {
  if (!p) return;
  explicit_bzero(p, size); /* memset speed; not optimised away */
  munmap(p, mapped_bytes(size));
}
