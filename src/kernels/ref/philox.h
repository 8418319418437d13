/* Philox4x32-10 counter-based generator and the distributions TFLite's RANDOM_UNIFORM,
 * RANDOM_STANDARD_NORMAL and MULTINOMIAL draw from it (TensorFlow's PhiloxRandom,
 * Uint32ToFloat, BoxMullerFloat, Uint64ToDouble), so that equal seeds give TFLite's numbers.
 * The state advances with every draw, as TFLite's per-node generator does across invokes. */
#ifndef TFCC_KERNELS_REF_PHILOX_H
#define TFCC_KERNELS_REF_PHILOX_H

#include <stdint.h>

typedef struct tfcc_philox {
  uint32_t counter[4];
  uint32_t key[2];
} tfcc_philox;

/* PhiloxRandom(seed_lo = seed, seed_hi = seed2): key from seed, counter words 2-3 from seed2. */
void tfcc_philox_init(tfcc_philox *p, uint64_t seed, uint64_t seed2);
/* The next 4 words (10 rounds of the current counter), then the counter steps by one. */
void tfcc_philox_next(tfcc_philox *p, uint32_t out[4]);
/* Advances the counter by n blocks of 4 words. */
void tfcc_philox_skip(tfcc_philox *p, uint64_t n);

/* n floats uniform in [0, 1), one per word (4 per block, the rest of the last block dropped). */
void tfcc_ref_random_uniform_f32(tfcc_philox *p, float *out, int64_t n);
/* n standard normal floats, Box-Muller on word pairs (n even, or the last pair's second value
 * dropped). */
void tfcc_ref_random_normal_f32(tfcc_philox *p, float *out, int64_t n);
/* For each of batch rows of classes logits: samples draws of the class index, through the
 * cumulative exp(logit - max) of the finite logits and a uniform double from two words; the
 * generator is copied for the draws and then skipped past them as TFLite does. out: int32
 * (idx_size 4) or int64 (8). cdf: scratch of classes doubles. */
void tfcc_ref_multinomial(tfcc_philox *p, const float *logits, int64_t batch, int64_t classes,
                          int64_t samples, void *out, int idx_size, double *cdf);

#endif
