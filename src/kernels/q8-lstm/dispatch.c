/* Fast LSTM dispatch table. */
#include "kernels/dispatch_table.h"
#include "kernels/q8-lstm/lstm.h"

#define K(sfx, nm, isa) \
  { \
    nm, isa, tfcc_q8_lstm_gemv_##sfx, tfcc_q8_lstm_sigmoid_##sfx, tfcc_q8_lstm_tanh_##sfx, \
        tfcc_q8_lstm_gate_##sfx, tfcc_q8_lstm_cell_##sfx, tfcc_q8_lstm_hidden_##sfx \
  }

static const tfcc_q8_lstm_kernel kernels[] = {
    TFCC_KERNELS_X86(K(avx512, "q8-lstm-avx512", TFCC_ISA_AVX512),
                     K(avx2, "q8-lstm-avx2", TFCC_ISA_AVX2), K(sse4, "q8-lstm-sse4", TFCC_ISA_SSE4))
        TFCC_KERNELS_ARM64(K(neon, "q8-lstm-neon", TFCC_ISA_NEON))
            K(scalar, "q8-lstm-scalar", TFCC_ISA_GENERIC),
};
TFCC_DISPATCH_TABLE_FNS(tfcc_q8_lstm, tfcc_q8_lstm_kernel)
