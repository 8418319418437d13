/* libtfcc_crypto for tfcc encrypt / decrypt, opened (dlopen) only when one of them runs, so the
 * tfcc command's other subcommands do not map OpenSSL's libcrypto (about 1.4 MiB resident in
 * every tfcc bench or tfcc run before). */
#ifndef TFCC_TOOLS_CRYPTO_LIB_H
#define TFCC_TOOLS_CRYPTO_LIB_H

#ifdef TFCC_WITH_CRYPTO
#include <stddef.h>

#include "tfcc/tfcc_crypto.h"

typedef struct crypto_lib {
  const char *(*last_error)(void);
  tfcc_status (*encrypt_file)(const char *in_path, const char *out_path, const tfcc_key_source *key,
                              const char *key_id);
  tfcc_status (*decrypt_file)(const char *path, const tfcc_key_source *key, void **plain,
                              size_t *plain_size);
  void (*free_plain)(void *plain, size_t size);
} crypto_lib;

/* Opens libtfcc_crypto (the tfcc command's RUNPATH: the build tree or the install prefix's
 * lib directory) and fills lib. 0, or the CLI_EXIT_FAIL of the error line (the library and
 * dlerror()). The library stays loaded until the process exits. */
int crypto_lib_open(const char *cmd, crypto_lib *lib);
#endif

#endif
