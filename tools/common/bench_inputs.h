/* Input data for `tfcc bench`: seeded random values of each input's dtype and range, or .npy
 * files bound by position or by name (-i FILE.npy, -i NAME=FILE.npy). */
#ifndef TFCC_TOOLS_BENCH_INPUTS_H
#define TFCC_TOOLS_BENCH_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* Fills data (bytes of info's dtype and shape) with seeded pseudo-random values:
 * float16/32/64: uniform [-1, 1);
 * int8/uint8/int16: the whole integer range; int32/int64: 0 or 1 (safe as indices); bool: 0/1.
 * Same seed, same bytes. Returns 0, or -1 if the dtype has no random generator. */
int bench_fill_random(const tfcc_tensor_info *info, void *data, uint64_t seed);

/* Binds inputs for a session: specs[0..n_specs) are "FILE.npy" (next input in order) or
 * "NAME=FILE.npy"; inputs without a spec get random data (seed + input index). Resizes dynamic
 * inputs to a file's shape. On success *buffers holds one malloc'ed buffer per input (free with
 * bench_free_inputs) and *n_out the input count; returns 0, or -1 with err set. */
int bench_make_inputs(tfcc_session *s, const char *const *specs, int n_specs, uint64_t seed,
                      void ***buffers, int *n_out, char *err, size_t err_size);
void bench_free_inputs(void **buffers, int n);

#endif
