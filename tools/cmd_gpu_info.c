/* tfcc gpu-info [--device N]: the NVIDIA GPU that device "cuda" would run on (tfcc_device_describe,
 * JSON), or the reason there is none (library, driver or device missing): exit 0 / 1. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "tfcc/tfcc.h"

#define CMD "gpu-info"

static const char k_usage[] =
    "usage: tfcc gpu-info [--device N]\n"
    "\n"
    "Prints, as JSON, the NVIDIA GPU number N (default 0) that --device cuda runs on: name,\n"
    "compute capability, multiprocessors, memory, driver, CUDA runtime and cuBLAS versions. Exits\n"
    "1 with the reason where there is none (tfcc built without libtfcc_cuda, no driver, no GPU).\n";

int cmd_gpu_info(int argc, char **argv) {
  long id = 0;
  for (int i = 1; i < argc; i++) {
    char err[200];
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      fputs(k_usage, stdout);
      return CLI_EXIT_OK;
    }
    if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      if (args_int("--device", argv[++i], 0, 1024, &id, err, sizeof err) != 0)
        return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
      continue;
    }
    return cli_error(CMD, CLI_EXIT_USAGE, "unknown argument '%s' (tfcc gpu-info --help)", argv[i]);
  }
  char buf[4096];
  if (tfcc_device_describe("cuda", (int)id, buf, sizeof buf) != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", tfcc_last_error());
  printf("%s\n", buf);
  return CLI_EXIT_OK;
}
