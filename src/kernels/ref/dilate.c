/* DILATE: see dilate.h. */
#include "kernels/ref/dilate.h"

#include <string.h>

#include "tfcc/tfcc.h"

void tfcc_ref_dilate(const uint8_t *in, const int32_t *dims, const int32_t *factors, int32_t rank,
                     size_t es, const uint8_t *pad, uint8_t *out) {
  int64_t ostride[TFCC_MAX_DIMS], n_out = 1, n_in = 1;
  for (int32_t k = rank - 1; k >= 0; k--) {
    ostride[k] = n_out;
    n_out *= (int64_t)(dims[k] - 1) * factors[k] + 1;
    n_in *= dims[k];
  }
  for (int64_t i = 0; i < n_out; i++) memcpy(out + (size_t)i * es, pad, es);
  int32_t idx[TFCC_MAX_DIMS] = {0};
  for (int64_t i = 0; i < n_in; i++) {
    int64_t o = 0;
    for (int32_t k = 0; k < rank; k++) o += (int64_t)idx[k] * factors[k] * ostride[k];
    memcpy(out + (size_t)o * es, in + (size_t)i * es, es);
    for (int32_t k = rank - 1; k >= 0; k--) { /* next input index, last dimension fastest */
      if (++idx[k] < dims[k]) break;
      idx[k] = 0;
    }
  }
}
