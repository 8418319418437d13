/*
 * tfcc_crypto: encrypted models (optional module, libtfcc_crypto; built with -DTFCC_WITH_CRYPTO=ON,
 * needs OpenSSL's libcrypto). The core library never depends on it.
 *
 * Container (.tfcce), all integers little-endian:
 *   0  magic "TFCCENC\0"      8  u16 version (1)      10 u16 algorithm (1 = AES-256-GCM)
 *   12 u32 header bytes (80)  16 u64 plaintext bytes  24 nonce[12] (random per file)
 *   36 u8 key id length       40 key id[32] (printable ASCII, zero padded)
 *   72 key check[8] (SHA-256("tfcc-key-check" || key)[0..8]: tells a wrong key from a tampered file)
 *   80 ciphertext (plaintext bytes)   then the 16-byte GCM tag.
 * The whole header is authenticated (GCM additional data). Decryption reads a mapping of the file
 * straight into one huge-page mapping the model owns (no other copy, excluded from core dumps);
 * plaintext is never written to disk and is wiped when the model is freed.
 *
 * Keys (32 bytes) come from a file (32 raw bytes or 64 hex digits), an environment variable (64
 * hex digits) or a callback given the key id; never from the binary.
 */
#ifndef TFCC_TFCC_CRYPTO_H
#define TFCC_TFCC_CRYPTO_H

#include "tfcc/tfcc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TFCC_KEY_BYTES 32
#define TFCC_KEY_ID_MAX 32

typedef enum tfcc_key_kind {
  TFCC_KEY_FROM_FILE = 1,
  TFCC_KEY_FROM_ENV = 2,
  TFCC_KEY_FROM_CALLBACK = 3,
  TFCC_KEY_FROM_BYTES = 4
} tfcc_key_kind;

/* Fills key for key_id ("" if the file has none). Returns TFCC_OK or an error status. */
typedef tfcc_status (*tfcc_key_fn)(void *user, const char *key_id, uint8_t key[TFCC_KEY_BYTES]);

typedef struct tfcc_key_source {
  tfcc_key_kind kind;
  const char *path; /* FROM_FILE */
  const char *env;  /* FROM_ENV: variable name */
  tfcc_key_fn fn;   /* FROM_CALLBACK */
  void *user;
  const uint8_t *bytes; /* FROM_BYTES: TFCC_KEY_BYTES bytes (e.g. from a KMS client) */
} tfcc_key_source;

/* Message of this thread's last failed tfcc_crypto call ("" if none). */
TFCC_API const char *tfcc_crypto_last_error(void);

/* Decrypts path into memory and loads the model from it (the model owns and finally wipes the
 * plaintext). Wrong key, modified or truncated file: an error, no model.
 * opts->weights_cache names an encrypted packed-weights cache file (docs/weights_cache.md,
 * "Encrypted models"): the container above under HKDF-SHA-256(model key, "tfcc weights cache"
 * + key id), decrypted into private memory the model owns and wipes, its blocks used in place;
 * a missing, foreign, stale or damaged one (wrong key, a flipped byte, truncated) is ignored
 * with one warning and rewritten (temporary file, fsync, rename). The options' in-memory cache
 * fields (weights_cache_data, _sink) are this function's. */
TFCC_API tfcc_status tfcc_model_load_encrypted(tfcc_runtime *rt, const char *path,
                                               const tfcc_key_source *key,
                                               const tfcc_model_options *opts, tfcc_model **out);

/* Encrypts in_path to out_path (written to out_path.tmp, then renamed). key_id: up to 32
 * printable characters, may be NULL. */
TFCC_API tfcc_status tfcc_crypto_encrypt_file(const char *in_path, const char *out_path,
                                              const tfcc_key_source *key, const char *key_id);

/* Decrypts a container in memory / from a file into *plain (free with tfcc_crypto_free). */
TFCC_API tfcc_status tfcc_crypto_decrypt_buffer(const void *data, size_t size,
                                                const tfcc_key_source *key, void **plain,
                                                size_t *plain_size);
TFCC_API tfcc_status tfcc_crypto_decrypt_file(const char *path, const tfcc_key_source *key,
                                              void **plain, size_t *plain_size);
/* Wipes and frees plaintext from the decrypt calls (its own page-aligned mapping, so only this
 * function may free it). */
TFCC_API void tfcc_crypto_free(void *plain, size_t size);

/* Key id of a container file, without decrypting. */
TFCC_API tfcc_status tfcc_crypto_key_id(const char *path, char key_id[TFCC_KEY_ID_MAX + 1]);

#ifdef __cplusplus
}
#endif
#endif
