/* STABLEHLO_RNG_BIT_GENERATOR's generators (kernels/ref/rng_bits.h) against the published
 * known-answer vectors of Random123 (Salmon et al., SC 2011: threefry2x32_20 and philox4x32_10,
 * counters and keys all-zero, all-ones and the digits of pi), and the parts the conformance cases
 * cannot reach: uint64 bits (the oracle's .npy I/O has none) hold the same words as int64 / two
 * uint32, and the new state of a 3-word Philox state keeps its third word and steps the counter
 * across the carry from word 0 into word 1 (word 2-3 of the counter never step, as TFLite). */
#include <string.h>

#include "kernels/ref/philox.h"
#include "kernels/ref/rng_bits.h"
#include "test_harness.h"

int main(void) {
  static const uint32_t tf[3][3][2] = {
      /* {ctr, key, out} */
      {{0x00000000u, 0x00000000u}, {0x00000000u, 0x00000000u}, {0x6b200159u, 0x99ba4efeu}},
      {{0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu}, {0x1cb996fcu, 0xbb002be7u}},
      {{0x243f6a88u, 0x85a308d3u}, {0x13198a2eu, 0x03707344u}, {0xc4923a9cu, 0x483df7a0u}}};
  for (int i = 0; i < 3; i++) {
    uint32_t o[2];
    tfcc_threefry2x32(tf[i][1], tf[i][0], o);
    CHECKF(o[0] == tf[i][2][0] && o[1] == tf[i][2][1], "threefry2x32_20 vector %d: %08x %08x", i,
           o[0], o[1]);
  }
  static const uint32_t ph[3][10] = {
      /* ctr[4], key[2], out[4] */
      {0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
      {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x408f276du,
       0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
      {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0xd16cfe09u,
       0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  for (int i = 0; i < 3; i++) {
    tfcc_philox p = {.counter = {ph[i][0], ph[i][1], ph[i][2], ph[i][3]},
                     .key = {ph[i][4], ph[i][5]}};
    uint32_t o[4];
    tfcc_philox_next(&p, o);
    CHECKF(memcmp(o, &ph[i][6], sizeof o) == 0, "philox4x32_10 vector %d: %08x %08x %08x %08x", i,
           o[0], o[1], o[2], o[3]);
  }
  /* uint64 bits are the int64 / uint32 words: 7 words fill 3.5 uint64, the last block cut short */
  const uint64_t st3[3] = {0x0123456789abcdefull, 0x00000001fffffffeull, 0xdeadbeefcafef00dull};
  uint64_t ns_a[3], ns_b[3];
  uint32_t w[8];
  uint64_t w64[4];
  memset(w, 0, sizeof w);
  memset(w64, 0, sizeof w64);
  tfcc_ref_rng_bits(TFCC_RNG_PHILOX, st3, 3, ns_a, w, 7);
  tfcc_ref_rng_bits(TFCC_RNG_PHILOX, st3, 3, ns_b, (uint32_t *)(void *)w64, 8);
  CHECK(memcmp(w, w64, 7 * sizeof(uint32_t)) == 0);
  CHECK(memcmp(ns_a, ns_b, sizeof ns_a) == 0);
  /* counter words 0-1 start at 0xfffffffe, 0x00000001: two blocks, the second carries */
  CHECK(ns_a[0] == st3[0]);
  CHECK(ns_a[1] == 0x0000000200000000ull);
  CHECK(ns_a[2] == st3[2]);
  /* the first block is Philox of (counter words 0-3 = state words 2-5, key = state words 0-1) */
  tfcc_philox p = {.counter = {0xfffffffeu, 0x00000001u, 0xcafef00du, 0xdeadbeefu},
                   .key = {0x89abcdefu, 0x01234567u}};
  uint32_t first[4];
  tfcc_philox_next(&p, first);
  CHECK(memcmp(first, w, sizeof first) == 0);
  /* ThreeFry: 2 words a block, 5 words -> 3 blocks */
  const uint64_t st2[2] = {0x9e3779b97f4a7c15ull, 0x00000000fffffffeull};
  uint64_t ns2[2];
  uint32_t t5[5];
  tfcc_ref_rng_bits(TFCC_RNG_THREEFRY, st2, 2, ns2, t5, 5);
  CHECK(ns2[0] == st2[0] && ns2[1] == 0x0000000100000001ull);
  const uint32_t key[2] = {0x7f4a7c15u, 0x9e3779b9u},
                 c2[2] = {0u, 1u}; /* the third block: the counter carried */
  uint32_t third[2];
  tfcc_threefry2x32(key, c2, third);
  CHECK(t5[4] == third[0]);
  return tfcc_test_finish("ops.rng_bits");
}
