/* Kernel tests run every variant of a family that this CPU can run at its dispatch level
 * (tfcc_cpu_dispatch_isa: the CPU's best, capped by TFCC_ISA) and say which they pass over:
 *
 *   TFCC_EACH_VARIANT(tfcc_q8_lut, k, best) { ... k ... }
 *     the body once for each row k of tfcc_q8_lut's table whose ISA level fits best;
 *   TFCC_EACH_VARIANT_IF(tfcc_q8_gemm, k, best, tfcc_q8_gemm_usable(k, best)) { ... }
 *     the same where the family decides more than the level (CPU features, a test's own rule).
 *
 * A variant passed over prints "skip NAME (CPU level L)" (once per variant). In the body, `continue` goes on to
 * the next variant; there is no `break` out of the whole loop (it leaves the one variant). */
#ifndef TFCC_TEST_KERNEL_VARIANTS_H
#define TFCC_TEST_KERNEL_VARIANTS_H

#include <stdbool.h>
#include <stdio.h>

#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"

/* runs; when it is false, says so the first time for this variant (helpers that loop over a
 * family once per case say it once). */
static inline bool tfcc_test_variant_runs(const char *name, tfcc_isa best, bool runs) {
  static const char *said[64];
  static int n_said;
  if (runs) return true;
  for (int i = 0; i < n_said; i++)
    if (said[i] == name) return false;
  if (n_said < 64) said[n_said++] = name;
  printf("skip %s (CPU level %s)\n", name, tfcc_isa_name(best));
  return false;
}

#define TFCC_EACH_VARIANT_IF(prefix, k, best, runs) \
  for (int k##_index_ = 0; k##_index_ < prefix##_kernel_count(); k##_index_++) \
    for (const prefix##_kernel *k = prefix##_kernel_at(k##_index_); \
         k && tfcc_test_variant_runs(k->name, (best), (runs)); k = NULL)

#define TFCC_EACH_VARIANT(prefix, k, best) \
  TFCC_EACH_VARIANT_IF(prefix, k, best, tfcc_kernel_isa_fits(k->isa, (best)))

#endif
