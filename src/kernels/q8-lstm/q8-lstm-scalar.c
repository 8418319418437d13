/* Fast LSTM, portable variant: the packed matrix x vector product in C and the reference's own
 * int16 logistic / tanh. */
#include <string.h>

#include "kernels/q8-lstm/lstm.h"
#include "kernels/q8-lstm/scalar_ops.h"

void tfcc_q8_lstm_gemv_scalar(const int8_t *packed, int32_t row_blocks, int32_t k_pairs,
                              const int32_t *xp, int32_t *acc) {
  for (int32_t b = 0; b < row_blocks; b++) {
    /* 16 independent sums in int32 lanes (plain loops the compiler vectorizes); int8 x int16
     * products of one pair fit, and the sums wrap like the reference's */
    int32_t sum[16] = {0};
    const int8_t *w = packed + (size_t)b * k_pairs * 32;
    for (int32_t p = 0; p < k_pairs; p++, w += 32) {
      const int32_t x0 = (int16_t)(uint16_t)(uint32_t)xp[p];
      const int32_t x1 = (int16_t)(uint16_t)((uint32_t)xp[p] >> 16);
      int32_t prod[16];
      for (int i = 0; i < 16; i++) prod[i] = w[2 * i] * x0 + w[2 * i + 1] * x1;
      for (int i = 0; i < 16; i++) sum[i] = (int32_t)((uint32_t)sum[i] + (uint32_t)prod[i]);
    }
    memcpy(acc + (size_t)b * 16, sum, sizeof sum);
  }
}

void tfcc_q8_lstm_sigmoid_scalar(const int16_t *in, int16_t *out, size_t n, int int_bits) {
  for (size_t i = 0; i < n; i++) out[i] = tfcc_fx16_logistic(in[i], int_bits);
}

void tfcc_q8_lstm_tanh_scalar(const int16_t *in, int16_t *out, size_t n, int int_bits) {
  for (size_t i = 0; i < n; i++) out[i] = tfcc_fx16_tanh(in[i], int_bits);
}

void tfcc_q8_lstm_gate_scalar(const int32_t *ax, const int32_t *bx, int32_t mx, int sx,
                              const int32_t *ah, const int32_t *bh, int32_t mh, int sh,
                              int16_t *out, size_t n) {
  tfcc_q8_lstm_gate_tail(ax, bx, mx, sx, ah, bh, mh, sh, out, 0, n);
}

void tfcc_q8_lstm_cell_scalar(const int16_t *ig, const int16_t *fg, const int16_t *cg, int16_t *c,
                              size_t n, int in_shift, int16_t clip) {
  tfcc_q8_lstm_cell_tail(ig, fg, cg, c, 0, n, in_shift, clip);
}

void tfcc_q8_lstm_hidden_scalar(const int16_t *og, const int16_t *th, int32_t m, int s, int32_t zp,
                                int8_t *out, size_t n) {
  tfcc_q8_lstm_hidden_tail(og, th, m, s, zp, out, 0, n);
}
