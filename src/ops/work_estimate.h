/* Work estimates for the operators' macs hook (tfcc_op_info.macs, profiles, callers that bound a
 * run's work, as fuzz_model_run does): a file's shapes and options may ask for any amount. */
#ifndef TFCC_OPS_WORK_ESTIMATE_H
#define TFCC_OPS_WORK_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

/* Nodes computed at load (passes/fold_constants.c, runtime/exec_plan.c's folding) are left to the
 * run when their work estimate or scratch passes these: a small output may still ask for
 * quadratic work (a pooling window as wide as its constant input; an Mfcc of 32,768 filterbank
 * channels and as many coefficients: a 2^30-entry cosine table, 8.6 GB of scratch and minutes
 * at load, fuzz53), which at load runs with no deadline and its scratch outside the session's
 * max_memory. At run time both apply. */
#define TFCC_FOLD_MAX_WORK 10000000ll
#define TFCC_FOLD_MAX_SCRATCH ((size_t)16 << 20)

/* a * b of non-negative figures (0 when either is not positive), INT64_MAX when the product
 * passes it. */
static inline int64_t tfcc_work_mul(int64_t a, int64_t b) {
  if (a <= 0 || b <= 0) return 0;
  return a > INT64_MAX / b ? INT64_MAX : a * b;
}

/* a * b * c, saturating as tfcc_work_mul. */
static inline int64_t tfcc_work_mul3(int64_t a, int64_t b, int64_t c) {
  return tfcc_work_mul(tfcc_work_mul(a, b), c);
}

/* a + b of non-negative figures, INT64_MAX when the sum passes it. */
static inline int64_t tfcc_work_add(int64_t a, int64_t b) {
  if (a < 0) a = 0;
  if (b < 0) b = 0;
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}

#endif
