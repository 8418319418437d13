/* The three lookup functions every kernel family's dispatch.c exposes over its table.
 *
 * A family keeps one `static const <type> kernels[]`, best variant first and the generic one
 * last, each entry with a `tfcc_isa isa` member, and writes
 *   TFCC_DISPATCH_TABLE_FNS(tfcc_<family>, tfcc_<family>_kernel)
 * after it to get
 *   <prefix>_select(isa)    the first variant allowed at dispatch level `isa` (generic if none),
 *   <prefix>_kernel_count() the table's length (for tests, benches and `tfcc cpu-info`),
 *   <prefix>_kernel_at(i)   entry i, or NULL out of range.
 * Families that choose by more than the ISA level (extra CPU features, shape limits) write
 * their own select. */
#ifndef TFCC_KERNELS_DISPATCH_TABLE_H
#define TFCC_KERNELS_DISPATCH_TABLE_H

#include "cpu/cpu_info.h"

#define TFCC_DISPATCH_TABLE_FNS(prefix, type)                                         \
  enum { prefix##_n_kernels_ = (int)(sizeof kernels / sizeof kernels[0]) };           \
  const type *prefix##_select(tfcc_isa isa) {                                         \
    for (int i = 0; i < prefix##_n_kernels_; i++)                                     \
      if (tfcc_isa_level_fits(kernels[i].isa, isa)) return &kernels[i];               \
    return &kernels[prefix##_n_kernels_ - 1];                                         \
  }                                                                                   \
  int prefix##_kernel_count(void) { return prefix##_n_kernels_; }                     \
  const type *prefix##_kernel_at(int i) {                                             \
    return i >= 0 && i < prefix##_n_kernels_ ? &kernels[i] : NULL;                    \
  }

#endif
