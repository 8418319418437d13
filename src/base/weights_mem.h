/* Memory for packed and transformed weights (GEMM panels, Winograd filters, q8 depthwise
 * packing) and for the params of operators that a run reads at every node (ops/params_mem.h).
 *
 * A model's packing writes megabytes of fresh memory once. From malloc, every 4 KiB page of it
 * costs a page fault on first touch, which on a virtual machine is the larger part of a cold
 * load (MobileNetV2 float: 3.4 M floats packed in ~1.7 ms of copying, ~40 ms of faults). This
 * allocator takes the memory in 2 MiB-aligned regions of transparent huge pages, populated in
 * one call per block (MADV_POPULATE_WRITE): one fault per 2 MiB, or none. A region reserves
 * 256 MiB of address space (inaccessible, so costing nothing until committed a huge page at a
 * time) and blocks are cut from it one after the other, across huge page boundaries: only the
 * huge page being cut from holds unused bytes (blocks cut from 2 MiB chunks each left the rest
 * of a chunk that did not fit the next block resident and unused: 2.3 MiB for ResNet-50 int8,
 * bench/README.md). When a block is freed, the whole huge pages that no live block uses and
 * that will not be cut from again are given back; a region is unmapped when its last block is
 * freed (the current one keeps its first huge page). Part of a huge page is given back only
 * by tfcc_wmem_trim, once per load: splitting the huge pages of every retired chunk made a VM
 * charge the first run for each 4 KiB page of them as for fresh memory (bench/README.md
 * "First run"); splitting the last one only measured no first-run cost. Thread safe (a mutex;
 * loads only, never the run path). */
#ifndef TFCC_BASE_WEIGHTS_MEM_H
#define TFCC_BASE_WEIGHTS_MEM_H

#include <stdbool.h>
#include <stddef.h>

/* 64-byte aligned, uninitialised block of bytes (0: a minimal block); NULL when out of memory. */
void *tfcc_wmem_alloc(size_t bytes);
/* The same, its pages not populated (but for the header's): a packing that writes the block
 * front to back while it gives back its source populates each range with tfcc_wmem_populate
 * before writing it, so that the block becomes resident as the source shrinks (a load's
 * peak: a large filter and its packing not resident whole together; bench/README.md load56). */
void *tfcc_wmem_alloc_unpopulated(size_t bytes);
/* Populates the pages of [p, p + bytes) of a block (MADV_POPULATE_WRITE: in huge pages where
 * the block lies in them, one call instead of a fault per page); nothing where unsupported (the
 * pages then fault in on first touch). */
void tfcc_wmem_populate(void *p, size_t bytes);
/* A block as tfcc_wmem_alloc's, cut only where it costs no new memory: from the free part of
 * the huge page blocks are being cut from (the last weights' huge page, resident already), so
 * that small tables read at every run (a session's plan) lie on that huge page with the
 * weights, and not on 4 KiB pages of the C heap. NULL when it does not fit there (the caller
 * takes other memory) or on a platform without these regions. Freed by tfcc_wmem_free. */
/* rewhole: when the load's trim split that huge page (see tfcc_wmem_trim), make it one huge page
 * again (a fresh huge page populated and the bytes copied: 4-19 ms at a session's creation), so
 * that runs read the weights' tail and the tables without 4 KiB page walks; sessions ask for it
 * with their prefault option. The first spare block of a page decides: later ones never
 * rebuild it (its tables are being written by their session). */
void *tfcc_wmem_alloc_spare(size_t bytes, bool rewhole);
/* Frees a block from tfcc_wmem_alloc or tfcc_wmem_alloc_spare (NULL: nothing). */
void tfcc_wmem_free(void *p);
/* on: the calling thread's blocks until it is called with false are expected to be operators'
 * params only (a load that takes its packed weights from a weights cache file, which packs
 * nothing): if the first of them opens the process's first region, that region's first huge
 * page is put in 4 KiB pages, so that the params make resident only their own pages. Whole, it
 * was a fresh 2 MiB page zeroed at the load's first block, then split by the trim (its unused
 * part given back): 0.2 + 0.15 ms of a 3.7 ms warm MobileNetV2 f32 load on the test VM
 * (bench/README.md, "load7"), and 2 MiB more at the peak until the trim. The runs read those
 * params through 4 KiB pages, as they did after the trim's split. Blocks of a larger packing
 * (a block missing from the cache) cut there are populated page by page and the page is made
 * one huge page again as restore_huge does for a large block's tail (tfcc_wmem_trim). */
void tfcc_wmem_small_first(bool on);
/* A load's packing is over: the unused tail of the huge page being cut from, if 1 MiB or more
 * (was 256 KiB: the last blocks' 4 KiB pages stalled the int8 ResNets' runs, bench/README.md
 * "tail2"), is given back, and that huge page stays in 4 KiB pages (later blocks cut from it are
 * populated page by page), unless the first tfcc_wmem_alloc_spare block cut from it (a session's
 * plan, with its prefault option) makes it one huge page again, when every block in it was cut
 * by the trimming thread. It was resident for nothing until the next load's packing: ResNet-50
 * int8 1.4 MiB above its packed weights (bench/README.md). The huge pages a large block's tail
 * left in 4 KiB pages (so that the load's peak held only the block's own pages) and that later
 * blocks have filled are made huge pages again: rebuilt at once (a fresh huge page, a copy,
 * mremap over) where the calling thread cut all their blocks, else advised for khugepaged to
 * collapse. In 4 KiB pages they were a source of latency tail (bench/README.md, "The tail at 1
 * thread"). Call it from the thread that did the load's packing, once that packing is over.
 * Returns the bytes, from *small (small may be NULL), of the huge page it left in 4 KiB pages
 * when the calling thread cut every block in it (written: its packing is over) and the last
 * one since its previous trim, up to the end of that block: this load's last packed weights
 * (and its thread's earlier ones on that page), which a run reads through 4 KiB pages (on a VM
 * that shadows page tables, the first user access of each costs: a session's creation reads
 * them, runtime/session.c). 0 (*small NULL) otherwise. */
size_t tfcc_wmem_trim(const void **small);

#endif
