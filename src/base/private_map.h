/* Large private buffers (a decrypted model, a file's copy in memory): anonymous mappings made of
 * whole huge pages where the size allows, optionally populated up front. */
#ifndef TFCC_BASE_PRIVATE_MAP_H
#define TFCC_BASE_PRIVATE_MAP_H

#include <stdbool.h>
#include <stddef.h>

/* The system page size. */
size_t tfcc_page_size(void);

/* len bytes (a multiple of the page size, > 0) of private anonymous read-write memory: starting
 * on a 2 MiB boundary, huge pages advised, when len is at least 2 MiB; page aligned otherwise.
 * populate faults every page in now, in one call (MADV_POPULATE_WRITE; kernels before 5.14
 * leave it to the first writes), so that running out of memory is a clean NULL here rather
 * than the OOM killer later. NULL when out of memory. Released with munmap(p, len). */
void *tfcc_map_private(size_t len, bool populate);

#endif
