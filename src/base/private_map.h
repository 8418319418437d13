/* Large private buffers (a decrypted model, a file's copy in memory): anonymous mappings made of
 * whole huge pages where the size allows, optionally populated up front. Header-only: libtfcc
 * and libtfcc_crypto (which sees only libtfcc's public symbols) each get their own copy, and a
 * program linking both sets of objects (the crypto fuzz target) gets no duplicate symbol. */
#ifndef TFCC_BASE_PRIVATE_MAP_H
#define TFCC_BASE_PRIVATE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define TFCC_PRIVATE_MAP_HUGE ((size_t)2 << 20)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE \
  23 /* Linux 5.14; older kernels answer EINVAL and pages fault on first write */
#endif

/* The system page size. */
static inline size_t tfcc_page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096;
}

/* len bytes (a multiple of the page size, > 0) of private anonymous read-write memory: starting
 * on a 2 MiB boundary, huge pages advised, when len is at least 2 MiB; page aligned otherwise.
 * populate faults every page in now, in one call (MADV_POPULATE_WRITE; kernels before 5.14
 * leave it to the first writes), so that running out of memory is a clean NULL here rather
 * than the OOM killer later. NULL when out of memory. Released with munmap(p, len). */
static inline void *tfcc_map_private(size_t len, bool populate) {
  const size_t pg = tfcc_page_size();
  const size_t align = len >= TFCC_PRIVATE_MAP_HUGE ? TFCC_PRIVATE_MAP_HUGE : pg;
  const size_t over = len + align - pg;
  if (over < len) return NULL;
  uint8_t *raw = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  /* Trim to an aligned start so the region is made of whole huge pages where possible. */
  uint8_t *p = (uint8_t *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
  if (p > raw) munmap(raw, (size_t)(p - raw));
  if (raw + over > p + len) munmap(p + len, (size_t)(raw + over - (p + len)));
#ifdef MADV_HUGEPAGE
  if (align == TFCC_PRIVATE_MAP_HUGE) (void)madvise(p, len, MADV_HUGEPAGE);
#endif
  if (populate && madvise(p, len, MADV_POPULATE_WRITE) != 0 && errno == ENOMEM) {
    munmap(p, len);
    return NULL;
  }
  return p;
}

#endif
