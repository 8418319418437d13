/* Gathering bytes of this process's memory into a buffer through the kernel.
 *
 * Packing a model's weights reads each source byte once. Where those bytes lie in a private
 * copy whose huge pages were split (a neighbouring constant given back, runtime/
 * const_release.h), every 4 KiB page is first touched by the packing itself, and on a virtual
 * machine whose host keeps shadow page tables (PVM) each such first touch is an exit to the
 * host: about 7-8 us a page on the test VM, 30 ms for 16 MiB read in place against 2 ms copied
 * by the kernel into a buffer that stays in L2 (bench/README.md, "cold2"). The kernel reads the
 * pages through its own mapping of memory (process_vm_readv on the calling process), so the
 * process's page tables are never walked by the hardware for them. Load path only (a system
 * call per gather); not on the run path. */
#ifndef TFCC_BASE_KERNEL_COPY_H
#define TFCC_BASE_KERNEL_COPY_H

#include <stdbool.h>
#include <stddef.h>

/* Copies rows pieces of row_bytes bytes each, the first at src and each next one stride bytes
 * after the previous (stride == row_bytes: one contiguous range), into dst back to back.
 * true: every byte copied. false: nothing usable (no such system call here, refused by a
 * sandbox, or env TFCC_KERNEL_COPY=off), or every piece lies in huge pages registered as
 * whole (below), which the caller reads faster in place: the caller reads the source itself. */
bool tfcc_kernel_gather(void *dst, const void *src, size_t row_bytes, size_t stride, size_t rows);

/* Memory read in place at full speed: a region the caller knows lies in whole huge pages (a
 * private copy of a model file, populated in huge pages). A gather from it copies nothing
 * (false above: the packing reads it in place, from L2 after the first row, at one page-table
 * entry per 2 MiB), until a piece of one of its huge pages is given back
 * (tfcc_kernel_copy_split: the kernel splits that huge page into 4 KiB pages, each a first
 * touch again); a gather touching a split huge page goes through the kernel as before. The
 * registry is global (a few regions; a full one registers nothing): a region is registered for
 * a load's packing and removed after it. Which way a gather goes changes its speed, never the
 * bytes. p: 2 MiB aligned; false: not registered (full, out of memory, not aligned). */
bool tfcc_kernel_copy_whole_add(const void *p, size_t len);
/* [a, b) of a registered region was given back (MADV_DONTNEED) or its protection changed:
 * the huge pages it covers only in part are split from now on. Anything else: no effect. */
void tfcc_kernel_copy_split(const void *a, const void *b);
/* Forgets the region registered at p (no effect if none). */
void tfcc_kernel_copy_whole_remove(const void *p);
/* Whether every 2 MiB of [p, p + len) (p 2 MiB aligned, len a multiple of 2 MiB) is mapped by
 * one huge page of this process now, asked of that range alone: the PAGEMAP_SCAN ioctl of
 * /proc/self/pagemap (Linux 6.7 on), else the range's own entry in /proc/self/smaps when it is
 * one mapping of exactly that range (its AnonHugePages). false where neither can tell (another
 * thread's memory never counts: the check is per range, not a process-wide delta). */
bool tfcc_huge_pages_whole(const void *p, size_t len);

#endif
