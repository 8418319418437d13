/* Memory for packed and transformed weights (GEMM panels, Winograd filters).
 *
 * A model's packing writes megabytes of fresh memory once. From malloc, every 4 KiB page of it
 * costs a page fault on first touch, which on a virtual machine is the larger part of a cold
 * load (MobileNetV2 float: 3.4 M floats packed in ~1.7 ms of copying, ~40 ms of faults). This
 * allocator takes the memory in 2 MiB-aligned regions of transparent huge pages, populated in
 * one call per block (MADV_POPULATE_WRITE): one fault per 2 MiB, or none. Blocks are cut one
 * after the other from chunks of whole huge pages (a block larger than 2 MiB starts a chunk of
 * its own size rounded up); a chunk is unmapped when its last block is freed, and the whole
 * huge pages of the unused tail of a chunk no longer cut from are given back (never part of a
 * huge page: that would split it, and a VM then charges the first run for every 4 KiB page of
 * it as for fresh memory), so each such chunk keeps under 2 MiB unused, one partly used chunk
 * is cut from at a time, plus up to four empty 2 MiB chunks are kept for the next
 * load (a replaced model's pages reused without new faults). Thread safe (a mutex; loads only,
 * never the run path). */
#ifndef TFCC_BASE_WEIGHTS_MEM_H
#define TFCC_BASE_WEIGHTS_MEM_H

#include <stddef.h>

/* 64-byte aligned, uninitialised block of bytes (0: a minimal block); NULL when out of memory. */
void *tfcc_wmem_alloc(size_t bytes);
/* Frees a block from tfcc_wmem_alloc (NULL: nothing). */
void tfcc_wmem_free(void *p);

#endif
