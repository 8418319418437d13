/* STABLEHLO_PAD: see shlo_pad.h. */
#include "kernels/ref/shlo_pad.h"

#include <string.h>

#include "tfcc/tfcc.h"

void tfcc_ref_shlo_pad(const uint8_t *in, const int32_t *in_dims, const int32_t *out_dims,
                       const int64_t *low, const int64_t *interior, int32_t rank, size_t es,
                       const uint8_t *pad, uint8_t *out) {
  int64_t ostride[TFCC_MAX_DIMS], n_out = 1, n_in = 1;
  for (int32_t k = rank - 1; k >= 0; k--) {
    ostride[k] = n_out;
    n_out *= out_dims[k];
    n_in *= in_dims[k];
  }
  for (int64_t i = 0; i < n_out; i++) memcpy(out + (size_t)i * es, pad, es);
  if (n_out == 0) return;
  int64_t idx[TFCC_MAX_DIMS] = {0};
  for (int64_t i = 0; i < n_in; i++) {
    int64_t o = 0;
    int inside = 1;
    for (int32_t k = 0; k < rank && inside; k++) {
      const int64_t p = low[k] + idx[k] * (interior[k] + 1);
      inside = p >= 0 && p < out_dims[k];
      o += p * ostride[k];
    }
    if (inside) memcpy(out + (size_t)o * es, in + (size_t)i * es, es);
    for (int32_t k = rank - 1; k >= 0; k--) { /* next input index, last dimension fastest */
      if (++idx[k] < in_dims[k]) break;
      idx[k] = 0;
    }
  }
}
