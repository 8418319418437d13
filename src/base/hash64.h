/* Fast 64-bit content hash (four independent multiply-xor lanes, about memory speed). Detects
 * accidental changes (a rewritten file, a flipped or truncated byte); not cryptographic: use
 * SHA-256 (base/sha256.h) where an adversary may choose the bytes. */
#ifndef TFCC_BASE_HASH64_H
#define TFCC_BASE_HASH64_H

#include <stddef.h>
#include <stdint.h>

uint64_t tfcc_hash64(const void *data, size_t n);

#endif
