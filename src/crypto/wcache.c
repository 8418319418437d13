/* The encrypted packed-weights cache (wcache.h). */
#include "crypto/wcache.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/container.h"
#include "crypto/plain_mem.h"
#include "base/durable_file.h"

#define CHUNK ((size_t)256 << 10) /* encryption step (crypt.c) */

tfcc_status tfcc_enc_cache_key(const uint8_t key[TFCC_KEY_BYTES], const char *key_id,
                               uint8_t out[TFCC_KEY_BYTES]) {
  const size_t ll = sizeof TFCC_ENC_CACHE_LABEL - 1, il = key_id ? strlen(key_id) : 0;
  uint8_t info[sizeof TFCC_ENC_CACHE_LABEL + TFCC_KEY_ID_MAX];
  if (il > TFCC_KEY_ID_MAX) return TFCC_ERR_INVALID_ARG;
  memcpy(info, TFCC_ENC_CACHE_LABEL, ll);
  if (il) memcpy(info + ll, key_id, il);
  EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
  size_t len = TFCC_KEY_BYTES;
  const int ok = pc && EVP_PKEY_derive_init(pc) > 0 &&
                 EVP_PKEY_CTX_set_hkdf_md(pc, EVP_sha256()) > 0 &&
                 EVP_PKEY_CTX_set1_hkdf_key(pc, key, TFCC_KEY_BYTES) > 0 &&
                 EVP_PKEY_CTX_add1_hkdf_info(pc, info, (int)(ll + il)) > 0 &&
                 EVP_PKEY_derive(pc, out, &len) > 0 && len == TFCC_KEY_BYTES;
  EVP_PKEY_CTX_free(pc);
  return ok ? TFCC_OK : TFCC_ERR_RUNTIME;
}

static void warn(const tfcc_enc_cache *c, const char *fmt, const char *why) {
  char line[1280];
  snprintf(line, sizeof line, fmt, c->path, why);
  tfcc_runtime_log(c->rt, TFCC_LOG_WARN, "MODEL_LOAD", line);
}

void tfcc_enc_cache_read(tfcc_enc_cache *c) {
  c->plain = NULL;
  c->plain_size = 0;
  struct stat sb;
  if (stat(c->path, &sb) != 0 && errno == ENOENT) return; /* none yet */
  void *p = NULL;
  size_t n = 0;
  const tfcc_enc_bind b = {c->model_bind, NULL};
  if (tfcc_enc_decrypt_file_key(c->path, c->key, &b, &p, &n) != TFCC_OK) {
    /* the message names the path already */
    char why[1100];
    snprintf(why, sizeof why, "%s", tfcc_crypto_last_error());
    warn(c, "encrypted weights cache %s ignored (%s); rebuilding it", why);
    return;
  }
  c->plain = p;
  c->plain_size = n;
}

/* Header, the pieces' ciphertext and the tag to fd. */
static bool encrypt_to(int fd, const tfcc_enc_cache *c, const tfcc_bytes *v, size_t nv) {
  tfcc_enc_header h;
  memset(&h, 0, sizeof h);
  h.version = TFCC_ENC_VERSION;
  h.algorithm = TFCC_ENC_ALG_AES256GCM;
  snprintf(h.key_id, sizeof h.key_id, "%s", c->key_id);
  for (size_t i = 0; i < nv; i++) h.plaintext_bytes += v[i].size;
  tfcc_enc_key_check(c->key, h.key_check);
  if (RAND_bytes(h.nonce, TFCC_ENC_NONCE_BYTES) != 1) return false;
  uint8_t raw[TFCC_ENC_HEADER_BYTES], tag[TFCC_ENC_TAG_BYTES];
  tfcc_enc_header_write(&h, raw);
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  uint8_t *enc = malloc(CHUNK + 32);
  int outl = 0;
  bool ok = ctx && enc && EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, TFCC_ENC_NONCE_BYTES, NULL) == 1 &&
            EVP_EncryptInit_ex(ctx, NULL, NULL, c->key, h.nonce) == 1 &&
            EVP_EncryptUpdate(ctx, NULL, &outl, raw, TFCC_ENC_HEADER_BYTES) == 1 &&
            EVP_EncryptUpdate(ctx, NULL, &outl, c->model_bind, TFCC_ENC_BIND_BYTES) == 1 &&
            tfcc_write_all(fd, raw, sizeof raw);
  for (size_t i = 0; ok && i < nv; i++) {
    const uint8_t *p = v[i].data;
    for (size_t done = 0; ok && done < v[i].size;) {
      const size_t len = v[i].size - done < CHUNK ? v[i].size - done : CHUNK;
      ok = EVP_EncryptUpdate(ctx, enc, &outl, p + done, (int)len) == 1 &&
           tfcc_write_all(fd, enc, (size_t)outl);
      done += len;
    }
  }
  ok = ok && EVP_EncryptFinal_ex(ctx, enc, &outl) == 1 &&
       EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, TFCC_ENC_TAG_BYTES, tag) == 1 &&
       tfcc_write_all(fd, tag, sizeof tag);
  EVP_CIPHER_CTX_free(ctx);
  free(enc);
  return ok;
}

tfcc_status tfcc_enc_cache_sink(void *user, const tfcc_bytes *pieces, size_t n) {
  const tfcc_enc_cache *c = user;
  static atomic_uint seq;
  char tmp[4200];
  int w = snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", c->path, (long)getpid(),
                   atomic_fetch_add(&seq, 1u));
  if (w < 0 || (size_t)w >= sizeof tmp) {
    warn(c, "encrypted weights cache %s not written (%s)", "path too long");
    return TFCC_ERR_INVALID_ARG;
  }
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool ok = fd >= 0 && encrypt_to(fd, c, pieces, n) && fsync(fd) == 0;
  int e = errno;
  if (fd >= 0 && close(fd) != 0) ok = false;
  if (ok && rename(tmp, c->path) != 0) ok = false, e = errno;
  if (!ok) {
    if (fd >= 0) unlink(tmp);
    warn(c, "encrypted weights cache %s not written (%s)", e ? strerror(e) : "encryption failed");
    return TFCC_ERR_IO;
  }
  tfcc_sync_dir_of(c->path);
  return TFCC_OK;
}
