/* libtfcc_crypto opened when tfcc encrypt / decrypt run (crypto_lib.h). */
#include "crypto_lib.h"

#ifdef TFCC_WITH_CRYPTO
#include <dlfcn.h>
#include <string.h>

#include "common/cli.h"

#define CRYPTO_LIBRARY "libtfcc_crypto.so.0"

/* dlsym's object pointer as a function pointer (POSIX guarantees the conversion works). */
static int sym(void *h, const char *name, void *fn_ptr_out) {
  void *p = dlsym(h, name);
  if (!p) return -1;
  memcpy(fn_ptr_out, &p, sizeof p);
  return 0;
}

int crypto_lib_open(const char *cmd, crypto_lib *lib) {
  memset(lib, 0, sizeof *lib);
  void *h = dlopen(CRYPTO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return cli_error(cmd, CLI_EXIT_FAIL, "cannot load %s (encryption support): %s", CRYPTO_LIBRARY,
                     dlerror());
  if (sym(h, "tfcc_crypto_last_error", &lib->last_error) != 0 ||
      sym(h, "tfcc_crypto_encrypt_file", &lib->encrypt_file) != 0 ||
      sym(h, "tfcc_crypto_decrypt_file", &lib->decrypt_file) != 0 ||
      sym(h, "tfcc_crypto_free", &lib->free_plain) != 0)
    return cli_error(cmd, CLI_EXIT_FAIL, "%s: %s", CRYPTO_LIBRARY, dlerror());
  return 0;
}
#endif
