/* tfcc decrypt CONTAINER -o OUT (--key-file F | --key-env VAR): writes the plain .tflite. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "crypto_args.h"
#include "crypto/crypto_load.h"

#define CMD "decrypt"

static const char k_usage[] =
    "usage: tfcc decrypt CONTAINER -o OUT (--key-file FILE | --key-env VAR)\n"
    "\n"
    "Decrypts a tfcc encrypted model to a plain .tflite file. Nothing is written unless the key\n"
    "is right and the container authenticates. (Loading never needs this: tfcc run, bench and\n"
    "serve take the key and decrypt into memory.)\n"
    "\n"
    "  --key-file FILE  key: 32 raw bytes or 64 hex digits\n"
    "  --key-env VAR    key: 64 hex digits in environment variable VAR\n"
    "  -o, --out OUT    output (written to OUT.tmp, then renamed)\n"
    "  -h, --help       this text\n";

int cmd_decrypt(int argc, char **argv) {
#ifndef TFCC_WITH_CRYPTO
  (void)argc, (void)argv, (void)k_usage;
  return cli_error(
      CMD, CLI_EXIT_FAIL,
      "this tfcc was built without encryption support (-DTFCC_WITH_CRYPTO=ON, needs OpenSSL)");
#else
  crypto_args ca;
  int r = crypto_args_parse(CMD, k_usage, argc, argv, 0, &ca);
  if (r >= 0) return r;
  if (!ca.out) return cli_error(CMD, CLI_EXIT_USAGE, "-o OUT is required");
  char why[512];
  const tfcc_crypto_api *lib = tfcc_crypto_api_get(why, sizeof why);
  if (!lib) return cli_error(CMD, CLI_EXIT_FAIL, "%s", why);
  void *plain = NULL;
  size_t n = 0;
  if (lib->decrypt_file(ca.model, &ca.key, &plain, &n) != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", lib->last_error());
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", ca.out);
  FILE *f = fopen(tmp, "wb");
  int ok = f && fwrite(plain, 1, n, f) == n;
  if (f && fclose(f) != 0) ok = 0;
  lib->free_plain(plain, n);
  if (!ok || rename(tmp, ca.out) != 0) {
    remove(tmp);
    return cli_error(CMD, CLI_EXIT_FAIL, "%s: cannot write", ca.out);
  }
  printf("%s: %zu bytes decrypted\n", ca.out, n);
  return CLI_EXIT_OK;
#endif
}
