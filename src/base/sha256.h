/* SHA-256 (FIPS 180-4), so integrity checks need no crypto library. */
#ifndef TFCC_BASE_SHA256_H
#define TFCC_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Compresses n whole 64-byte blocks at p into the state h (FIPS 180-4 section 6.2.2). This file's
 * tfcc_sha256_blocks_portable is the reference; kernels/hash has the instruction-set ones
 * (x86 SHA extensions, ARMv8 SHA2), picked from the CPU fingerprint. */
typedef void (*tfcc_sha256_blocks_fn)(uint32_t h[8], const uint8_t *p, size_t n);
void tfcc_sha256_blocks_portable(uint32_t h[8], const uint8_t *p, size_t n);
/* The 64 round constants K0..K63. */
extern const uint32_t tfcc_sha256_k[64];

typedef struct tfcc_sha256 {
  uint32_t h[8];
  uint64_t bytes;
  uint8_t block[64];
  size_t fill;
  tfcc_sha256_blocks_fn blocks;
} tfcc_sha256_ctx;

/* Starts a digest computed by tfcc_sha256_blocks_portable. */
void tfcc_sha256_init(tfcc_sha256_ctx *c);
/* Starts a digest computed by blocks (NULL: the portable one); the same bytes either way. */
void tfcc_sha256_init_with(tfcc_sha256_ctx *c, tfcc_sha256_blocks_fn blocks);
void tfcc_sha256_update(tfcc_sha256_ctx *c, const void *data, size_t n);
void tfcc_sha256_final(tfcc_sha256_ctx *c, uint8_t digest[32]);
/* One call: digest of data[0..n). */
void tfcc_sha256(const void *data, size_t n, uint8_t digest[32]);
void tfcc_sha256_with(tfcc_sha256_blocks_fn blocks, const void *data, size_t n, uint8_t digest[32]);
/* 64 lowercase hex digits + NUL. */
void tfcc_sha256_hex(const uint8_t digest[32], char hex[65]);

#endif
