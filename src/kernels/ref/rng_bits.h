/* STABLEHLO_RNG_BIT_GENERATOR (reference): the StableHLO rng_bit_generator as TFLite's
 * stablehlo_rng_bit_generator.cc computes it. The state is read as 32-bit words (state word
 * 2i = low half of state[i]): key = words 0-1; counter = words 2-3 (ThreeFry2x32-20, state
 * u64[2]) or words 2-5 (Philox4x32-10 with u64[3]; with u64[2] the counter's words 2-3 repeat
 * the key). Each block of the counter gives 2 (ThreeFry) or 4 (Philox) output words, in order
 * (the last block cut short); after each block counter word 0 steps by one, carrying into word 1
 * only. The new state: words 0-3 = key, counter words 0-1; Philox's word 4-5 unchanged. */
#ifndef TFCC_KERNELS_REF_RNG_BITS_H
#define TFCC_KERNELS_REF_RNG_BITS_H

#include <stdint.h>

enum { TFCC_RNG_DEFAULT = 0, TFCC_RNG_PHILOX = 1, TFCC_RNG_THREEFRY = 2 };

/* ThreeFry2x32 with 20 rounds on counter ctr under key (Salmon et al., SC 2011). */
void tfcc_threefry2x32(const uint32_t key[2], const uint32_t ctr[2], uint32_t out[2]);

/* state: n_state (2, or 3 for Philox / DEFAULT) words of 64 bits; new_state: the same count;
 * out: n_words 32-bit words (the output tensor's bytes / 4). algorithm: TFCC_RNG_*. */
void tfcc_ref_rng_bits(int algorithm, const uint64_t *state, int32_t n_state, uint64_t *new_state,
                       uint32_t *out, int64_t n_words);

#endif
