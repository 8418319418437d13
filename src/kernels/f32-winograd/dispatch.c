/* f32 Winograd dispatch table: the best tile transforms at or below the model's ISA level. */
#include "kernels/f32-winograd/winograd.h"
#include "kernels/dispatch_table.h"

#define K(name_, fn_, isa, level) \
  { \
    "f32-winograd-" #isa, "f32-winograd-f2-" #isa, "f32-winograd-f4-" #isa, level, \
        tfcc_wino_in_f2_##isa, tfcc_wino_out_f2_##isa, tfcc_wino_in_f4_##isa, \
        tfcc_wino_out_f4_##isa, tfcc_wino_filt_##isa \
  }

static const tfcc_f32_wino_kernel kernels[] = {TFCC_KERNEL_ROWS_SSE4(K, , )};
TFCC_DISPATCH_TABLE_FNS(tfcc_f32_wino, tfcc_f32_wino_kernel)
