/* ARG_MAX / ARG_MIN (and REDUCE_MAX / REDUCE_MIN, below) without branches on the data: the same contract and results as
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

/* REDUCE_MAX (is_max) / REDUCE_MIN with tfcc_reduce_generic's results (its twin): the same
 * initial value (lowest / highest of the type, -FLT_MAX / FLT_MAX for float32), the same
 * first-element seed when every axis is reduced, and every output's inputs combined in input
 * order with the same strict compare (so -0 / +0 and NaN come out as in the reference). Runs
 * when the reduced axes (size-1 axes aside) are adjacent, [outer, reduced, inner] (YOLO's
 * class maximum over the last axis, SSD's spatial maximum over H and W), for float32, int32,
 * int64, uint8, int8, int16, with at least one input element; returns false otherwise (the
 * caller runs the reference). Loops as ARG_MAX's: four rows side by side when inner is 1,
 * else the output row itself as the running maxima, vectorised by the compiler. */
struct tfcc_reduce_shape;
bool tfcc_reduce_max_min_fast(const struct tfcc_reduce_shape *s, bool is_max, tfcc_dtype dt,
                              const void *in, void *out);
/* Whether tfcc_reduce_max_min_fast runs for this shape and dtype (the profile's kernel name). */
bool tfcc_reduce_max_min_fast_ok(const struct tfcc_reduce_shape *s, tfcc_dtype dt);

#endif
