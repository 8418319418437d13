/* libtfcc_crypto opened on first use, and the model loader of the hosts (crypto_load.h). */
#include "crypto_load.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CRYPTO_LIBRARY "libtfcc_crypto.so.0"
#define MAGIC "TFCCENC" /* and a NUL: 8 bytes (include/tfcc/tfcc_crypto.h) */
#define MAGIC_BYTES 8

static tfcc_crypto_api g_crypto;
static char g_crypto_err[512];
static int g_crypto_ok;
static pthread_once_t g_crypto_once = PTHREAD_ONCE_INIT;

#ifdef TFCC_WITH_CRYPTO
/* dlsym's object pointer as a function pointer (POSIX guarantees the conversion works). */
static int crypto_sym(void *h, const char *name, void *fn_ptr_out) {
  void *p = dlsym(h, name);
  if (!p) return -1;
  memcpy(fn_ptr_out, &p, sizeof p);
  return 0;
}
#endif

static void crypto_open_once(void) {
#ifndef TFCC_WITH_CRYPTO
  snprintf(g_crypto_err, sizeof g_crypto_err,
           "this build has no encryption support (configure with -DTFCC_WITH_CRYPTO=ON; needs "
           "OpenSSL's libcrypto)");
#else
  void *h = dlopen(CRYPTO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(g_crypto_err, sizeof g_crypto_err, "cannot load %s (encryption support): %s",
             CRYPTO_LIBRARY, dlerror());
    return;
  }
  if (crypto_sym(h, "tfcc_crypto_last_error", &g_crypto.last_error) != 0 ||
      crypto_sym(h, "tfcc_model_load_encrypted", &g_crypto.load_encrypted) != 0 ||
      crypto_sym(h, "tfcc_crypto_encrypt_file", &g_crypto.encrypt_file) != 0 ||
      crypto_sym(h, "tfcc_crypto_decrypt_file", &g_crypto.decrypt_file) != 0 ||
      crypto_sym(h, "tfcc_crypto_free", &g_crypto.free_plain) != 0 ||
      crypto_sym(h, "tfcc_crypto_key_id", &g_crypto.key_id) != 0) {
    snprintf(g_crypto_err, sizeof g_crypto_err, "%s: %s", CRYPTO_LIBRARY, dlerror());
    return;
  }
  g_crypto_ok = 1;
#endif
}

const tfcc_crypto_api *tfcc_crypto_api_get(char *err, size_t n) {
  pthread_once(&g_crypto_once, crypto_open_once);
  if (g_crypto_ok) return &g_crypto;
  if (err && n) snprintf(err, n, "%s", g_crypto_err);
  return NULL;
}

/* 1 when the file at path starts with the container magic (the header is the library's to read:
 * nothing else of it here, so that a plain model never opens libtfcc_crypto). */
int tfcc_crypto_is_container(const char *path) {
  unsigned char h[MAGIC_BYTES];
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) return 0;
  ssize_t got = pread(fd, h, sizeof h, 0);
  close(fd);
  return got == MAGIC_BYTES && memcmp(h, MAGIC, MAGIC_BYTES) == 0;
}

/* err = msg, prefixed with "path: " unless msg names path already. */
static void crypto_named(char *err, size_t n, const char *path, const char *msg) {
  if (strstr(msg, path))
    snprintf(err, n, "%s", msg);
  else
    snprintf(err, n, "%s: %s", path, msg);
}

tfcc_status tfcc_model_open(tfcc_runtime *rt, const char *path, const tfcc_key_source *key,
                            const char *key_hint, const tfcc_model_options *opts, tfcc_model **out,
                            char *err, size_t n) {
  *out = NULL;
  const int container = tfcc_crypto_is_container(path);
  if (!key) {
    if (container) {
      /* the key id, where the library can read it (it names which key to give) */
      char key_id[TFCC_KEY_ID_MAX + 1] = "";
      const tfcc_crypto_api *api = tfcc_crypto_api_get(NULL, 0);
      if (!api || api->key_id(path, key_id) != TFCC_OK) key_id[0] = '\0';
      snprintf(err, n,
               "%s: an encrypted model (tfcc encrypt container%s%s%s): give its key with %s", path,
               key_id[0] ? ", key id '" : "", key_id, key_id[0] ? "'" : "",
               key_hint ? key_hint : "a key");
      return TFCC_ERR_INVALID_ARG;
    }
    tfcc_status st = tfcc_model_load_file(rt, path, opts, out);
    if (st != TFCC_OK)
      crypto_named(err, n, path, tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
    return st;
  }
  if (!container) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      snprintf(err, n, "%s: %s", path, strerror(errno));
      return TFCC_ERR_IO;
    }
    close(fd);
    snprintf(err, n,
             "%s: a key was given, but this is not an encrypted model (a tfcc encrypt container "
             "starts with TFCCENC): load it without a key",
             path);
    return TFCC_ERR_INVALID_ARG;
  }
  const tfcc_crypto_api *api = tfcc_crypto_api_get(err, n);
  if (!api) {
    char why[512];
    snprintf(why, sizeof why, "%s", err);
    snprintf(err, n, "%s: an encrypted model, but %s", path, why);
    return TFCC_ERR_UNSUPPORTED;
  }
  tfcc_status st = api->load_encrypted(rt, path, key, opts, out);
  if (st != TFCC_OK)
    crypto_named(err, n, path, api->last_error()[0] ? api->last_error() : tfcc_status_str(st));
  return st;
}
