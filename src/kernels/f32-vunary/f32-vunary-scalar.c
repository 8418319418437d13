/* f32 activations, portable C: the reference kernels' arithmetic (libm for LOGISTIC / TANH). */
#include "kernels/f32-vunary/vunary.h"
#include "kernels/ref/activation.h"

TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_scalar) {
  switch (p->op) {
    case TFCC_F32VU_CLAMP: tfcc_clamp_f32(in, out, n, p->lo, p->hi); break;
    case TFCC_F32VU_LEAKY_RELU: tfcc_leaky_relu_f32(in, out, n, p->alpha); break;
    case TFCC_F32VU_HARD_SWISH: tfcc_hard_swish_f32(in, out, n); break;
    case TFCC_F32VU_LOGISTIC: tfcc_logistic_f32(in, out, n); break;
    default: tfcc_tanh_f32(in, out, n); break;
  }
}
