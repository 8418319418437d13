/* Memory planning: buffers with lifetimes [first, last] (node indices, inclusive) get offsets in
 * one arena so that buffers alive at the same time never overlap. Greedy best-fit in several
 * orders (by decreasing size, as TFLite's ArenaPlanner, then others), stopping at the first that
 * meets the lower bound: the largest total of simultaneously live buffers; when none does, a
 * bounded repair of the best order (the buffer on top placed earlier). */
#ifndef TFCC_PLAN_ARENA_PLAN_H
#define TFCC_PLAN_ARENA_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

typedef struct tfcc_plan_buffer {
  size_t size;   /* bytes (0: ignored) */
  int32_t first; /* first node that uses it */
  int32_t last;  /* last node that uses it */
  size_t offset; /* out */
} tfcc_plan_buffer;

/* Assigns offsets (aligned to `align`, a power of two) and returns the arena size in *arena. */
tfcc_status tfcc_arena_plan(tfcc_plan_buffer *bufs, int32_t n, size_t align, size_t *arena,
                            tfcc_err *err);

/* Largest sum of sizes of buffers alive at one node (the lower bound of any plan). */
size_t tfcc_arena_lower_bound(const tfcc_plan_buffer *bufs, int32_t n, size_t align);

#endif
