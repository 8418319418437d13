/* Aligned private anonymous mappings; the contract is in private_map.h. */
#include "base/private_map.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((size_t)2 << 20)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE \
  23 /* Linux 5.14; older kernels answer EINVAL and pages fault on first write */
#endif

size_t tfcc_page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096;
}

void *tfcc_map_private(size_t len, bool populate) {
  const size_t pg = tfcc_page_size();
  const size_t align = len >= HUGE_PAGE ? HUGE_PAGE : pg;
  const size_t over = len + align - pg;
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
  if (populate && madvise(p, len, MADV_POPULATE_WRITE) != 0 && errno == ENOMEM) {
    munmap(p, len);
    return NULL;
  }
  return p;
}
