/* Gathers through process_vm_readv on the calling process (contract in kernel_copy.h). */
#include "base/kernel_copy.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <errno.h>
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

bool tfcc_kernel_gather(void *dst, const void *src, size_t row_bytes, size_t stride, size_t rows) {
  if (!available()) return false;
#if HAVE_VM_READV
  if (rows == 0 || row_bytes == 0) return true;
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
