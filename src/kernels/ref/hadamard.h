/* aeq.hadamard_rotation's transform (a custom operator every standard TFLite build registers,
 * kernels/hadamard_rotation.cc): the normalized fast Walsh-Hadamard transform of runs of n
 * floats, in TFLite's order of float operations (butterflies of span 1, 2, 4, ..., then each
 * value times 1 / sqrtf(n)), so results are bit-identical. */
#ifndef TFCC_KERNELS_REF_HADAMARD_H
#define TFCC_KERNELS_REF_HADAMARD_H

#include <stdbool.h>
#include <stdint.h>

/* True when n is a power of two (>= 1): the only sizes TFLite transforms (it leaves a run of any
 * other size as it is). */
bool tfcc_hadamard_size_ok(int32_t n);

/* Transforms `runs` consecutive runs of n floats in place; n a power of two. */
void tfcc_hadamard_f32(float *data, int64_t runs, int32_t n);

#endif
