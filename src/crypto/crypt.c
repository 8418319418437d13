/* AES-256-GCM encryption and streaming decryption of model containers (OpenSSL libcrypto). */
#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/container.h"
#include "crypto/plain_mem.h"
#include "crypto/wcache.h"

/* Decryption step: 256 KiB in and 256 KiB out fit in L2 (1 MiB on current x86 and arm64 server
 * cores); measured 64 KiB .. 1 MiB, the step size changes the 14 MB load time by < 5 %. */
#define CHUNK ((size_t)256 << 10)

static _Thread_local char g_msg[1024];

const char *tfcc_crypto_last_error(void) { return g_msg; }

static tfcc_status fail(tfcc_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static tfcc_status fail(tfcc_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_msg, sizeof g_msg, fmt, ap);
  va_end(ap);
  return st;
}

void tfcc_enc_key_check(const uint8_t key[TFCC_KEY_BYTES], uint8_t out[TFCC_ENC_CHECK_BYTES]) {
  uint8_t buf[14 + TFCC_KEY_BYTES], dg[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  memcpy(buf, "tfcc-key-check", 14);
  memcpy(buf + 14, key, TFCC_KEY_BYTES);
  EVP_Digest(buf, sizeof buf, dg, &n, EVP_sha256(), NULL);
  memcpy(out, dg, TFCC_ENC_CHECK_BYTES);
  OPENSSL_cleanse(buf, sizeof buf);
}

void tfcc_crypto_free(void *plain, size_t size) { tfcc_plain_free(plain, size); }

/* pread of exactly n bytes at off. */
bool tfcc_enc_read_at(int fd, uint8_t *p, size_t n, off_t off) {
  while (n) {
    ssize_t r = pread(fd, p, n, off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= (size_t)r;
    off += r;
  }
  return true;
}

/* Decrypts h->plaintext_bytes of ciphertext followed by the tag (header already parsed and
 * sized) straight into a fresh plaintext mapping, CHUNK bytes at a time: from ct in memory, or
 * (ct NULL) read from fd at its offset into the plaintext buffer itself and decrypted there in
 * place while the chunk is in cache (no mapping of the container: its 4 KiB page-cache pages
 * would each cost a page-table update, the larger part of the time on a VM). Each ciphertext
 * byte is read once and each plaintext byte written once (no bounce buffer). Nothing is
 * returned before the tag verifies; on failure the partial plaintext is wiped. */
static tfcc_status decrypt_with(const uint8_t raw[TFCC_ENC_HEADER_BYTES], const uint8_t *ct, int fd,
                                const tfcc_enc_header *h, const uint8_t k[TFCC_KEY_BYTES],
                                const tfcc_enc_bind *b, void **plain, size_t *plain_size) {
  uint8_t key[TFCC_KEY_BYTES], chk[TFCC_ENC_CHECK_BYTES];
  memcpy(key, k, sizeof key);
  tfcc_enc_key_check(key, chk);
  if (memcmp(chk, h->key_check, sizeof chk) != 0) {
    OPENSSL_cleanse(key, sizeof key);
    return fail(TFCC_ERR_INTEGRITY,
                "wrong key for this model (key id '%s'): its key check value differs", h->key_id);
  }
  size_t n = (size_t)h->plaintext_bytes;
  uint8_t *out = tfcc_plain_alloc(n);
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  if (!out || !ctx) {
    tfcc_plain_free(out, n);
    EVP_CIPHER_CTX_free(ctx);
    OPENSSL_cleanse(key, sizeof key);
    return fail(TFCC_ERR_NO_MEMORY, "out of memory for %zu bytes of plaintext", n);
  }
  int ok = EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) == 1 &&
           EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, TFCC_ENC_NONCE_BYTES, NULL) == 1 &&
           EVP_DecryptInit_ex(ctx, NULL, NULL, key, h->nonce) == 1;
  OPENSSL_cleanse(key, sizeof key);
  int outl = 0;
  if (ok) ok = EVP_DecryptUpdate(ctx, NULL, &outl, raw, TFCC_ENC_HEADER_BYTES) == 1;
  if (ok && b && b->in) ok = EVP_DecryptUpdate(ctx, NULL, &outl, b->in, TFCC_ENC_BIND_BYTES) == 1;
  for (size_t done = 0; ok && done < n;) {
    size_t len = n - done < CHUNK ? n - done : CHUNK;
    const uint8_t *in = ct ? ct + done : out + done;
    if (!ct) ok = tfcc_enc_read_at(fd, out + done, len, (off_t)(TFCC_ENC_HEADER_BYTES + done));
    ok = ok && EVP_DecryptUpdate(ctx, out + done, &outl, in, (int)len) == 1 && (size_t)outl == len;
    done += len;
  }
  uint8_t tag[TFCC_ENC_TAG_BYTES];
  if (ct)
    memcpy(tag, ct + n, sizeof tag);
  else
    ok = ok && tfcc_enc_read_at(fd, tag, sizeof tag, (off_t)(TFCC_ENC_HEADER_BYTES + n));
  if (ok)
    ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, TFCC_ENC_TAG_BYTES, tag) == 1 &&
         EVP_DecryptFinal_ex(ctx, out + n, &outl) == 1;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) {
    tfcc_plain_free(out, n);
    return fail(TFCC_ERR_INTEGRITY,
                "%s failed authentication: the file was modified or corrupted%s (key id '%s')",
                b && b->in ? "encrypted weights cache" : "encrypted model",
                b && b->in ? ", or made for another model file" : "", h->key_id);
  }
  if (b && b->out) {
    memcpy(b->out, h->nonce, TFCC_ENC_NONCE_BYTES);
    memcpy(b->out + TFCC_ENC_NONCE_BYTES, tag, TFCC_ENC_TAG_BYTES);
  }
  *plain = out;
  *plain_size = n;
  return TFCC_OK;
}

