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
 * sandbox, or env TFCC_KERNEL_COPY=off): the caller reads the source itself. */
bool tfcc_kernel_gather(void *dst, const void *src, size_t row_bytes, size_t stride, size_t rows);

#endif
