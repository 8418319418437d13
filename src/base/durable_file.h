/* Writing a file durably: every byte of a buffer (short writes and EINTR retried), and the fsync
 * of the directory holding a file after a rename into it (the rename itself durable).
 * Header-only, as base/private_map.h: libtfcc (the weights cache) and libtfcc_crypto (the
 * encrypted one, which sees only libtfcc's public symbols) each get their own copy. */
#ifndef TFCC_BASE_DURABLE_FILE_H
#define TFCC_BASE_DURABLE_FILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline bool tfcc_write_all(int fd, const void *p, size_t n) {
  const uint8_t *b = p;
  while (n) {
    const ssize_t w = write(fd, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    b += w;
    n -= (size_t)w;
  }
  return true;
}

static inline void tfcc_sync_dir_of(const char *path) {
  char dir[4096];
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else if (slash == path)
    snprintf(dir, sizeof dir, "/");
  else
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    (void)fsync(fd);
    close(fd);
  }
}

#endif
