/* SHA-256's block function by instruction set (base/sha256.h's tfcc_sha256_blocks_fn): the x86
 * SHA extensions, ARMv8's SHA2 instructions, else the portable C. Every variant gives the same
 * state for the same blocks; the digest code around them is base/sha256.c's. The weights cache
 * hashes whole model files with it (a 100 MB model: about 0.35 s in portable C). */
#ifndef TFCC_KERNELS_HASH_SHA256_H
#define TFCC_KERNELS_HASH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "base/sha256.h"
#include "kernels/dispatch_table.h"

typedef struct tfcc_sha256_kernel {
  const char *name;
  tfcc_isa isa;
  int feature; /* tfcc_cpu_feature the variant needs beyond its level, or -1 */
  tfcc_sha256_blocks_fn fn;
} tfcc_sha256_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_sha256, tfcc_sha256_kernel);

void tfcc_sha256_blocks_shani(uint32_t h[8], const uint8_t *p, size_t n);
void tfcc_sha256_blocks_neonsha2(uint32_t h[8], const uint8_t *p, size_t n);

/* The digest of data[0..n) with the best block function this CPU has (no ISA cap: every
 * variant gives the same bytes). */
void tfcc_sha256_fast(const void *data, size_t n, uint8_t digest[32]);

#endif
