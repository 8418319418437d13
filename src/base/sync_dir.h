/* fsync of the directory holding a file, after a rename into it (the rename itself durable).
 * Header-only, as base/private_map.h: libtfcc (the weights cache) and libtfcc_crypto (the
 * encrypted one, which sees only libtfcc's public symbols) each get their own copy. */
#ifndef TFCC_BASE_SYNC_DIR_H
#define TFCC_BASE_SYNC_DIR_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
