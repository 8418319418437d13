/* tfcc watermark embed MODEL --id TEXT -o OUT | show MODEL | verify MODEL
 * Owner/build id + SHA-256 of the model in a TFLite metadata entry ("tfcc_watermark"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"

#define CMD "watermark"

static const char k_usage[] =
    "usage: tfcc watermark embed MODEL --id TEXT -o OUT\n"
    "       tfcc watermark show MODEL\n"
    "       tfcc watermark verify MODEL\n"
    "\n"
    "embed   writes a copy of MODEL carrying an owner/build id and the SHA-256 of the model as a\n"
    "        TFLite metadata entry 'tfcc_watermark' (other TFLite runtimes still load it; an\n"
    "        existing tfcc watermark is replaced)\n"
    "show    prints the id and digest and whether they match the content\n"
    "verify  exits 0 if the watermark is present and valid, 1 otherwise\n"
    "\n"
    "  --id TEXT      owner/build id (1-256 printable ASCII characters)\n"
    "  -o, --out OUT  output file (written to OUT.tmp, then renamed)\n"
    "  -h, --help     this text\n"
    "\n"
    "Loading with tfcc_model_options.require_watermark = 1 refuses models without a valid one.\n";

enum { OPT_ID = 1, OPT_OUT, OPT_HELP };
static const arg_opt k_opts[] = {{OPT_ID, NULL, "--id", 1},
                                 {OPT_OUT, "-o", "--out", 1},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {0, NULL, NULL, 0}};

static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *d = n > 0 ? malloc((size_t)n) : NULL;
  if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
    free(d);
    d = NULL;
  }
  fclose(f);
  *size = d ? (size_t)n : 0;
  return d;
}

static int write_renamed(const char *path, const void *d, size_t n) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) return -1;
  int ok = fwrite(d, 1, n, f) == n;
  if (fclose(f) != 0) ok = 0;
  if (!ok || rename(tmp, path) != 0) {
    remove(tmp);
    return -1;
  }
  return 0;
}

int cmd_watermark(int argc, char **argv) {
  args a;
  args_init(&a, argc, argv);
  const char *v, *action = NULL, *model = NULL, *id = NULL, *out = NULL;
  int r;
  while ((r = args_next(&a, k_opts, &v)) != ARGS_END) {
    switch (r) {
      case ARGS_ERROR: return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
      case OPT_HELP: fputs(k_usage, stdout); return CLI_EXIT_OK;
      case OPT_ID: id = v; break;
      case OPT_OUT: out = v; break;
      case ARGS_POSITIONAL:
        if (!action)
          action = v;
        else if (!model)
          model = v;
        else
          return cli_error(CMD, CLI_EXIT_USAGE, "unexpected argument '%s'", v);
        break;
    }
  }
  if (!action || !model) {
    fputs(k_usage, stderr);
    return CLI_EXIT_USAGE;
  }
  int embed = strcmp(action, "embed") == 0, show = strcmp(action, "show") == 0,
      verify = strcmp(action, "verify") == 0;
  if (!embed && !show && !verify)
    return cli_error(CMD, CLI_EXIT_USAGE, "unknown action '%s' (embed, show, verify)", action);
  if (embed && (!id || !out))
    return cli_error(CMD, CLI_EXIT_USAGE, "embed needs --id TEXT and -o OUT");
  size_t n = 0;
  void *d = read_all(model, &n);
  if (!d) return cli_error(CMD, CLI_EXIT_FAIL, "%s: cannot read", model);
  if (embed) {
    void *w = NULL;
    size_t wn = 0;
    tfcc_status st = tfcc_watermark_embed(d, n, id, &w, &wn);
    free(d);
    if (st != TFCC_OK) return cli_error(CMD, CLI_EXIT_FAIL, "%s: %s", model, tfcc_last_error());
    int wr = write_renamed(out, w, wn);
    free(w);
    if (wr != 0) return cli_error(CMD, CLI_EXIT_FAIL, "%s: cannot write", out);
    tfcc_watermark_info info;
    void *back = read_all(out, &wn);
    st = back ? tfcc_watermark_read(back, wn, &info) : TFCC_ERR_IO;
    free(back);
    if (st != TFCC_OK || !info.valid)
      return cli_error(CMD, CLI_EXIT_FAIL, "%s: written file does not verify", out);
    printf("%s: watermark id '%s', sha256 %s\n", out, info.id, info.sha256);
    return CLI_EXIT_OK;
  }
  tfcc_watermark_info info;
  tfcc_status st = tfcc_watermark_read(d, n, &info);
  free(d);
  if (st != TFCC_OK) return cli_error(CMD, CLI_EXIT_FAIL, "%s: %s", model, tfcc_last_error());
  if (!info.present) {
    printf("%s: no tfcc watermark\n", model);
    return verify ? CLI_EXIT_FAIL : CLI_EXIT_OK;
  }
  printf("%s: watermark id '%s'\nsha256: %s\nstatus: %s\n", model, info.id, info.sha256,
         info.valid ? "valid" : "INVALID");
  if (!info.valid) fprintf(stderr, "tfcc watermark: %s\n", tfcc_last_error());
  return verify && !info.valid ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
