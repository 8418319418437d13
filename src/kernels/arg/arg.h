/* ARG_MAX / ARG_MIN without branches on the data: the same contract and results as
 * tfcc_arg_min_max (kernels/ref/reduce.h, its reference twin): over the middle dimension of
 * [outer, axis_size, inner], ties keep the first index (strict comparison: v > best for
 * ARG_MAX, v < best for ARG_MIN, so a NaN never replaces the running best and a NaN first
 * element stays), float32, uint8, bool, int8, int16, int32, int64 in, int32 or int64 out.
 *
 * The reference's data-dependent branch mispredicts about once per new best; here every step
 * is a compare and two selects (cmov / blend):
 *   inner == 1 (the last axis, segmentation heads: [H * W, classes]): four rows side by side,
 *              four independent chains per step;
 *   inner > 1:  blocks of 256 inner positions, one running best and index per position (the
 *              compiler vectorises the block loop).
 * Portable C, nothing per ISA. */
#ifndef TFCC_KERNELS_ARG_ARG_H
#define TFCC_KERNELS_ARG_ARG_H

#include <stdbool.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

bool tfcc_arg_min_max_fast(tfcc_dtype in_dt, const void *in, int64_t outer, int32_t axis_size,
                           int64_t inner, bool is_max, tfcc_dtype out_dt, void *out);

#endif
