/* q8-fc-small dispatch table: the best variant the model's ISA level and the CPU allow. NEON
 * builds use the generic variant (no NEON variant yet). */
#include "kernels/dispatch_table.h"
#include "kernels/q8-fc-small/fc_small.h"

static const tfcc_q8_fcs_kernel kernels[] = {
    TFCC_KERNELS_X86({"q8-fc-small-16-avx512", TFCC_ISA_AVX512, -1, tfcc_q8_fcs_avx512},
                     {"q8-fc-small-8-avx2", TFCC_ISA_AVX2, -1, tfcc_q8_fcs_avx2}){
        "q8-fc-small-scalar", TFCC_ISA_GENERIC, -1, tfcc_q8_fcs_scalar},
};
TFCC_DISPATCH_TABLE_FNS_USABLE(tfcc_q8_fcs, tfcc_q8_fcs_kernel, tfcc_q8_fcs_usable)

bool tfcc_q8_fcs_usable(const tfcc_q8_fcs_kernel *k, tfcc_isa isa) {
  return tfcc_isa_level_fits(k->isa, isa) &&
         (k->feature < 0 || tfcc_cpu_has(tfcc_cpu(), (tfcc_cpu_feature)k->feature));
}
