/* SHA-256 blocks on ARMv8's SHA2 instructions (sha256.h): sha256h / sha256h2 run four rounds on
 * {A, B, C, D} and {E, F, G, H} with (W + K) of four words; sha256su0 / sha256su1 make the
 * message schedule's next four words from the sixteen before them. */
#include <arm_neon.h>

#include "kernels/hash/sha256.h"

void tfcc_sha256_blocks_neonsha2(uint32_t h[8], const uint8_t *p, size_t n) {
  uint32x4_t abcd = vld1q_u32(&h[0]), efgh = vld1q_u32(&h[4]);
  for (; n > 0; n--, p += 64) {
    const uint32x4_t abcd0 = abcd, efgh0 = efgh;
    uint32x4_t m[4];
    for (int g = 0; g < 16; g++) {
      if (g < 4)
        m[g] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * g)));
      else /* m[g % 4] holds words 4g-16.., the others 4g-12.., 4g-8.., 4g-4.. */
        m[g & 3] = vsha256su1q_u32(vsha256su0q_u32(m[g & 3], m[(g + 1) & 3]), m[(g + 2) & 3],
                                   m[(g + 3) & 3]);
      const uint32x4_t wk = vaddq_u32(m[g & 3], vld1q_u32(&tfcc_sha256_k[4 * g]));
      const uint32x4_t abcd_in = abcd;
      abcd = vsha256hq_u32(abcd, efgh, wk);
      efgh = vsha256h2q_u32(efgh, abcd_in, wk);
    }
    abcd = vaddq_u32(abcd, abcd0);
    efgh = vaddq_u32(efgh, efgh0);
  }
  vst1q_u32(&h[0], abcd);
  vst1q_u32(&h[4], efgh);
}
