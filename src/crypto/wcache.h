/* The packed-weights cache of an encrypted model (docs/weights_cache.md, "Encrypted models"):
 * a cache file's bytes (runtime/weights_cache.h) in the model's container format (header,
 * AES-256-GCM, a fresh random nonce per file) under a key derived from the model's key for this
 * purpose only. A load decrypts it into private memory of the model's kind (tfcc_plain_alloc:
 * out of core dumps, wiped when freed) and hands it to the core in memory
 * (tfcc_model_options.weights_cache_data); a new cache comes back through the options' sink
 * and is encrypted to a temporary file, fsynced and renamed over the old one. The model
 * container's nonce and tag are authenticated with the cache (not stored): a cache decrypts
 * only for the very model file it was made from, so the core takes it without hashing the
 * model or the blocks again (tfcc_model_options.weights_cache_data_trusted). */
#ifndef TFCC_CRYPTO_WCACHE_H
#define TFCC_CRYPTO_WCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/container.h"
#include "tfcc/tfcc_crypto.h"

#define TFCC_ENC_CACHE_LABEL "tfcc weights cache"

/* The cache key: HKDF-SHA-256 (RFC 5869, no salt) of the model key with info = the label
 * followed by the model's key id. A cache can never be decrypted as a model nor the reverse,
 * and the nonces of the two files never share a key. */
tfcc_status tfcc_enc_cache_key(const uint8_t key[TFCC_KEY_BYTES], const char *key_id,
                               uint8_t out[TFCC_KEY_BYTES]);

typedef struct tfcc_enc_cache {
  const char *path;
  tfcc_runtime *rt; /* for the log lines */
  char key_id[TFCC_KEY_ID_MAX + 1];
  uint8_t key[TFCC_KEY_BYTES]; /* the cache key */
  /* the model container's nonce and tag: authenticated with the cache's header, so a cache
   * decrypts only for the model file it was made from (tfcc_enc_bind) */
  uint8_t model_bind[TFCC_ENC_BIND_BYTES];
  void *plain; /* the decrypted cache (tfcc_plain_alloc), or NULL */
  size_t plain_size;
} tfcc_enc_cache;

/* Decrypts the cache at c->path into c->plain. A missing file: nothing (the core logs that it
 * makes one); anything else that fails (wrong key, a flipped byte, a truncation, another
 * container version): one MODEL_LOAD warning through c->rt, and c->plain NULL. */
void tfcc_enc_cache_read(tfcc_enc_cache *c);
/* tfcc_model_options.weights_cache_sink (user: a tfcc_enc_cache): encrypts the pieces to
 * c->path.tmp.<pid>.<n> (O_EXCL), fsync, rename over c->path, fsync of the directory. A failure
 * logs one warning and removes the temporary file. */
tfcc_status tfcc_enc_cache_sink(void *user, const tfcc_bytes *pieces, size_t n);

#endif
