/* Releasing the model file's constant bytes that no operator reads any more.
 *
 * Operators that pack or transform a constant (GEMM panels, Winograd, the fused expand filter)
 * keep their own copy, or take it from the weights cache; the source bytes in the model's
 * private copy (or mapping) of the file are then never read again. During the first load the
 * model gives operators this store (ops/packed_store.h; it forwards get and put to the weights
 * cache, if any): an operator that will read only its packing from now on, at every shape,
 * says so with tfcc_packed_consumed. When the last reader of a constant has said so, the
 * pages inside it (a constant of 2 MiB or more), or the whole 2 MiB pages inside the run of
 * such constants next to each other in the file that it completes, are released at once (madvise MADV_DONTNEED), so the load's peak stays near the
 * packed weights instead of the file plus the packed weights; the rest of those runs, at page
 * granularity, when the load ends. (Releasing 4 KiB pieces during the load would split the
 * private copy's huge pages under the packing still reading it: measured 2-3x slower packing
 * in a VM, where a TLB miss costs a two-level page walk.)
 *
 * Readers are counted per data pointer over every subgraph: node inputs and intermediates of
 * nodes left after the graph passes, subgraph inputs and outputs, signature tensors. A
 * constant any of them still reads, or that shares a page with one, keeps its pages. Only
 * memory the model owns (its private copy or mapping of a file) is released, never a caller's
 * buffer. A private copy's released pages read as zeros afterwards: env
 * TFCC_DEBUG_RELEASE_TRAP=1 makes them inaccessible instead (PROT_NONE), so that a test run
 * faults on any read of a released byte. */
#ifndef TFCC_RUNTIME_CONST_RELEASE_H
#define TFCC_RUNTIME_CONST_RELEASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"
#include "ops/packed_store.h"

typedef struct tfcc_cr_entry {
  const uint8_t *data;
  size_t bytes;
  int32_t readers;
  bool released; /* every reader said consumed */
} tfcc_cr_entry;

typedef struct tfcc_cr_seen {
  const void *owner, *data;
} tfcc_cr_seen;

typedef struct tfcc_const_release {
  tfcc_packed_store store;  /* first: what operators see */
  tfcc_packed_store *inner; /* the weights cache's store, or NULL */
  const uint8_t *lo, *hi;   /* the releasable region */
  tfcc_cr_entry *e;         /* sorted by data */
  size_t n;
  tfcc_cr_seen *seen;       /* (operator, constant) pairs already counted */
  size_t n_seen, cap_seen;
  size_t page;
  bool trap;
  bool sealed;
  size_t released_bytes;
} tfcc_const_release;

/* Counts the readers of g's constants in region[0..region_size) (after the graph passes,
 * before operator init). false: out of memory (r then releases nothing but still forwards
 * to inner). */
bool tfcc_const_release_init(tfcc_const_release *r, const tfcc_graph *g, const void *region,
                             size_t region_size, tfcc_packed_store *inner);
/* The load is over: later consumed calls are ignored (get/put still go to inner). */
void tfcc_const_release_seal(tfcc_const_release *r);
void tfcc_const_release_free(tfcc_const_release *r);

#endif
