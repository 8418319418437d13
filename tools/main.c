/* tfcc: command-line front end of the tfcc inference engine. Dispatches to subcommands. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/cli.h"
#include "tfcc/tfcc.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command k_commands[] = {
    {"run", cmd_run, "run a model on .npy inputs, write its outputs as .npy"},
    {"inspect", cmd_inspect, "show a model's inputs, outputs, operators, MACs (--json)"},
    {"classify", cmd_classify, "classify an image (JPEG, PNG, BMP) and print the top classes"},
    {"detect", cmd_detect, "detect objects in an image (SSD post-process outputs), draw boxes"},
    {"bench", cmd_bench, "measure load time, latency, throughput, memory, per-operator profile"},
    {"cpu-info", cmd_cpu_info,
     "show CPU features, caches, cores and where kernels dispatch (--json)"},
    {"gpu-info", cmd_gpu_info, "show the CUDA GPU the cuda device would use (JSON), or why none"},
    {"serve", cmd_serve, "HTTP inference server (KServe v2, TF Serving REST, Prometheus metrics)"},
    {"watermark", cmd_watermark, "embed, show or verify an owner/build id + content hash"},
    {"encrypt", cmd_encrypt, "encrypt a model (AES-256-GCM container)"},
    {"decrypt", cmd_decrypt, "decrypt an encrypted model to a plain .tflite"},
};
#define COMMAND_COUNT (sizeof k_commands / sizeof k_commands[0])

static void usage(FILE *f) {
  fprintf(f, "usage: tfcc <command> [options]\n       tfcc --help | --version\n\ncommands:\n");
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    fprintf(f, "  %-9s %s\n", k_commands[i].name, k_commands[i].summary);
  fprintf(f, "\n'tfcc <command> --help' describes a command.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return CLI_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    usage(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    printf("tfcc %d.%d.%d (library %s)\n", TFCC_VERSION_MAJOR, TFCC_VERSION_MINOR,
           TFCC_VERSION_PATCH, tfcc_version());
    return CLI_EXIT_OK;
  }
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (strcmp(cmd, k_commands[i].name) == 0) return k_commands[i].run(argc - 1, argv + 1);
  return cli_error(NULL, CLI_EXIT_USAGE, "unknown command '%s' (try 'tfcc --help')", cmd);
}
