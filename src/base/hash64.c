/* tfcc_hash64 (hash64.h). */
#include "base/hash64.h"

#include <string.h>

#define K 0x9E3779B97F4A7C15ull

/* The lanes h over the whole 32-byte blocks of p[0..n); returns the bytes consumed. */
static size_t blocks(uint64_t h[4], const uint8_t *p, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int l = 0; l < 4; l++) {
      uint64_t v;
      memcpy(&v, p + i + 8 * (size_t)l, 8);
      h[l] = (h[l] ^ v) * K;
      h[l] ^= h[l] >> 29;
    }
  return i;
}

/* The hash of n bytes whose whole blocks gave h, and whose last n % 32 are tail. */
static uint64_t finish(const uint64_t h[4], uint64_t n, const uint8_t *tail) {
  uint64_t r = n;
  for (size_t i = 0; i < (size_t)(n % 32); i++) r = (r ^ tail[i]) * K;
  for (int l = 0; l < 4; l++) r = (r ^ h[l]) * K, r ^= r >> 31;
  return r;
}

uint64_t tfcc_hash64(const void *data, size_t n) {
  const uint8_t *p = data;
  uint64_t h[4] = {1, 2, 3, 4};
  const size_t i = blocks(h, p, n);
  return finish(h, (uint64_t)n, p + i);
}

void tfcc_hash64_init(tfcc_hash64_state *s) {
  memset(s, 0, sizeof *s);
  for (int l = 0; l < 4; l++) s->h[l] = (uint64_t)l + 1;
}

void tfcc_hash64_update(tfcc_hash64_state *s, const void *data, size_t n) {
  const uint8_t *p = data;
  size_t have = (size_t)(s->n % 32);
  s->n += n;
  if (have) { /* complete the buffered block first */
    const size_t take = 32 - have < n ? 32 - have : n;
    memcpy(s->buf + have, p, take);
    p += take, n -= take, have += take;
    if (have < 32) return;
    blocks(s->h, s->buf, 32);
  }
  const size_t i = blocks(s->h, p, n);
  memcpy(s->buf, p + i, n - i);
}

uint64_t tfcc_hash64_final(const tfcc_hash64_state *s) { return finish(s->h, s->n, s->buf); }
