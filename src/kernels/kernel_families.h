/* The registry of kernel families (src/kernels/kernel_families.c): one row per family, its
 * variants read from the family's dispatch table (kernels/dispatch_table.h).
 *
 * It is what `tfcc cpu-info` and `tfcc bench` report as "which kernel family dispatches where".
 * A kernel engineer who adds a variant adds its row to the family's dispatch table only. */
#ifndef TFCC_KERNELS_KERNEL_FAMILIES_H
#define TFCC_KERNELS_KERNEL_FAMILIES_H

#include "tfcc/tfcc.h"

/* Whether a kernel built for `need` may run at dispatch level `level`: generic runs
 * everywhere; x86 levels include the lower x86 levels; NEON only at NEON. */
int tfcc_kernel_isa_fits(tfcc_isa need, tfcc_isa level);

/* Name of the variant of `family` chosen at `level` (the highest that fits), or NULL if the
 * family is unknown. */
const char *tfcc_kernel_variant(const char *family, tfcc_isa level);

#endif
