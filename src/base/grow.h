/* Room for one more element in a growable array (load-time bookkeeping, never the run path). */
#ifndef TFCC_BASE_GROW_H
#define TFCC_BASE_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* items holds n elements of elem_size bytes in room for *cap. Returns the array with room for
 * n + 1: items itself while n < *cap, else a reallocation to twice *cap (first_cap the first
 * time), with *cap updated. NULL if the memory cannot be had: items and *cap are unchanged. */
static inline void *tfcc_grow(void *items, size_t *cap, size_t n, size_t elem_size,
                              size_t first_cap) {
  if (n < *cap) return items;
  const size_t c = *cap ? 2 * *cap : first_cap;
  if (c > SIZE_MAX / elem_size) return NULL;
  void *p = realloc(items, c * elem_size);
  if (p) *cap = c;
  return p;
}

#endif
