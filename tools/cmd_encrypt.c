/* tfcc encrypt MODEL -o OUT (--key-file F | --key-env VAR) [--key-id ID]
 * AES-256-GCM container (see include/tfcc/tfcc_crypto.h). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "crypto_args.h"
#include "crypto/crypto_load.h"

#define CMD "encrypt"

static const char k_usage[] =
    "usage: tfcc encrypt MODEL -o OUT (--key-file FILE | --key-env VAR) [--key-id ID]\n"
    "\n"
    "Encrypts MODEL with AES-256-GCM into a tfcc container (header with magic, version, key id\n"
    "and nonce; authenticated). Run it with its key (tfcc run, bench, serve: --key-file or\n"
    "--key-env), load it with tfcc_model_load_encrypted() (C API) or decrypt it with\n"
    "'tfcc decrypt'.\n"
    "\n"
    "  --key-file FILE  key: 32 raw bytes or 64 hex digits\n"
    "  --key-env VAR    key: 64 hex digits in environment variable VAR\n"
    "  --key-id ID      names the key in the header (up to 32 printable characters)\n"
    "  -o, --out OUT    output (written to OUT.tmp, then renamed)\n"
    "  -h, --help       this text\n";

int cmd_encrypt(int argc, char **argv) {
#ifndef TFCC_WITH_CRYPTO
  (void)argc, (void)argv, (void)k_usage;
  return cli_error(
      CMD, CLI_EXIT_FAIL,
      "this tfcc was built without encryption support (-DTFCC_WITH_CRYPTO=ON, needs OpenSSL)");
#else
  crypto_args ca;
  int r = crypto_args_parse(CMD, k_usage, argc, argv, 1, &ca);
  if (r >= 0) return r;
  if (!ca.out) return cli_error(CMD, CLI_EXIT_USAGE, "-o OUT is required");
  char why[512];
  const tfcc_crypto_api *lib = tfcc_crypto_api_get(why, sizeof why);
  if (!lib) return cli_error(CMD, CLI_EXIT_FAIL, "%s", why);
  if (lib->encrypt_file(ca.model, ca.out, &ca.key, ca.key_id) != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", lib->last_error());
  printf("%s: encrypted (AES-256-GCM, key id '%s')\n", ca.out, ca.key_id ? ca.key_id : "");
  return CLI_EXIT_OK;
#endif
}