/* decrypt_with the key of h's key id from ks; key_out (may be NULL) receives the key. */
static tfcc_status decrypt(const uint8_t raw[TFCC_ENC_HEADER_BYTES], const uint8_t *ct, int fd,
                           const tfcc_enc_header *h, const tfcc_key_source *ks,
                           const tfcc_enc_bind *b, void **plain, size_t *plain_size,
                           uint8_t *key_out) {
  uint8_t key[TFCC_KEY_BYTES];
  char msg[512];
  tfcc_status st = tfcc_key_get(ks, h->key_id, key, msg, sizeof msg);
  if (st != TFCC_OK) return fail(st, "%s", msg);
  st = decrypt_with(raw, ct, fd, h, key, b, plain, plain_size);
  if (st == TFCC_OK && key_out) memcpy(key_out, key, sizeof key);
  OPENSSL_cleanse(key, sizeof key);
  return st;
}

tfcc_status tfcc_crypto_decrypt_buffer(const void *data, size_t size, const tfcc_key_source *key,
                                       void **plain, size_t *plain_size) {
  g_msg[0] = 0;
  if (!data || !plain || !plain_size)
    return fail(TFCC_ERR_INVALID_ARG, "tfcc_crypto_decrypt_buffer: NULL argument");
  *plain = NULL;
  *plain_size = 0;
  if (size < TFCC_ENC_HEADER_BYTES + TFCC_ENC_TAG_BYTES)
    return fail(TFCC_ERR_INTEGRITY,
                "encrypted model is %zu bytes, shorter than header and tag (truncated)", size);
  tfcc_enc_header h;
  char msg[512];
  tfcc_status st = tfcc_enc_header_parse(data, size, &h, msg, sizeof msg);
  if (st != TFCC_OK) return fail(st, "%s", msg);
  return decrypt(data, (const uint8_t *)data + TFCC_ENC_HEADER_BYTES, -1, &h, key, NULL, plain,
                 plain_size, NULL);
}

/* Opens the container file path: a regular file at least header + tag long. *fd (to close)
 * and its *size, or an error naming the path. */
static tfcc_status open_container(const char *path, int *fd, size_t *size) {
  *fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (*fd < 0 || fstat(*fd, &sb) != 0) {
    tfcc_status st = fail(TFCC_ERR_IO, "%s: %s", path, strerror(errno));
    if (*fd >= 0) close(*fd);
    return st;
  }
  if (!S_ISREG(sb.st_mode)) {
    close(*fd);
    return fail(TFCC_ERR_IO, "%s: not a regular file", path);
  }
  if ((uint64_t)sb.st_size < TFCC_ENC_HEADER_BYTES + TFCC_ENC_TAG_BYTES) {
    close(*fd);
    return fail(TFCC_ERR_INTEGRITY, "%s: %lld bytes, shorter than header and tag (truncated)", path,
                (long long)sb.st_size);
  }
  *size = (size_t)sb.st_size;
  return TFCC_OK;
}

