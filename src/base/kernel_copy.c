/* Gathers through process_vm_readv on the calling process (contract in kernel_copy.h). */
#include "base/kernel_copy.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#define HAVE_VM_READV 1
#else
#define HAVE_VM_READV 0
#endif

/* Remote pieces per system call (IOV_MAX is 1024 on Linux). */
#define PIECES 256

/* 0: not decided yet, 1: available, -1: unavailable or switched off. */
static atomic_int state;

static bool available(void) {
  int s = atomic_load_explicit(&state, memory_order_relaxed);
  if (s == 0) {
    const char *e = getenv("TFCC_KERNEL_COPY");
    s = (!HAVE_VM_READV || (e && (strcmp(e, "off") == 0 || strcmp(e, "0") == 0))) ? -1 : 1;
    atomic_store_explicit(&state, s, memory_order_relaxed);
  }
  return s > 0;
}

/* ---------------------------------------------------------------- regions in whole huge pages */

#define HUGE ((uintptr_t)2 << 20)
#define REGIONS 8

typedef struct whole_region {
  uintptr_t lo, hi; /* lo 2 MiB aligned; hi == 0: a free slot */
  uint64_t *split;  /* a bit per huge page of [lo, hi): split */
} whole_region;

static pthread_mutex_t regions_mu = PTHREAD_MUTEX_INITIALIZER;
static whole_region regions[REGIONS];
static atomic_int n_regions; /* slots in use: a gather skips the lock when none is */

bool tfcc_kernel_copy_whole_add(const void *p, size_t len) {
  const uintptr_t lo = (uintptr_t)p;
  if (!p || !len || lo % HUGE || len > UINTPTR_MAX - lo) return false;
  const size_t pages = (size_t)((len + HUGE - 1) / HUGE);
  uint64_t *split = calloc((pages + 63) / 64, sizeof *split);
  if (!split) return false;
  bool added = false;
  pthread_mutex_lock(&regions_mu);
  for (size_t i = 0; i < REGIONS && !added; i++) {
    if (regions[i].hi) continue;
    regions[i] = (whole_region){lo, lo + len, split};
    atomic_fetch_add_explicit(&n_regions, 1, memory_order_relaxed);
    added = true;
  }
  pthread_mutex_unlock(&regions_mu);
  if (!added) free(split);
  return added;
}

void tfcc_kernel_copy_split(const void *a, const void *b) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  if (x >= y || atomic_load_explicit(&n_regions, memory_order_relaxed) == 0) return;
  pthread_mutex_lock(&regions_mu);
  for (size_t i = 0; i < REGIONS; i++) {
    whole_region *r = &regions[i];
    if (!r->hi || y <= r->lo || x >= r->hi) continue;
    const uintptr_t from = x > r->lo ? x : r->lo, to = y < r->hi ? y : r->hi;
    for (uintptr_t hp = (from - r->lo) / HUGE * HUGE; r->lo + hp < to; hp += HUGE) {
      const uintptr_t ha = r->lo + hp, hb = ha + HUGE;
      if (from > ha || to < hb) r->split[hp / HUGE / 64] |= (uint64_t)1 << (hp / HUGE % 64);
    }
  }
  pthread_mutex_unlock(&regions_mu);
}

