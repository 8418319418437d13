/* Releasing the constant bytes of a model's own copy of its file that no operator reads any more.
 *
 * Operators that pack or transform a constant (GEMM panels, Winograd, the fused expand filter)
 * keep their own copy, or take it from the weights cache; the source bytes are then never read
 * again. During the first load the model gives operators this store (ops/packed_store.h; it
 * forwards get and put to the weights cache, if any): an operator that will read only its
 * packing from now on, at every shape, says so with tfcc_packed_consumed. When the last reader
 * of a constant has said so, the whole pages that lie entirely inside that constant's own bytes
 * are released (madvise MADV_DONTNEED): never a page that also holds FlatBuffer tables, another
 * constant, metadata or the vector length in front of the constant. The whole 2 MiB pages of a
 * constant of 2 MiB or more are released as soon as it is consumed, everything else when the
 * load ends: releasing a 4 KiB piece splits the huge page of the private copy it lies in, and
 * its neighbours, still to be packed, are then read through 4 KiB pages (2x slower packing of
 * ResNet-50 measured in a VM, bench/README.md). Only a constant of 32 KiB to 1 MiB keeps a
 * huge page it shares with released bytes whole until it is read: a larger one is read through
 * at most 2 MiB of 4 KiB pages, and holding its neighbours' released bytes while it is packed
 * put them on top of its own source + packing double, the peak of the load (MobileNetV2 f32:
 * 1.3 MiB for the 4.9 MiB classifier; ResNet-50 int8: 1.0 MiB for the 2000 KiB one;
 * bench/README.md); a smaller one (a bias, a shape vector) is read through a few 4 KiB pages at
 * no measurable cost, and holding a huge page of consumed filters for it until the last nodes
 * cost ResNet-50 int8 1.3 MiB of its peak.
 *
 * A constant of 2 MiB or more that its last reader packs in source order (a large float CONV_2D
 * filter: tfcc_f32_pack_stream) is given back while it is packed: the reader names the prefix
 * it has read (consumed_prefix, ops/packed_store.h) and its whole huge pages go at once, so the
 * source shrinks as its packing grows (the load's peak held both whole: ResNet-18 f32's 9.4 MB
 * filters, bench/README.md "load56"); what is left goes when it says consumed, nothing twice.
 *
 * The dense copies the reader made of sparse FULLY_CONNECTED weights (graph memory: tensors
 * marked from_sparse) are counted the same way, and the whole pages inside each are given back
 * as soon as its readers have said consumed (a float FULLY_CONNECTED packs them; a hybrid one
 * reads them at every run and keeps them); they are not ranges of the model's bytes (not in
 * rel). Like the rest, only in a model that owns its bytes (the load runs no release else).
 *
 * The ranges the reader copied into the graph (per-channel quantization vectors: ResNet-50
 * int8 0.61 MiB in one run) are given back when the prepare pass begins: the whole pages of
 * each run of them whose gaps hold only zero bytes (alignment padding; a released page reads
 * back as zeros, or as the file, so those gaps read the same).
 *
 * Readers are counted per data pointer over every subgraph: node inputs and intermediates of
 * nodes left after the graph passes, node outputs, subgraph inputs and outputs, signature
 * tensors, variables, sparse tensors and metadata buffers (the last ones never release).
 * Constants whose bytes overlap keep their pages. Only memory the model owns is released (its
 * private copy or mapping of a file, an owned buffer such as a decrypted model), never a
 * caller's buffer. An owned buffer's pages (a decrypted model's plaintext) are zeroed before
 * they are given back, as its free function would wipe them, and only whole 2 MiB pages of it
 * are released (its plaintext lies in huge pages: splitting them cost more than the load). A released page of anonymous memory reads as zeros afterwards, one of a file
 * mapping rereads the file: nothing may read it. What is read from the file after the load
 * (the watermark) is captured before (model_watermark.c). Env TFCC_DEBUG_RELEASE_TRAP=1 makes
 * released pages inaccessible instead (PROT_NONE; made accessible again before the model's
 * memory is freed), so that a test run faults on any read of a released byte. */
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
  int32_t readers;   /* operators still reading it; KEEP and more: never released */
  int32_t last_node; /* the last node of subgraph 0 reading it (INT32_MAX: another subgraph) */
  bool released;     /* every reader said consumed */
  bool freed;        /* its pages were given back */
  bool huge_done;    /* its whole 2 MiB pages [huge_a, huge_b) were given back during the load */
  bool left_done, right_done; /* and its pages below huge_a, from huge_b */
  bool copied;                /* a range the reader copied (tfcc_graph.copied), not a constant */
  /* graph memory, not the model's bytes: a dense copy the reader made of sparse
   * FULLY_CONNECTED weights (tfcc_ir_tensor.from_sparse); its whole pages go as soon as it
   * is consumed, and are not in rel (not a range of the file) */
  bool graph_owned;
  uintptr_t huge_a, huge_b;
  /* whole 2 MiB pages of a prefix given back while its last reader packed it (consumed_prefix
   * in ops/packed_store.h): [pre_a, pre_b), empty when equal */
  uintptr_t pre_a, pre_b;
} tfcc_cr_entry;

