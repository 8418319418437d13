/* The per-level kernel set (kernels/kernel_set.h): every member is its family's pick at that
 * level, never above the level, the same pointer on every call (chosen once), out-of-range
 * levels get the generic set, and a session's operators see their runtime's level. */
#include <pthread.h>
#include <stdint.h>

#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-resize/resize.h"
#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/f32-vunary/vunary.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/kernel_set.h"
#include "kernels/pool/pool.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/q8-lstm/lstm.h"
#include "kernels/q8-lut/lut.h"
#include "kernels/q8-resize/resize.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/quantize/quantize.h"
#include "kernels/reduce/reduce.h"
#include "kernels/softmax/softmax.h"
#include "test_harness.h"

#define FITS(k, lv) \
  CHECKF(tfcc_isa_level_fits((k)->isa, lv), "%s above level %s", (k)->name, tfcc_isa_name(lv))

static void *ask(void *arg) { return (void *)tfcc_kernel_set_for((tfcc_isa)(intptr_t)arg); }

int main(void) {
  /* first use from several threads at once: one set */
  pthread_t th[4];
  void *got[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, ask, (void *)(intptr_t)TFCC_ISA_AVX2);
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], &got[i]);
    CHECK(got[i] == (void *)tfcc_kernel_set_for(TFCC_ISA_AVX2));
  }
  for (int i = 0; i < (int)TFCC_ISA_COUNT_; i++) {
    const tfcc_isa lv = (tfcc_isa)i;
    const tfcc_kernel_set *s = tfcc_kernel_set_for(lv);
    CHECK(s != NULL && s->isa == lv);
    CHECK(tfcc_kernel_set_for(lv) == s);
    CHECK(s->f32_gemm == tfcc_f32_gemm_select(lv));
    CHECK(s->bf16_gemm == tfcc_bf16_gemm_select(lv));
    CHECK(s->f32_direct_conv == tfcc_f32_direct_conv_select(lv, s->f32_gemm->nr));
    CHECK(s->f32_dwconv == tfcc_f32_dwconv_select(lv));
    CHECK(s->f32_vbinary == tfcc_f32_vbinary_select(lv));
    CHECK(s->f32_vunary == tfcc_f32_vunary_select(lv));
    CHECK(s->f32_softmax == tfcc_f32_softmax_select(lv));
    CHECK(s->f32_resize == tfcc_f32_resize_select(lv));
    CHECK(s->q8_dw == tfcc_q8_dw_select(lv));
    CHECK(s->q8_fcs == tfcc_q8_fcs_select(lv));
    CHECK(s->q8_vbinary == tfcc_q8_vbinary_select(lv));
    CHECK(s->q8_lut == tfcc_q8_lut_select(lv));
    CHECK(s->q8_resize == tfcc_q8_resize_select(lv));
    CHECK(s->q8_lstm == tfcc_q8_lstm_select(lv));
    CHECK(s->qz == tfcc_qz_select(lv));
    CHECK(s->pool == tfcc_pool_select(lv));
    CHECK(s->rsum == tfcc_rsum_select(lv));
    CHECK(s->tflite_f32 == tfcc_tflite_f32_select(lv));
    FITS(s->f32_gemm, lv);
    FITS(s->f32_dwconv, lv);
    FITS(s->f32_vbinary, lv);
    FITS(s->f32_vunary, lv);
    FITS(s->q8_vbinary, lv);
    FITS(s->q8_lut, lv);
    FITS(s->qz, lv);
    FITS(s->pool, lv);
    FITS(s->rsum, lv);
    FITS(s->tflite_f32, lv);
    if (s->f32_direct_conv) FITS(s->f32_direct_conv, lv);
  }
  /* out of range: the generic set */
  CHECK(tfcc_kernel_set_for(TFCC_ISA_COUNT_) == tfcc_kernel_set_for(TFCC_ISA_GENERIC));
  CHECK(tfcc_kernel_set_for((tfcc_isa)-1) == tfcc_kernel_set_for(TFCC_ISA_GENERIC));
  return tfcc_test_finish("kernel_set");
}
