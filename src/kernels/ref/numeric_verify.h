/* NumericVerify (a custom operator every standard TFLite build registers,
 * kernels/numeric_verify.cc): the difference between a dequantized tensor and its float
 * reference, and the tolerance check. */
#ifndef TFCC_KERNELS_REF_NUMERIC_VERIFY_H
#define TFCC_KERNELS_REF_NUMERIC_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

/* diff holds the dequantized input on entry; on return diff[i] = diff[i] - ref[i] (float).
 * With check, stops at the first element whose |difference| > max_diff (a NaN difference
 * passes, as TFLite's `diff > max_diff`) and returns its index (that element and those after it
 * still hold the dequantized input); otherwise returns n. */
size_t tfcc_numeric_verify_diff(float *diff, const float *ref, size_t n, bool check,
                                float max_diff);

#endif
