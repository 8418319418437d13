/* Element j of a uint8, int8 or int16 array named by its dtype, and that type's range: for the
 * reference kernels whose quantized output type is a run-time choice. */
#ifndef TFCC_KERNELS_REF_Q_STORE_H
#define TFCC_KERNELS_REF_Q_STORE_H

#include <stdint.h>

#include "tfcc/tfcc.h"

/* dt: TFCC_UINT8, TFCC_INT8, else int16. v already in the type's range. */
static inline void tfcc_q_store(tfcc_dtype dt, void *out, int64_t j, int32_t v) {
  if (dt == TFCC_UINT8)
    ((uint8_t *)out)[j] = (uint8_t)v;
  else if (dt == TFCC_INT8)
    ((int8_t *)out)[j] = (int8_t)v;
  else
    ((int16_t *)out)[j] = (int16_t)v;
}

static inline void tfcc_q_range(tfcc_dtype dt, int32_t *lo, int32_t *hi) {
  if (dt == TFCC_UINT8) {
    *lo = 0;
    *hi = 255;
  } else if (dt == TFCC_INT8) {
    *lo = -128;
    *hi = 127;
  } else {
    *lo = INT16_MIN;
    *hi = INT16_MAX;
  }
}

#endif
