/* Encrypted models (include/tfcc/tfcc_crypto.h) for the hosts: the tfcc command (--key-file /
 * --key-env of run, bench, classify, detect, inspect; encrypt, decrypt) and tfcc serve (a model's
 * key_file / key_env). libtfcc_crypto is opened with dlopen on first use, so that a process that
 * never meets an encrypted model does not map OpenSSL's libcrypto (about 1.4 MiB resident). A
 * small library of its own, as tools/plugin is. */
#ifndef TFCC_TOOLS_CRYPTO_LOAD_H
#define TFCC_TOOLS_CRYPTO_LOAD_H

#include <stddef.h>

#include "tfcc/tfcc.h"
#include "tfcc/tfcc_crypto.h"

typedef struct tfcc_crypto_api {
  const char *(*last_error)(void);
  tfcc_status (*load_encrypted)(tfcc_runtime *rt, const char *path, const tfcc_key_source *key,
                                const tfcc_model_options *opts, tfcc_model **out);
  tfcc_status (*encrypt_file)(const char *in_path, const char *out_path, const tfcc_key_source *key,
                              const char *key_id);
  tfcc_status (*decrypt_file)(const char *path, const tfcc_key_source *key, void **plain,
                              size_t *plain_size);
  void (*free_plain)(void *plain, size_t size);
  tfcc_status (*key_id)(const char *path, char key_id[TFCC_KEY_ID_MAX + 1]);
} tfcc_crypto_api;

/* libtfcc_crypto's functions (the library is opened once per process, from the program's
 * RUNPATH: the build tree or the install prefix's lib directory; thread-safe), or NULL with err
 * (n bytes): "this build has no encryption support (...)" or "cannot load libtfcc_crypto.so.0
 * (encryption support): <dlerror>". */
const tfcc_crypto_api *tfcc_crypto_api_get(char *err, size_t n);

/* 1 when the file at path starts with the container magic "TFCCENC\0", else 0 (also when it
 * cannot be read: the loader then names the cause). */
int tfcc_crypto_is_container(const char *path);

/* Loads the model at path: with key NULL a plain model (tfcc_model_load_file), with a key an
 * encrypted container (tfcc_model_load_encrypted; opts->weights_cache is then the encrypted
 * weights cache). Refused with err, naming path, when a container comes without a key (key_hint:
 * how the host takes one, e.g. "--key-file FILE or --key-env VAR"), when a key comes with a file
 * that is not a container, and for what the loaders report (wrong key, a modified, truncated or
 * unreadable file: their message). Returns TFCC_OK or the status. */
tfcc_status tfcc_model_open(tfcc_runtime *rt, const char *path, const tfcc_key_source *key,
                            const char *key_hint, const tfcc_model_options *opts, tfcc_model **out,
                            char *err, size_t n);

#endif
