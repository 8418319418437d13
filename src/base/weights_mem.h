/* Memory for packed and transformed weights (GEMM panels, Winograd filters).
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
 * freed (the current one keeps its first huge page). Never part of a huge page: that would
 * split it, and a VM then charges the first run for every 4 KiB page of it as for fresh
 * memory. Thread safe (a mutex; loads only, never the run path). */
#ifndef TFCC_BASE_WEIGHTS_MEM_H
#define TFCC_BASE_WEIGHTS_MEM_H

#include <stddef.h>

/* 64-byte aligned, uninitialised block of bytes (0: a minimal block); NULL when out of memory. */
void *tfcc_wmem_alloc(size_t bytes);
/* Frees a block from tfcc_wmem_alloc (NULL: nothing). */
void tfcc_wmem_free(void *p);

#endif
