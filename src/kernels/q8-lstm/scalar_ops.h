/* The fast LSTM's element-wise steps in plain C, exactly as the reference
 * (src/kernels/ref/lstm_quant.c) computes them: the scalar variant runs them whole, the SIMD
 * variants for the elements past their last full vector. */
#ifndef TFCC_KERNELS_Q8_LSTM_SCALAR_OPS_H
#define TFCC_KERNELS_Q8_LSTM_SCALAR_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/quant_util.h"

static inline void tfcc_q8_lstm_gate_tail(const int32_t *ax, const int32_t *bx, int32_t mx, int sx,
                                          const int32_t *ah, const int32_t *bh, int32_t mh, int sh,
                                          int16_t *out, size_t i, size_t n) {
  for (; i < n; i++) {
    int32_t v =
        tfcc_clamp_i32(tfcc_mbqm(tfcc_add_wrap(ax[i], bx[i]), mx, sx), INT16_MIN, INT16_MAX);
    v = tfcc_add_wrap(tfcc_mbqm(tfcc_add_wrap(ah[i], bh[i]), mh, sh), v);
    out[i] = (int16_t)tfcc_clamp_i32(v, INT16_MIN, INT16_MAX);
  }
}

static inline void tfcc_q8_lstm_cell_tail(const int16_t *ig, const int16_t *fg, const int16_t *cg,
                                          int16_t *c, size_t i, size_t n, int in_shift,
                                          int16_t clip) {
  for (; i < n; i++) {
    int16_t kept = (int16_t)tfcc_rdbpot((int32_t)fg[i] * c[i], 15);
    int16_t in_gate = ig ? ig[i] : (int16_t)(INT16_MAX - fg[i]);
    int16_t added = (int16_t)tfcc_rdbpot((int32_t)in_gate * cg[i], in_shift);
    int32_t v = tfcc_clamp_i32((int32_t)kept + added, INT16_MIN, INT16_MAX);
    if (clip > 0) v = tfcc_clamp_i32(v, -clip, clip);
    c[i] = (int16_t)v;
  }
}

static inline void tfcc_q8_lstm_hidden_tail(const int16_t *og, const int16_t *th, int32_t m, int s,
                                            int32_t zp, int8_t *out, size_t i, size_t n) {
  for (; i < n; i++) {
    int32_t v = tfcc_add_wrap(tfcc_mbqm((int32_t)og[i] * th[i], m, s), -zp);
    out[i] = (int8_t)tfcc_clamp_i32(v, INT8_MIN, INT8_MAX);
  }
}

#endif
