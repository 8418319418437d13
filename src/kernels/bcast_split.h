/* Runs a two-input broadcast iteration (tfcc_bcast from kernels/ref/binary.h) as contiguous
 * pieces for a vectorised row function, split into element ranges over a thread pool.
 * Shared by the elementwise kernel families (f32-vbinary, q8-vbinary). */
#ifndef TFCC_KERNELS_BCAST_SPLIT_H
#define TFCC_KERNELS_BCAST_SPLIT_H

#include <stddef.h>

#include "kernels/ref/binary.h"

struct tfcc_threadpool;

/* out[i] = f(a[i * a_step], b[i * b_step]) for i < n; a_step and b_step are 0 (the input is
 * one broadcast value) or 1. out may alias a or b where the step is 1. */
typedef void (*tfcc_vbin_row_fn)(const void *params, const void *a, const void *b, void *out,
                                 size_t n, int a_step, int b_step);

/* Runs fn over the whole output of bc (two inputs, every element esize bytes). Outputs of at
 * least 2 * min_task elements are split into ranges of at least min_task elements (multiples
 * of 64) over pool (NULL: inline). No allocation. */
void tfcc_bcast_split_run(struct tfcc_threadpool *pool, const tfcc_bcast *bc, size_t esize,
                          const void *a, const void *b, void *out, tfcc_vbin_row_fn fn,
                          const void *params, size_t min_task);

#endif
