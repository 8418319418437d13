/* Work estimates for the operators' macs hook (tfcc_op_info.macs, profiles, callers that bound a
 * run's work, as fuzz_model_run does): a file's shapes and options may ask for any amount. */
#ifndef TFCC_OPS_WORK_ESTIMATE_H
#define TFCC_OPS_WORK_ESTIMATE_H

#include <stdint.h>

/* a * b of non-negative figures (0 when either is not positive), INT64_MAX when the product
 * passes it. */
static inline int64_t tfcc_work_mul(int64_t a, int64_t b) {
  if (a <= 0 || b <= 0) return 0;
  return a > INT64_MAX / b ? INT64_MAX : a * b;
}

#endif
