/* The table of kernel families and their ISA variants (src/kernels/kernel_families.c).
 *
 * It is what `tfcc cpu-info` and `tfcc bench` report as "which kernel family dispatches where".
 * A kernel engineer who adds a variant adds one row to the table, and the family's dispatch code
 * may ask the table for the name of the variant to run (tfcc_kernel_variant) so the two cannot
 * drift apart. */
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
