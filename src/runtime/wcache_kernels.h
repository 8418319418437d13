/* The kernels a weights cache's blocks are packed for: part of the cache's identity. */
#ifndef TFCC_RUNTIME_WCACHE_KERNELS_H
#define TFCC_RUNTIME_WCACHE_KERNELS_H

#include <stddef.h>

#include "tfcc/tfcc.h"

/* The names of the kernels whose packed layout a cache block holds at dispatch level isa on
 * this CPU (docs/weights_cache.md, "Identity"), space separated, into buf (cap bytes, NUL
 * terminated when cap > 0). Returns the length the whole list needs, as snprintf. A kernel
 * whose layout changes takes another name, so a cache packed for the old one is foreign. */
size_t tfcc_wc_kernel_names(tfcc_isa isa, char *buf, size_t cap);

#endif
