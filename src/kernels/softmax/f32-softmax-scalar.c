/* float32 softmax, portable: the reference arithmetic itself (libm expf, sequential sum). */
#include "kernels/ref/softmax.h"
#include "kernels/softmax/softmax.h"

TFCC_F32_SOFTMAX_DECL(tfcc_f32_softmax_scalar) { tfcc_softmax_f32(in, out, rows, depth, beta); }