/* Maps a container file read-only (populated up front when it is about to be decrypted, so
 * the decryption takes no page faults on it) and parses its header. The mapping is private and
 * lives only for the call: publish containers by write-then-rename (as tfcc encrypt does); a
 * file truncated in place during those milliseconds would raise SIGBUS, like any mmap user. */
static tfcc_status map_container(const char *path, bool populate, const uint8_t **map,
                                 size_t *map_size, tfcc_enc_header *h) {
  *map = NULL;
  int fd;
  size_t size;
  tfcc_status st = open_container(path, &fd, &size);
  if (st != TFCC_OK) return st;
  void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
  close(fd);
  if (m == MAP_FAILED) return fail(TFCC_ERR_IO, "%s: mmap failed: %s", path, strerror(errno));
  char msg[512];
  st = tfcc_enc_header_parse(m, (uint64_t)size, h, msg, sizeof msg);
  if (st != TFCC_OK) {
    munmap(m, size);
    return fail(st, "%s: %s", path, msg);
  }
  *map = m;
  *map_size = size;
  return TFCC_OK;
}

/* Decrypts the container at path with the key of its key id from ks, or (ks NULL) with key;
 * b: the binding (may be NULL); key_out (may be NULL): the key used, key_id_out (may be NULL):
 * the header's key id. */
static tfcc_status decrypt_file(const char *path, const tfcc_key_source *ks, const uint8_t *key,
                                const tfcc_enc_bind *b, void **plain, size_t *plain_size,
                                uint8_t *key_out, char *key_id_out) {
  *plain = NULL;
  *plain_size = 0;
  int fd;
  size_t size;
  tfcc_status st = open_container(path, &fd, &size);
  if (st != TFCC_OK) return st;
  uint8_t raw[TFCC_ENC_HEADER_BYTES];
  tfcc_enc_header h;
  char msg[512];
  st = tfcc_enc_read_at(fd, raw, sizeof raw, 0) ? TFCC_OK : TFCC_ERR_IO;
  if (st != TFCC_OK)
    snprintf(msg, sizeof msg, "cannot read the header");
  else
    st = tfcc_enc_header_parse(raw, (uint64_t)size, &h, msg, sizeof msg);
  if (st != TFCC_OK) {
    close(fd);
    return fail(st, "%s: %s", path, msg);
  }
  /* ciphertext read straight into the plaintext buffer and decrypted in place */
  st = ks ? decrypt(raw, NULL, fd, &h, ks, b, plain, plain_size, key_out)
          : decrypt_with(raw, NULL, fd, &h, key, b, plain, plain_size);
  if (key_id_out) memcpy(key_id_out, h.key_id, sizeof h.key_id);
  close(fd);
  if (st != TFCC_OK) {
    char m[sizeof g_msg];
    snprintf(m, sizeof m, "%s", g_msg);
    fail(st, "%s: %s", path, m);
  }
  return st;
}

tfcc_status tfcc_crypto_decrypt_file(const char *path, const tfcc_key_source *key, void **plain,
                                     size_t *plain_size) {
  g_msg[0] = 0;
  if (!path || !plain || !plain_size || !key)
    return fail(TFCC_ERR_INVALID_ARG, "tfcc_crypto_decrypt_file: NULL argument");
  return decrypt_file(path, key, NULL, NULL, plain, plain_size, NULL, NULL);
}

tfcc_status tfcc_enc_decrypt_file_key(const char *path, const uint8_t key[TFCC_KEY_BYTES],
                                      const tfcc_enc_bind *b, void **plain, size_t *plain_size) {
  g_msg[0] = 0;
  return decrypt_file(path, NULL, key, b, plain, plain_size, NULL, NULL);
}

tfcc_status tfcc_crypto_key_id(const char *path, char key_id[TFCC_KEY_ID_MAX + 1]) {
  g_msg[0] = 0;
  if (!path || !key_id) return fail(TFCC_ERR_INVALID_ARG, "tfcc_crypto_key_id: NULL argument");
  const uint8_t *map;
  size_t map_size = 0;
  tfcc_enc_header h;
  tfcc_status st = map_container(path, false, &map, &map_size, &h);
  if (st != TFCC_OK) return st;
  munmap((void *)map, map_size);
  memcpy(key_id, h.key_id, sizeof h.key_id);
  return TFCC_OK;
}

