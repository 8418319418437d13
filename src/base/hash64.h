/* Fast 64-bit content hash (four independent multiply-xor lanes, about memory speed). Detects
 * accidental changes (a rewritten file, a flipped or truncated byte); not cryptographic: use
 * SHA-256 (base/sha256.h) where an adversary may choose the bytes. */
#ifndef TFCC_BASE_HASH64_H
#define TFCC_BASE_HASH64_H

#include <stddef.h>
#include <stdint.h>

uint64_t tfcc_hash64(const void *data, size_t n);

/* The same hash of bytes given in pieces: init, update with each piece in order (any sizes),
 * final gives tfcc_hash64 of their concatenation. */
typedef struct tfcc_hash64_state {
  uint64_t h[4];
  uint64_t n;      /* bytes so far */
  uint8_t buf[32]; /* the last n % 32 of them */
} tfcc_hash64_state;
void tfcc_hash64_init(tfcc_hash64_state *s);
void tfcc_hash64_update(tfcc_hash64_state *s, const void *data, size_t n);
uint64_t tfcc_hash64_final(const tfcc_hash64_state *s);

#endif
