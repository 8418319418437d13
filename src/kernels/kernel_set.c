/* One kernel set per dispatch level, filled once per process (see kernel_set.h). */
#include "kernels/kernel_set.h"

#include <pthread.h>

#include "kernels/dispatch_table.h"

#include "kernels/bf16-gemm/gemm.h"
#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-resize/resize.h"
#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/f32-vunary/vunary.h"
#include "kernels/hybrid/fc_eigen.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/pool/pool.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/q16-dot/dot.h"
#include "kernels/q16-dwconv/dwconv.h"
#include "kernels/q16-gemm/gemm.h"
#include "kernels/q16-vbinary/vbinary.h"
#include "kernels/q8-lstm/lstm.h"
#include "kernels/q8-lut/lut.h"
#include "kernels/q8-resize/resize.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/quantize/quantize.h"
#include "kernels/reduce/reduce.h"
#include "kernels/softmax/softmax.h"

static tfcc_kernel_set g_sets[TFCC_ISA_COUNT_];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

TFCC_SELECT_FN static void fill(void) {
  for (int i = 0; i < (int)TFCC_ISA_COUNT_; i++) {
    const tfcc_isa isa = (tfcc_isa)i;
    tfcc_kernel_set *s = &g_sets[i];
    s->isa = isa;
    s->f32_gemm = tfcc_f32_gemm_select(isa);
    s->bf16_gemm = tfcc_bf16_gemm_select(isa);
    s->f32_direct_conv = tfcc_f32_direct_conv_select(isa, s->f32_gemm->nr);
    s->f32_dwconv = tfcc_f32_dwconv_select(isa);
    s->f32_vbinary = tfcc_f32_vbinary_select(isa);
    s->f32_vunary = tfcc_f32_vunary_select(isa);
    s->f32_softmax = tfcc_f32_softmax_select(isa);
    s->q16_softmax = tfcc_q16_softmax_select(isa);
    s->q8_softmax = tfcc_q8_softmax_select(isa);
    s->f32_resize = tfcc_f32_resize_select(isa);
    s->q8_dw = tfcc_q8_dw_select(isa);
    s->q8_fcs = tfcc_q8_fcs_select(isa);
    s->q8_vbinary = tfcc_q8_vbinary_select(isa);
    s->q8_lut = tfcc_q8_lut_select(isa);
    s->q8_resize = tfcc_q8_resize_select(isa);
    s->q8_lstm = tfcc_q8_lstm_select(isa);
    s->q16_dot = tfcc_q16_dot_select(isa);
    s->q16_gemm = tfcc_q16_gemm_select(isa);
    s->q16_dw = tfcc_q16_dw_select(isa);
    s->q16_vbinary = tfcc_q16_vbinary_select(isa);
    s->qz = tfcc_qz_select(isa);
    s->pool = tfcc_pool_select(isa);
    s->rsum = tfcc_rsum_select(isa);
    s->tflite_f32 = tfcc_tflite_f32_select(isa);
    s->fc_eigen = tfcc_fc_eigen_select(isa);
  }
}

const tfcc_kernel_set *tfcc_kernel_set_for(tfcc_isa isa) {
  pthread_once(&g_once, fill);
  const int i = (int)isa;
  return &g_sets[i >= 0 && i < (int)TFCC_ISA_COUNT_ ? i : (int)TFCC_ISA_GENERIC];
}
