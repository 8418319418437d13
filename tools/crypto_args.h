/* Shared option parsing of tfcc encrypt / decrypt. */
#ifndef TFCC_TOOLS_CRYPTO_ARGS_H
#define TFCC_TOOLS_CRYPTO_ARGS_H

#ifdef TFCC_WITH_CRYPTO
#include <stdio.h>

#include "common/args.h"
#include "common/cli.h"
#include "tfcc/tfcc_crypto.h"

typedef struct crypto_args {
  const char *model, *out, *key_id;
  tfcc_key_source key;
} crypto_args;

/* Returns an exit code to return now, or -1 to go on. */
static inline int crypto_args_parse(const char *cmd, const char *usage, int argc, char **argv,
                                    int allow_key_id, crypto_args *ca) {
  enum { OPT_OUT = 1, OPT_KEY_FILE, OPT_KEY_ENV, OPT_KEY_ID, OPT_HELP };
  const arg_opt opts[] = {
      {OPT_OUT, "-o", "--out", 1},         {OPT_KEY_FILE, NULL, "--key-file", 1},
      {OPT_KEY_ENV, NULL, "--key-env", 1}, {OPT_KEY_ID, NULL, "--key-id", 1},
      {OPT_HELP, "-h", "--help", 0},       {0, NULL, NULL, 0}};
  args a;
  args_init(&a, argc, argv);
  const char *v;
  int r;
  *ca = (crypto_args){0};
  while ((r = args_next(&a, opts, &v)) != ARGS_END) {
    switch (r) {
      case ARGS_ERROR: return cli_error(cmd, CLI_EXIT_USAGE, "%s", a.err);
      case OPT_HELP: fputs(usage, stdout); return CLI_EXIT_OK;
      case OPT_OUT: ca->out = v; break;
      case OPT_KEY_FILE: ca->key.kind = TFCC_KEY_FROM_FILE, ca->key.path = v; break;
      case OPT_KEY_ENV: ca->key.kind = TFCC_KEY_FROM_ENV, ca->key.env = v; break;
      case OPT_KEY_ID:
        if (!allow_key_id)
          return cli_error(cmd, CLI_EXIT_USAGE, "--key-id is read from the container");
        ca->key_id = v;
        break;
      case ARGS_POSITIONAL:
        if (ca->model) return cli_error(cmd, CLI_EXIT_USAGE, "unexpected argument '%s'", v);
        ca->model = v;
        break;
    }
  }
  if (!ca->model) {
    fputs(usage, stderr);
    return CLI_EXIT_USAGE;
  }
  if (!ca->key.kind)
    return cli_error(cmd, CLI_EXIT_USAGE, "a key is required: --key-file FILE or --key-env VAR");
  return -1;
}
#endif
#endif
