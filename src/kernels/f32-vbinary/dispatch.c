/* f32 elementwise dispatch table and threaded driver. */
#include "kernels/bcast_split.h"
#include "kernels/dispatch_table.h"
#include "kernels/f32-vbinary/vbinary.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS, "f32-vbinary", tfcc_f32_vbinary)

bool tfcc_f32_vbinary_op_of(tfcc_binop op, tfcc_f32_vbinary_op *out) {
  switch (op) {
    case TFCC_BIN_ADD: *out = TFCC_F32VB_ADD; return true;
    case TFCC_BIN_SUB: *out = TFCC_F32VB_SUB; return true;
    case TFCC_BIN_MUL: *out = TFCC_F32VB_MUL; return true;
    case TFCC_BIN_DIV: *out = TFCC_F32VB_DIV; return true;
    case TFCC_BIN_SQDIFF: *out = TFCC_F32VB_SQDIFF; return true;
    case TFCC_BIN_MAX: *out = TFCC_F32VB_MAX; return true;
    case TFCC_BIN_MIN: *out = TFCC_F32VB_MIN; return true;
    default: return false;
  }
}

void tfcc_f32_vbinary_run(struct tfcc_threadpool *pool, const tfcc_f32_vbinary_kernel *k,
                          const tfcc_f32_vbinary_params *p, const tfcc_bcast *bc, const float *a,
                          const float *b, float *out) {
  /* Memory bound: split only tensors well past the L2 working set of one op. */
  tfcc_bcast_split_run(pool, bc, sizeof(float), a, b, out, k->fn, p, 32 * 1024);
}