void tfcc_kernel_copy_whole_remove(const void *p) {
  if (!p) return;
  pthread_mutex_lock(&regions_mu);
  for (size_t i = 0; i < REGIONS; i++) {
    if (!regions[i].hi || regions[i].lo != (uintptr_t)p) continue;
    free(regions[i].split);
    regions[i] = (whole_region){0, 0, NULL};
    atomic_fetch_sub_explicit(&n_regions, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&regions_mu);
}

#if HAVE_VM_READV
/* Whether [a, b) lies in one registered region, in huge pages none of which is split. */
static bool in_whole_pages(uintptr_t a, uintptr_t b) {
  if (atomic_load_explicit(&n_regions, memory_order_relaxed) == 0) return false;
  bool whole = false;
  pthread_mutex_lock(&regions_mu);
  for (size_t i = 0; i < REGIONS; i++) {
    const whole_region *r = &regions[i];
    if (!r->hi || a < r->lo || b > r->hi) continue;
    whole = true;
    for (uintptr_t hp = (a - r->lo) / HUGE; whole && r->lo + hp * HUGE < b; hp++)
      if (r->split[hp / 64] >> (hp % 64) & 1) whole = false;
    break;
  }
  pthread_mutex_unlock(&regions_mu);
  return whole;
}
#endif

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
/* The PAGEMAP_SCAN ioctl's ABI (include/uapi/linux/fs.h of Linux 6.7; older headers lack it):
 * the ranges of [start, end) whose pages have every category of category_mask, each reported
 * with the categories of return_mask. */
struct tfcc_page_region {
  uint64_t start, end, categories;
};
struct tfcc_pm_scan_arg {
  uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted,
      category_mask, category_anyof_mask, return_mask;
};
#define TFCC_PAGEMAP_SCAN _IOWR('f', 16, struct tfcc_pm_scan_arg)
#define TFCC_PAGE_IS_HUGE (1u << 6) /* a PMD-mapped transparent huge page (or hugetlb) */

/* 1: every page of [a, b) is in a huge page, 0: not, -1: no PAGEMAP_SCAN here. */
static int scan_huge(uintptr_t a, uintptr_t b) {
  int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct tfcc_page_region vec[2];
  struct tfcc_pm_scan_arg arg;
  memset(&arg, 0, sizeof arg);
  arg.size = sizeof arg;
  arg.start = a;
  arg.end = b;
  arg.vec = (uint64_t)(uintptr_t)vec;
  arg.vec_len = 2;
  arg.category_mask = TFCC_PAGE_IS_HUGE;
  arg.return_mask = TFCC_PAGE_IS_HUGE;
  /* the count of ranges found: the pages not in huge pages cut them */
  const int n = ioctl(fd, TFCC_PAGEMAP_SCAN, &arg);
  close(fd);
  if (n < 0) return -1;
  return n == 1 && vec[0].start == a && vec[0].end == b;
}

/* 1: [a, b) is one mapping of this process whose every byte is in huge pages (its
 * AnonHugePages in /proc/self/smaps), 0: not or not exactly one mapping, -1: unreadable. */
static int smaps_huge(uintptr_t a, uintptr_t b) {
  FILE *f = fopen("/proc/self/smaps", "re");
  if (!f) return -1;
  char line[256];
  int found = 0; /* 1: inside the entry of exactly [a, b) */
  int whole = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    char c;
    if (sscanf(line, "%lx-%lx %c", &lo, &hi, &c) == 3) { /* an entry's first line */
      if (found) break;
      if (lo <= a && a < hi) {
        if (lo != a || hi != b) break;
        found = 1;
      }
    } else if (found && strncmp(line, "AnonHugePages:", 14) == 0) {
      const unsigned long long kb = strtoull(line + 14, NULL, 10);
      whole = kb <= UINT64_MAX / 1024 && kb * 1024 >= (unsigned long long)(b - a);
      break;
    }
  }
  fclose(f);
  return whole;
}
#endif

bool tfcc_huge_pages_whole(const void *p, size_t len) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  const uintptr_t a = (uintptr_t)p;
  if (!p || !len || a % HUGE || len % HUGE || len > UINTPTR_MAX - a) return false;
  int r = scan_huge(a, a + len);
  if (r < 0) r = smaps_huge(a, a + len);
  return r > 0;
#else
  (void)p;
  (void)len;
  return false;
#endif
}

/* ---------------------------------------------------------------- the gather */

bool tfcc_kernel_gather(void *dst, const void *src, size_t row_bytes, size_t stride, size_t rows) {
  if (!available()) return false;
#if HAVE_VM_READV
  if (rows == 0 || row_bytes == 0) return true;
  if (stride >= row_bytes && rows <= (UINTPTR_MAX - (uintptr_t)src - row_bytes) / stride + 1 &&
      in_whole_pages((uintptr_t)src, (uintptr_t)src + (rows - 1) * stride + row_bytes))
    return false;            /* read in place */
  if (stride == row_bytes) { /* one contiguous range */
    if (rows > SIZE_MAX / row_bytes) return false;
    row_bytes *= rows;
    rows = 1;
  }
  const pid_t self = getpid();
  uint8_t *d = dst;
  const uint8_t *s = src;
  struct iovec remote[PIECES];
  while (rows > 0) {
    const size_t n = rows < PIECES ? rows : PIECES;
    for (size_t i = 0; i < n; i++) {
      remote[i].iov_base = (void *)(uintptr_t)(s + i * stride);
      remote[i].iov_len = row_bytes;
    }
    const struct iovec local = {d, n * row_bytes};
    ssize_t got;
    do {
      got = process_vm_readv(self, &local, 1, remote, (unsigned long)n, 0);
    } while (got < 0 && errno == EINTR);
    if (got < 0 && (errno == ENOSYS || errno == EPERM || errno == EACCES))
      atomic_store_explicit(&state, -1, memory_order_relaxed); /* a sandbox: never again */
    if (got < 0 || (size_t)got != n * row_bytes) return false;
    d += n * row_bytes;
    s += n * stride;
    rows -= n;
  }
  return true;
#else
  (void)dst;
  (void)src;
  (void)row_bytes;
  (void)stride;
  (void)rows;
  return false;
#endif
}
