#include "runtime/wcache_kernels.h"

#include <stdint.h>
#include <stdio.h>

#include "kernels/bf16-gemm/gemm.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-winograd/winograd.h"
#include "kernels/kernel_set.h"
#include "kernels/q16-dwconv/dwconv.h"
#include "kernels/q16-gemm/gemm.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/q8-lstm/lstm.h"
#include "kernels/tflite-f32/tflite_f32.h"

size_t tfcc_wc_kernel_names(tfcc_isa isa, char *buf, size_t cap) {
  const tfcc_kernel_set *ks = tfcc_kernel_set_for(isa);
  /* q8 GEMM: chosen per layer, AMX only for large ones (tfcc_q8_gemm_select_for) */
  const tfcc_q8_gemm_kernel *q8_big = tfcc_q8_gemm_select_for(isa, INT64_MAX, INT32_MAX, 0);
  const tfcc_q8_gemm_kernel *q8 = tfcc_q8_gemm_select_for(isa, 0, 0, 0);
  /* q8 depthwise: filters its row kernels cannot take are packed for the per-pixel fallback */
  const tfcc_q8_dw_kernel *dw_px = tfcc_q8_dw_pixel_fallback(ks->q8_dw, ks->q8_dw->isa);
  /* block ids (ops/packed_store.h) per name: f32 GEMM 1, 3, 4, 14; Winograd 3; tflite-f32 (the
   * XNNPACK-order lane pairs, the LSTM plan's rows) 10, 18; bf16 24; q8 GEMM 2, 4, 16; q8
   * depthwise 6, 8, 17; q8-fc-small 20; q8 LSTM 19; q16 GEMM 13; q16 depthwise 27. The other
   * blocks' layouts follow from the shapes alone. */
  const char *names[] = {ks->f32_gemm->name,
                         tfcc_f32_wino_select(isa)->name,
                         tfcc_tflite_f32_select(isa)->name,
                         ks->bf16_gemm ? ks->bf16_gemm->name : NULL,
                         q8->name,
                         q8_big != q8 ? q8_big->name : NULL,
                         ks->q8_dw->name,
                         dw_px != ks->q8_dw ? dw_px->name : NULL,
                         ks->q8_fcs->name,
                         ks->q8_lstm->name,
                         ks->q16_gemm->name,
                         ks->q16_dw->name};
  size_t n = 0;
  if (cap) buf[0] = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (!names[i]) continue;
    const int k =
        snprintf(n < cap ? buf + n : NULL, n < cap ? cap - n : 0, "%s%s", n ? " " : "", names[i]);
    n += k > 0 ? (size_t)k : 0;
  }
  return n;
}
