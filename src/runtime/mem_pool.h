/* Where session arenas come from. A runtime may reserve one region up front
 * (memory_pool_bytes) that arenas are carved from first-fit; without one, or when it is full,
 * each arena is its own mapping. Large arenas use huge pages: MAP_HUGETLB when asked
 * (huge_pages) and the system has them reserved, else transparent huge pages
 * (MADV_HUGEPAGE), else plain pages. Only used when sessions are (re)planned, never by run. */
#ifndef TFCC_RUNTIME_MEM_POOL_H
#define TFCC_RUNTIME_MEM_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

typedef struct tfcc_mem_pool tfcc_mem_pool;

typedef struct tfcc_arena_mem {
  void *ptr;     /* 64-byte aligned, zero-filled */
  size_t size;   /* bytes asked for */
  size_t mapped; /* bytes mapped (0: from the pool or malloc) */
  int kind;      /* private: how to give it back */
} tfcc_arena_mem;

/* reserve == 0: no pool (each arena maps its own). */
tfcc_status tfcc_mem_pool_create(size_t reserve, bool huge_pages, tfcc_mem_pool **out,
                                 tfcc_err *err);
void tfcc_mem_pool_destroy(tfcc_mem_pool *p);

/* pool may be NULL. */
tfcc_status tfcc_arena_mem_alloc(tfcc_mem_pool *pool, size_t bytes, tfcc_arena_mem *out,
                                 tfcc_err *err);
void tfcc_arena_mem_free(tfcc_mem_pool *pool, tfcc_arena_mem *m);

/* Makes every page of the arena resident (the default prefault of a session's creation: its
 * first run then faults none). A mapping of its own is populated in one call
 * (MADV_POPULATE_WRITE, Linux 5.14: the pages stay zero, no byte is written from user space);
 * elsewhere, or where the kernel refuses it, the arena's bytes are written with zeros (they are
 * zero already). */
void tfcc_arena_mem_prefault(const tfcc_arena_mem *m);

/* "hugetlb", "thp", "pages", "heap", "pool" for messages. */
const char *tfcc_arena_mem_kind(const tfcc_arena_mem *m);

#endif
