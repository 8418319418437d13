#include "base/sha256.h"

#include <string.h>

const uint32_t tfcc_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static inline uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
           p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 =
        k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + tfcc_sha256_k[i] + w[i];
    uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void tfcc_sha256_blocks_portable(uint32_t h[8], const uint8_t *p, size_t n) {
  for (; n > 0; n--, p += 64) compress(h, p);
}

void tfcc_sha256_init_with(tfcc_sha256_ctx *c, tfcc_sha256_blocks_fn blocks) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(c->h, iv, sizeof iv);
  c->bytes = 0;
  c->fill = 0;
  c->blocks = blocks ? blocks : tfcc_sha256_blocks_portable;
}

void tfcc_sha256_init(tfcc_sha256_ctx *c) { tfcc_sha256_init_with(c, NULL); }

void tfcc_sha256_update(tfcc_sha256_ctx *c, const void *data, size_t n) {
  const uint8_t *p = data;
  c->bytes += n;
  if (c->fill) {
    size_t take = 64 - c->fill < n ? 64 - c->fill : n;
    memcpy(c->block + c->fill, p, take);
    c->fill += take;
    p += take;
    n -= take;
    if (c->fill < 64) return;
    c->blocks(c->h, c->block, 1);
    c->fill = 0;
  }
  if (n >= 64) c->blocks(c->h, p, n / 64);
  p += n / 64 * 64;
  n %= 64;
  memcpy(c->block, p, n);
  c->fill = n;
}

void tfcc_sha256_final(tfcc_sha256_ctx *c, uint8_t digest[32]) {
  uint64_t bits = c->bytes * 8;
  uint8_t pad[72] = {0x80};
  size_t padn = (c->fill < 56 ? 56 : 120) - c->fill;
  uint8_t len[8];
  for (int i = 0; i < 8; i++) len[i] = (uint8_t)(bits >> (56 - 8 * i));
  tfcc_sha256_update(c, pad, padn);
  tfcc_sha256_update(c, len, 8);
  for (int i = 0; i < 8; i++) {
    digest[4 * i] = (uint8_t)(c->h[i] >> 24);
    digest[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
    digest[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
    digest[4 * i + 3] = (uint8_t)c->h[i];
  }
}

void tfcc_sha256_with(tfcc_sha256_blocks_fn blocks, const void *data, size_t n,
                      uint8_t digest[32]) {
  tfcc_sha256_ctx c;
  tfcc_sha256_init_with(&c, blocks);
  tfcc_sha256_update(&c, data, n);
  tfcc_sha256_final(&c, digest);
}

void tfcc_sha256(const void *data, size_t n, uint8_t digest[32]) {
  tfcc_sha256_with(NULL, data, n, digest);
}

void tfcc_sha256_hex(const uint8_t digest[32], char hex[65]) {
  static const char d[] = "0123456789abcdef";
  for (int i = 0; i < 32; i++) {
    hex[2 * i] = d[digest[i] >> 4];
    hex[2 * i + 1] = d[digest[i] & 15];
  }
  hex[64] = 0;
}
