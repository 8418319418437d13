/* LSH_PROJECTION (reference), TFLite's lsh_projection.cc: for each seed (a float32 of the hash
 * tensor [num_hash, num_bits]) the sign bit of sum_i weight[i] * (double)(int64)Fingerprint64(
 * seed bytes ++ input item i bytes) (weight 1 without a weight tensor), accumulated in double
 * over the input's first dimension; the bit is 1 when the sum is > 0.
 *   DENSE   out[num_hash * num_bits]: the bits
 *   SPARSE  out[num_hash]: the num_bits bits of hash function k, first bit highest, plus
 *           k * (1 << num_bits) (int32 arithmetic wraps; TFLite's shift count 32 acts as 0)
 * Fingerprint64 is farmhash's (farmhashna::Hash64), the function TFLite links. */
#ifndef TFCC_KERNELS_REF_LSH_H
#define TFCC_KERNELS_REF_LSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* farmhash Fingerprint64 of len bytes (exposed for tests). */
uint64_t tfcc_fingerprint64(const uint8_t *s, size_t len);

typedef struct tfcc_lsh_args {
  const float *seeds; /* [num_hash * num_bits] */
  int32_t num_hash, num_bits;
  const uint8_t *input; /* items x item_bytes */
  int32_t items;
  size_t item_bytes;
  const float *weights; /* [items] or NULL */
  bool sparse;
} tfcc_lsh_args;

/* out: int32 [num_hash] (sparse) or [num_hash * num_bits] (dense). key: scratch of
 * item_bytes + 4 bytes. */
void tfcc_ref_lsh_projection(const tfcc_lsh_args *a, uint8_t *key, int32_t *out);

#endif
