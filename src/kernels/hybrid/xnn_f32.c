/* XNNPACK-exact float32 kernels (xnn_f32.h): dispatch table and weight packing. */
#include <stdlib.h>

#include "kernels/dispatch_table.h"
#include "kernels/hybrid/xnn_f32.h"

#define K(isa, lvl) \
  { "xnn-f32-" #isa, lvl, tfcc_xnn_sigmoid_f32_##isa, tfcc_xnn_conv_f32_rows_##isa }
static const tfcc_xnn_f32_kernel kernels[] = {
    TFCC_KERNELS_X86(K(avx512, TFCC_ISA_AVX512), K(avx2, TFCC_ISA_AVX2))
        K(scalar, TFCC_ISA_GENERIC),
};
#undef K
TFCC_DISPATCH_TABLE_FNS(tfcc_xnn_f32, tfcc_xnn_f32_kernel)

float *tfcc_xnn_conv_pack(const float *w_ohwi, int32_t out_c, int32_t kdim, int32_t *ocp) {
  if (out_c <= 0 || kdim <= 0) return NULL;
  const size_t o4 = ((size_t)out_c + 15) & ~(size_t)15; /* any kernel width */
  float *wp = calloc((size_t)kdim * o4, sizeof(float));
  if (!wp) return NULL;
  for (int32_t oc = 0; oc < out_c; oc++)
    for (int32_t k = 0; k < kdim; k++)
      wp[(size_t)k * o4 + (size_t)oc] = w_ohwi[(size_t)oc * (size_t)kdim + (size_t)k];
  *ocp = (int32_t)o4;
  return wp;
}