typedef struct tfcc_cr_seen {
  const void *owner, *data;
} tfcc_cr_seen;

typedef struct tfcc_cr_range {
  void *p;
  size_t len;
  bool copied; /* a run of ranges the reader copied: a warm load must still read it */
} tfcc_cr_range;

typedef struct tfcc_const_release {
  tfcc_packed_store store;  /* first: what operators see */
  tfcc_packed_store *inner; /* the weights cache's store, or NULL */
  const uint8_t *lo, *hi;   /* the releasable region */
  tfcc_cr_entry *e;         /* sorted by data, disjoint */
  size_t n;
  tfcc_cr_seen *seen; /* (operator, constant) pairs already counted */
  size_t n_seen, cap_seen;
  tfcc_cr_range *trapped; /* TFCC_DEBUG_RELEASE_TRAP: ranges made PROT_NONE */
  size_t n_trapped, cap_trapped;
  size_t page;
  bool trap;
  bool wipe;  /* zero released bytes before giving the pages back (owned buffers: plaintext) */
  bool eager; /* release every constant as soon as it is consumed (not only the large ones) */
  bool sealed;
  bool preparing;   /* operator init is over: the first prepare pass runs (in node order) */
  int32_t progress; /* the last node of that pass whose packing the store was asked for */
  size_t released_bytes;
  /* optional: [a, b) was never touched (a range a warm load did not read from its file):
   * released without a system call, there is nothing to give back */
  bool (*untouched)(void *user, uintptr_t a, uintptr_t b);
  void *untouched_user;
  tfcc_cr_range *rel; /* the ranges released (for tfcc_const_release_privatize) */
  size_t n_rel, cap_rel;
  bool rel_lost;         /* a range could not be remembered */
  bool releasing_copied; /* release_copied is running */
  /* the runs of copied ranges are given back by tfcc_const_release_deferred, not when the
   * prepare pass begins (a load writing a weights cache file: they go into its kept pages) */
  bool defer_copied;
  tfcc_cr_range *deferred; /* those runs, page aligned */
  size_t n_deferred, cap_deferred;
} tfcc_const_release;

/* Counts the readers of g's constants in region[0..region_size) (after the graph passes,
 * before operator init). false: out of memory (r then releases nothing but still forwards
 * to inner). */
bool tfcc_const_release_init(tfcc_const_release *r, const tfcc_graph *g, const void *region,
                             size_t region_size, bool wipe, tfcc_packed_store *inner);
/* Gives back the runs of copied ranges that defer_copied held (also after the seal). */
void tfcc_const_release_deferred(tfcc_const_release *r);
/* Operator init is over and the first prepare pass (node order) begins: from now on the
 * constants only nodes before the last one that asked the store for a block read are no
 * longer taken as still to be read at load (their huge pages may be split). */
void tfcc_const_release_prepare(tfcc_const_release *r);
/* The load is over: releases what is left; later consumed calls are ignored (get/put still go
 * to inner). */
void tfcc_const_release_seal(tfcc_const_release *r);
/* Before the region is unmapped or freed: trapped pages become accessible again. */
void tfcc_const_release_free(tfcc_const_release *r);

/* The model's bytes are a private, writable mapping of its file (runtime/model_file.h,
 * TFCC_MF_COW): after the seal, gives every page of region[0..size) that r did not release
 * its own copy (MADV_POPULATE_WRITE, copy on write), so that nothing the model reads later
 * lies on the file. Released pages are never touched (never read from the file at all when
 * the weights cache supplied their packing). r NULL: every page. false: out of memory. */
bool tfcc_const_release_privatize(const tfcc_const_release *r, void *region, size_t size);

#endif