/* What a model loaded from a decrypted buffer owns: the plaintext, and the decrypted weights
 * cache its blocks point into (freed together, after the model's last use of either). */
typedef struct owned_plain {
  void *cache;
  size_t cache_size;
} owned_plain;

static void plain_free(void *user, void *data, size_t size) {
  owned_plain *o = user;
  tfcc_crypto_free(data, size);
  if (o) tfcc_plain_free(o->cache, o->cache_size);
  free(o);
}

/* The caller's options with a weights cache file named: a copy that hands the core the
 * decrypted cache in memory and the sink that encrypts a new one (*use false: no cache). */
static bool cache_wanted(const tfcc_model_options *opts) {
  return opts &&
         opts->struct_size >=
             offsetof(tfcc_model_options, weights_cache) + sizeof opts->weights_cache &&
         opts->struct_size <= sizeof(tfcc_model_options) && opts->weights_cache &&
         opts->weights_cache[0];
}

tfcc_status tfcc_model_load_encrypted(tfcc_runtime *rt, const char *path,
                                      const tfcc_key_source *key, const tfcc_model_options *opts,
                                      tfcc_model **out) {
  if (!out) return fail(TFCC_ERR_INVALID_ARG, "tfcc_model_load_encrypted: out is NULL");
  *out = NULL;
  g_msg[0] = 0;
  if (!path || !key) return fail(TFCC_ERR_INVALID_ARG, "tfcc_model_load_encrypted: NULL argument");
  const bool with_cache = cache_wanted(opts);
  void *plain = NULL;
  size_t n = 0;
  tfcc_enc_cache c;
  memset(&c, 0, sizeof c);
  uint8_t mk[TFCC_KEY_BYTES];
  tfcc_enc_bind bind = {NULL, c.model_bind};
  tfcc_status st = decrypt_file(path, key, NULL, &bind, &plain, &n, mk, c.key_id);
  if (st != TFCC_OK) return st;
  tfcc_model_options o;
  owned_plain *own = NULL;
  if (with_cache) {
    st = tfcc_enc_cache_key(mk, c.key_id, c.key);
    own = st == TFCC_OK ? calloc(1, sizeof *own) : NULL;
    if (!own) {
      OPENSSL_cleanse(mk, sizeof mk);
      OPENSSL_cleanse(c.key, sizeof c.key);
      tfcc_crypto_free(plain, n);
      return fail(st == TFCC_OK ? TFCC_ERR_NO_MEMORY : st, "%s: no key for its weights cache",
                  path);
    }
    c.path = opts->weights_cache;
    c.rt = rt;
    tfcc_enc_cache_read(&c);
    own->cache = c.plain;
    own->cache_size = c.plain_size;
    tfcc_model_options_default(&o);
    memcpy(&o, opts, opts->struct_size);
    o.struct_size = sizeof o;
    o.weights_cache_data = c.plain;
    o.weights_cache_size = c.plain_size;
    o.weights_cache_sink = tfcc_enc_cache_sink;
    o.weights_cache_sink_user = &c;
    o.weights_cache_data_trusted = 1; /* authenticated, bound to this model (wcache.h) */
    /* float packing is a reordering at memory speed, cheaper than decrypting its result
     * (bench/README.md, "Encrypted weights cache"); env TFCC_ENC_CACHE_FLOAT=1 caches it too */
    const char *ef = getenv("TFCC_ENC_CACHE_FLOAT");
    o.weights_cache_no_float = !(ef && (!strcmp(ef, "1") || !strcmp(ef, "on")));
    opts = &o;
  }
  OPENSSL_cleanse(mk, sizeof mk);
  st = tfcc_model_load_owned_buffer(rt, plain, n, plain_free, own, opts, out);
  OPENSSL_cleanse(c.key, sizeof c.key);
  if (st != TFCC_OK) fail(st, "%s (decrypted): %s", path, tfcc_last_error());
  return st;
}

