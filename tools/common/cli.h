/* Helpers shared by the tfcc subcommands: error lines, model opening, formatting. */
#ifndef TFCC_TOOLS_CLI_H
#define TFCC_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* Exit codes: 0 success, 1 failure, 2 bad command line. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* Prints "tfcc <cmd>: error: <message>" (one line) to stderr and returns code. */
int cli_error(const char *cmd, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Runtime options as every subcommand uses them: threads (0 = all CPUs), library log lines
 * dropped unless TFCC_LOG is set. */
void cli_runtime_defaults(tfcc_runtime_options *ro, int threads);
/* 1: the runtimes cli_runtime_defaults set up drop their warning and info lines (errors stay)
 * until cli_log_quiet(0): for a load whose warnings describe no run (tfcc inspect's pass-free
 * load of the file's own operators). */
void cli_log_quiet(int quiet);
/* --device cpu | cuda | cuda:N for the runtimes cli_runtime_defaults sets up; -1 and err. */
int cli_parse_device(const char *v, char *err, size_t n);

/* Creates a runtime (threads: 0 = all CPUs) and loads the model. On failure prints the
 * error line, frees what was made and returns CLI_EXIT_FAIL; else 0. */
int cli_open_model(const char *cmd, const char *path, int threads, int allow_unsupported,
                   tfcc_runtime **rt, tfcc_model **model);
/* The same with model options (NULL: defaults). */
int cli_open_model_opts(const char *cmd, const char *path, int threads,
                        const tfcc_model_options *mo, tfcc_runtime **rt, tfcc_model **model);

/* --custom-ops LIB.so (repeatable): custom-operator plugins (docs/custom_ops.md, "Plugins")
 * registered on every runtime the command creates (cli_open_model*, and cli_load_custom_ops
 * where a command creates its runtime itself). cli_add_custom_ops records one (0, or the usage
 * error line and CLI_EXIT_USAGE); cli_load_custom_ops loads them all onto rt (0, or the error
 * line naming the library and dlerror() / the plugin's message, and CLI_EXIT_FAIL). */
#define CLI_MAX_CUSTOM_OPS 16
#define CLI_CUSTOM_OPS_USAGE \
  "      --custom-ops LIB.so     register the custom operators of plugin LIB.so (repeatable;\n" \
  "                              docs/custom_ops.md)\n"
int cli_add_custom_ops(const char *cmd, const char *path);
int cli_load_custom_ops(const char *cmd, tfcc_runtime *rt);

/* --key-file FILE / --key-env VAR: the key of an encrypted MODEL (a .tfcce container of tfcc
 * encrypt; docs/lifecycle.md), for every model the command opens (cli_open_model*,
 * cli_load_model). cli_set_key records it: 0, or the usage error line and CLI_EXIT_USAGE (a
 * second key, an empty value). */
#define CLI_KEY_USAGE \
  "      --key-file FILE         key of an encrypted MODEL (.tfcce, tfcc encrypt): 32 raw bytes\n" \
  "                              or 64 hex digits (docs/lifecycle.md)\n" \
  "      --key-env VAR           the same key as 64 hex digits in environment variable VAR\n"
int cli_set_key(const char *cmd, int from_env, const char *value);
/* Loads path with the command's key (none set: a plain model; a container without a key, a key
 * with a plain model, a wrong key: refused), opts->weights_cache being an encrypted cache for an
 * encrypted model. TFCC_OK, or the status with err (n bytes) naming path and the cause. */
tfcc_status cli_load_model(tfcc_runtime *rt, const char *path, const tfcc_model_options *opts,
                           tfcc_model **out, char *err, size_t n);

/* --quant-compat VALUE: "tflite" (TensorFlow Lite as it runs by default) or "reference"
 * (its builtin reference kernels' arithmetic); docs/quantization.md. 0, or -1 with err set. */
int cli_parse_quant_compat(const char *v, tfcc_quant_compat *out, char *err, size_t n);
/* --precision VALUE: "f32" (also "fp32", "float32") or "bf16". 0, or -1 with err set. */
int cli_parse_precision(const char *v, tfcc_precision *out, char *err, size_t n);
/* An ISA cap name (--isa VALUE, TFCC_ISA) that this CPU family has kernels for: generic, and
 * sse4/avx2/avx512 on x86-64 or neon on aarch64. A name of the other family (neon on x86) is
 * refused with err naming the caps this CPU runs. `what` prefixes the message. 0 or -1. */
int cli_parse_isa(const char *what, const char *v, tfcc_isa *out, char *err, size_t n);
/* "f32", "bf16". */
const char *cli_precision_name(tfcc_precision p);

/* "[1,224,224,3]", plus " (signature [-1,1])" when the signature differs from dims. */
char *cli_shape_sig(const tfcc_tensor_info *info, char *buf, size_t size);

/* Replaces characters outside [A-Za-z0-9._-] by '_' (in a copy, always NUL-terminated). */
void cli_safe_name(const char *name, char *out, size_t size);

/* Element count of an info's current shape. */
size_t cli_elements(const tfcc_tensor_info *info);

#endif
