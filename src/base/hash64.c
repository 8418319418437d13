/* tfcc_hash64 (hash64.h). */
#include "base/hash64.h"

#include <string.h>

uint64_t tfcc_hash64(const void *data, size_t n) {
  const uint8_t *p = data;
  const uint64_t k = 0x9E3779B97F4A7C15ull;
  uint64_t h[4] = {1, 2, 3, 4};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int l = 0; l < 4; l++) {
      uint64_t v;
      memcpy(&v, p + i + 8 * (size_t)l, 8);
      h[l] = (h[l] ^ v) * k;
      h[l] ^= h[l] >> 29;
    }
  uint64_t r = (uint64_t)n;
  for (; i < n; i++) r = (r ^ p[i]) * k;
  for (int l = 0; l < 4; l++) r = (r ^ h[l]) * k, r ^= r >> 31;
  return r;
}
