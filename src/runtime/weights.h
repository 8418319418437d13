/* Weights generations: the constants of a model plus everything op->init computed from them
 * (prepacked weights, fixed-point multipliers), as one reference-counted object.
 *
 * The model publishes its current generation through one atomic pointer. A run takes a
 * reference (atomic load + lock-free increment-if-not-zero), binds the session's plan to that
 * generation if it is not already bound, runs, and drops the reference. tfcc_model_update_weights
 * builds a new generation off the hot path, swaps the pointer, waits briefly for runs still on
 * the old generation to finish and frees it (or leaves that to the last such run).
 *
 * Generation structs are never freed before the model, only their contents, so a stale pointer
 * read by a run is always safe to test (its refs are 0 once retired). */
#ifndef TFCC_RUNTIME_WEIGHTS_H
#define TFCC_RUNTIME_WEIGHTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "ir/ir.h"

struct tfcc_model;

typedef struct tfcc_weights {
  atomic_int refs;      /* the model while current + runs in flight; 0 = retired and freed */
  uint64_t id;          /* 0: the weights the model was loaded with */
  tfcc_graph *graph;    /* graph holding this generation's constants and node params */
  tfcc_graph own_graph; /* generations >= 1: read from their own file */
  void *mapping;        /* file bytes, private copy or mapping (path update): munmap */
  size_t mapping_size;
  void *owned;                /* private copy (buffer update) */
  struct tfcc_wcache *wcache; /* generations >= 1 of a model loaded with a packed-weights cache:
                                 the cache at the model's path, made for these weights; freed
                                 after the params that point into it */
  struct tfcc_weights *next;  /* all generations >= 1 of the model, newest first */
  /* its constants are a private anonymous copy (generation 0: tfcc_model.file_copy; >= 1: an
   * update's copy of its file or buffer), where mincore tells which pages are resident */
  bool consts_copy;
  /* the last packed bytes of its load, on a huge page the load's trim left in 4 KiB pages
   * (tfcc_wmem_trim; NULL, 0: none) */
  const void *small;
  size_t small_len;
  /* bit k: a session of subgraph k (k < 32) read this generation's pages at its creation
   * (runtime/session.c, touch_generation): later sessions do not read them again */
  atomic_uint touched;
  /* how many sessions' creations read them: one per subgraph, unless two are created at once
   * and both find the bit clear (harmless: both read); lifecycle.test_load_plan checks it */
  atomic_uint reads;
} tfcc_weights;

/* Reference to the model's current generation. Lock-free; never fails. */
tfcc_weights *tfcc_weights_acquire(struct tfcc_model *m);
/* Drops a reference; the last one frees the generation's contents. */
void tfcc_weights_release(struct tfcc_model *m, tfcc_weights *w);

/* Releases the node params (op->release or free) of subgraph 0 and clears them. */
void tfcc_graph_release_params(tfcc_graph *g);

/* Names the first difference between the model's graph and a new weights file's graph (neu).
 * folded: both graphs have been through the graph passes and init (also compares constants). */
tfcc_status tfcc_weights_check_signature(const tfcc_graph *model, const tfcc_graph *neu,
                                         bool folded, tfcc_err *err);
/* Binds neu's operators node by node as the model's graph is bound (same operator and version
 * at each index; nodes a pass fused are bound by their file operator, the passes redo the
 * fusion). Names the first difference. */
tfcc_status tfcc_weights_bind_like(const tfcc_graph *model, tfcc_graph *neu, tfcc_err *err);

/* Waits for the cache file of the model's last weight update to be written (the update writes
 * it on a thread of its own after the switch). Under the update lock, or when no update can
 * run (model_free; tests). */
void tfcc_weights_join_writer(struct tfcc_model *m);

/* Called between the first and the second integrity check of a file update (tests only). */
extern void (*tfcc_weights_test_hook)(const char *path);

#endif
