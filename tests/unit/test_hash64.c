/* tfcc_hash64 given its bytes in pieces (base/hash64.h): init, updates, final equal the
 * one-shot hash for every length up to 300 bytes cut at every point, for three pieces of
 * assorted sizes (1 to 40 KiB, the stack buffer a model file's sampled ends are read through),
 * and for no bytes. */
#include <stdint.h>
#include <string.h>

#include "base/hash64.h"
#include "test_harness.h"

static uint8_t g_buf[3 << 16];

static uint64_t pieces(const uint8_t *p, size_t n, size_t a, size_t b) {
  tfcc_hash64_state s;
  tfcc_hash64_init(&s);
  tfcc_hash64_update(&s, p, a);
  tfcc_hash64_update(&s, p + a, b - a);
  tfcc_hash64_update(&s, p + b, n - b);
  return tfcc_hash64_final(&s);
}

int main(void) {
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < sizeof g_buf; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    g_buf[i] = (uint8_t)x;
  }
  int bad = 0;
  for (size_t n = 0; n <= 300; n++)
    for (size_t a = 0; a <= n; a++)
      bad += pieces(g_buf, n, a, a + (n - a) / 3) != tfcc_hash64(g_buf, n);
  CHECK(bad == 0);
  const size_t cuts[][3] = {{1, 16384, 65536},      {16384, 32768, 65536}, {31, 16415, 131072},
                            {4096, 4100, 196608},   {0, 0, 40960},         {40960, 40960, 40960},
                            {33, 16384 + 65, 99999}};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
    CHECK(pieces(g_buf, cuts[i][2], cuts[i][0], cuts[i][1]) == tfcc_hash64(g_buf, cuts[i][2]));
  /* a change anywhere changes it */
  const uint64_t h = tfcc_hash64(g_buf, 65536);
  g_buf[40000] ^= 1;
  CHECK(pieces(g_buf, 65536, 100, 30000) != h);
  return tfcc_test_finish("hash64");
}
