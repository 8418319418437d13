/* The encrypted model container's header (see include/tfcc/tfcc_crypto.h) and key sources. */
#ifndef TFCC_CRYPTO_CONTAINER_H
#define TFCC_CRYPTO_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tfcc/tfcc_crypto.h"

#define TFCC_ENC_MAGIC "TFCCENC" /* + NUL: 8 bytes */
#define TFCC_ENC_VERSION 1
#define TFCC_ENC_ALG_AES256GCM 1
#define TFCC_ENC_HEADER_BYTES 80
#define TFCC_ENC_NONCE_BYTES 12
#define TFCC_ENC_TAG_BYTES 16
#define TFCC_ENC_CHECK_BYTES 8

typedef struct tfcc_enc_header {
  uint16_t version, algorithm;
  uint64_t plaintext_bytes;
  uint8_t nonce[TFCC_ENC_NONCE_BYTES];
  char key_id[TFCC_KEY_ID_MAX + 1];
  uint8_t key_check[TFCC_ENC_CHECK_BYTES];
} tfcc_enc_header;

/* Parses and checks raw[0..80); total: the container's size (header + ciphertext + tag), or 0
 * if unknown. Writes a message naming the fault to msg on failure. */
tfcc_status tfcc_enc_header_parse(const uint8_t raw[TFCC_ENC_HEADER_BYTES], uint64_t total,
                                  tfcc_enc_header *h, char *msg, size_t msg_len);
void tfcc_enc_header_write(const tfcc_enc_header *h, uint8_t raw[TFCC_ENC_HEADER_BYTES]);

/* Gets the 32-byte key for key_id from src. */
tfcc_status tfcc_key_get(const tfcc_key_source *src, const char *key_id,
                         uint8_t key[TFCC_KEY_BYTES], char *msg, size_t msg_len);

/* SHA-256("tfcc-key-check" || key)[0..8], the header's key check value. */
void tfcc_enc_key_check(const uint8_t key[TFCC_KEY_BYTES], uint8_t out[TFCC_ENC_CHECK_BYTES]);
/* pread of exactly n bytes at off. */
bool tfcc_enc_read_at(int fd, uint8_t *p, size_t n, off_t off);
/* A container bound to another one: the other's nonce and GCM tag, which authenticate its
 * whole content, authenticated with this one's header as additional data (not stored in it). */
#define TFCC_ENC_BIND_BYTES (TFCC_ENC_NONCE_BYTES + TFCC_ENC_TAG_BYTES)
typedef struct tfcc_enc_bind {
  const uint8_t *in; /* the binding this container was encrypted with (NULL: none) */
  uint8_t *out;      /* receives this container's own nonce and tag (NULL: not wanted) */
} tfcc_enc_bind;
/* Decrypts the container at path with key (not a key source) into a tfcc_plain_alloc buffer
 * (free with tfcc_plain_free); b may be NULL. Errors as tfcc_crypto_decrypt_file
 * (tfcc_crypto_last_error). */
tfcc_status tfcc_enc_decrypt_file_key(const char *path, const uint8_t key[TFCC_KEY_BYTES],
                                      const tfcc_enc_bind *b, void **plain, size_t *plain_size);

#endif
