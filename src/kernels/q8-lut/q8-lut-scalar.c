/* q8 table lookup, portable C. */
#include "kernels/q8-lut/lut.h"

TFCC_Q8_LUT_DECL(tfcc_q8_lut_scalar) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint8_t a = table[in[i]], b = table[in[i + 1]], c = table[in[i + 2]],
                  d = table[in[i + 3]];
    out[i] = a;
    out[i + 1] = b;
    out[i + 2] = c;
    out[i + 3] = d;
  }
  for (; i < n; i++) out[i] = table[in[i]];
}
