/* STABLEHLO_RNG_BIT_GENERATOR's bit streams (see rng_bits.h). */
#include "kernels/ref/rng_bits.h"

#include <stdbool.h>
#include <string.h>

#include "kernels/ref/philox.h"

static uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

void tfcc_threefry2x32(const uint32_t key[2], const uint32_t ctr[2], uint32_t out[2]) {
  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {key[0], key[1],
                          key[0] ^ key[1] ^ 0x1BD11BDAu}; /* the key schedule's parity word */
  uint32_t x0 = ctr[0] + ks[0], x1 = ctr[1] + ks[1];
  for (int group = 0; group < 5; group++) { /* 5 groups of 4 rounds, a key injection after each */
    for (int r = 0; r < 4; r++) {
      x0 += x1;
      x1 = rotl32(x1, rot[(group & 1) * 4 + r]) ^ x0;
    }
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + (uint32_t)(group + 1);
  }
  out[0] = x0;
  out[1] = x1;
}

static uint32_t word_of(const uint64_t *state, int32_t i) {
  return (uint32_t)(state[i / 2] >> (32 * (i % 2)));
}

void tfcc_ref_rng_bits(int algorithm, const uint64_t *state, int32_t n_state, uint64_t *new_state,
                       uint32_t *out, int64_t n_words) {
  const bool threefry = algorithm == TFCC_RNG_THREEFRY;
  const uint32_t key[2] = {word_of(state, 0), word_of(state, 1)};
  uint32_t ctr[4] = {word_of(state, 2), word_of(state, 3), 0, 0};
  if (!threefry) {
    ctr[2] = n_state == 3 ? word_of(state, 4) : key[0];
    ctr[3] = n_state == 3 ? word_of(state, 5) : key[1];
  }
  const int64_t block = threefry ? 2 : 4;
  for (int64_t i = 0; i < n_words; i += block) {
    uint32_t w[4];
    if (threefry) {
      tfcc_threefry2x32(key, ctr, w);
    } else {
      tfcc_philox p = {.counter = {ctr[0], ctr[1], ctr[2], ctr[3]}, .key = {key[0], key[1]}};
      tfcc_philox_next(&p, w); /* one block of the given counter (its own stepping is not used) */
    }
    const int64_t n = n_words - i < block ? n_words - i : block;
    memcpy(out + i, w, (size_t)n * sizeof *w);
    if (++ctr[0] == 0) ++ctr[1];
  }
  new_state[0] = (uint64_t)key[1] << 32 | key[0];
  new_state[1] = (uint64_t)ctr[1] << 32 | ctr[0];
  if (n_state == 3) new_state[2] = state[2];
}
