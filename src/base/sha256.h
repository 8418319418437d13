/* SHA-256 (FIPS 180-4), so integrity checks need no crypto library. */
#ifndef TFCC_BASE_SHA256_H
#define TFCC_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct tfcc_sha256 {
  uint32_t h[8];
  uint64_t bytes;
  uint8_t block[64];
  size_t fill;
} tfcc_sha256_ctx;

void tfcc_sha256_init(tfcc_sha256_ctx *c);
void tfcc_sha256_update(tfcc_sha256_ctx *c, const void *data, size_t n);
void tfcc_sha256_final(tfcc_sha256_ctx *c, uint8_t digest[32]);
/* One call: digest of data[0..n). */
void tfcc_sha256(const void *data, size_t n, uint8_t digest[32]);
/* 64 lowercase hex digits + NUL. */
void tfcc_sha256_hex(const uint8_t digest[32], char hex[65]);

#endif