tfcc_status tfcc_crypto_encrypt_file(const char *in_path, const char *out_path,
                                     const tfcc_key_source *key, const char *key_id) {
  g_msg[0] = 0;
  if (!in_path || !out_path)
    return fail(TFCC_ERR_INVALID_ARG, "tfcc_crypto_encrypt_file: NULL path");
  tfcc_enc_header h;
  memset(&h, 0, sizeof h);
  h.version = TFCC_ENC_VERSION;
  h.algorithm = TFCC_ENC_ALG_AES256GCM;
  if (key_id) {
    size_t l = strlen(key_id);
    if (l > TFCC_KEY_ID_MAX)
      return fail(TFCC_ERR_INVALID_ARG, "key id is %zu characters, at most %d", l, TFCC_KEY_ID_MAX);
    for (size_t i = 0; i < l; i++)
      if ((unsigned char)key_id[i] < 0x20 || (unsigned char)key_id[i] > 0x7e)
        return fail(TFCC_ERR_INVALID_ARG, "key id must be printable ASCII");
    memcpy(h.key_id, key_id, l);
  }
  uint8_t k[TFCC_KEY_BYTES];
  char msg[512];
  tfcc_status st = tfcc_key_get(key, h.key_id, k, msg, sizeof msg);
  if (st != TFCC_OK) return fail(st, "%s", msg);
  tfcc_enc_key_check(k, h.key_check);
  if (RAND_bytes(h.nonce, TFCC_ENC_NONCE_BYTES) != 1) {
    OPENSSL_cleanse(k, sizeof k);
    return fail(TFCC_ERR_RUNTIME, "no random bytes for the nonce");
  }
  FILE *in = fopen(in_path, "rb");
  if (!in) {
    OPENSSL_cleanse(k, sizeof k);
    return fail(TFCC_ERR_IO, "%s: %s", in_path, strerror(errno));
  }
  struct stat sb;
  if (fstat(fileno(in), &sb) != 0 || !S_ISREG(sb.st_mode)) {
    fclose(in);
    OPENSSL_cleanse(k, sizeof k);
    return fail(TFCC_ERR_IO, "%s: not a regular file", in_path);
  }
  h.plaintext_bytes = (uint64_t)sb.st_size;
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", out_path);
  FILE *out = fopen(tmp, "wb");
  if (!out) {
    fclose(in);
    OPENSSL_cleanse(k, sizeof k);
    return fail(TFCC_ERR_IO, "%s: %s", tmp, strerror(errno));
  }
  uint8_t raw[TFCC_ENC_HEADER_BYTES];
  tfcc_enc_header_write(&h, raw);
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int outl = 0;
  int ok = ctx && EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) == 1 &&
           EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, TFCC_ENC_NONCE_BYTES, NULL) == 1 &&
           EVP_EncryptInit_ex(ctx, NULL, NULL, k, h.nonce) == 1 &&
           EVP_EncryptUpdate(ctx, NULL, &outl, raw, TFCC_ENC_HEADER_BYTES) == 1 &&
           fwrite(raw, 1, sizeof raw, out) == sizeof raw;
  OPENSSL_cleanse(k, sizeof k);
  uint8_t *buf = malloc(CHUNK), *enc = malloc(CHUNK + 32);
  uint64_t total = 0;
  if (!buf || !enc) ok = 0;
  while (ok) {
    size_t n = fread(buf, 1, CHUNK, in);
    if (n == 0) break;
    total += n;
    ok = EVP_EncryptUpdate(ctx, enc, &outl, buf, (int)n) == 1 &&
         fwrite(enc, 1, (size_t)outl, out) == (size_t)outl;
  }
  uint8_t tag[TFCC_ENC_TAG_BYTES];
  if (ok)
    ok = !ferror(in) && total == h.plaintext_bytes && EVP_EncryptFinal_ex(ctx, enc, &outl) == 1 &&
         EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, TFCC_ENC_TAG_BYTES, tag) == 1 &&
         fwrite(tag, 1, sizeof tag, out) == sizeof tag;
  if (buf) OPENSSL_cleanse(buf, CHUNK);
  free(buf);
  free(enc);
  EVP_CIPHER_CTX_free(ctx);
  fclose(in);
  if (fclose(out) != 0) ok = 0;
  if (!ok || rename(tmp, out_path) != 0) {
    unlink(tmp);
    return fail(TFCC_ERR_IO, "encrypting %s to %s failed (%s)", in_path, out_path,
                errno ? strerror(errno) : "input changed");
  }
  return TFCC_OK;
}
