#include "cli.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "../crypto/crypto_load.h"
#include "../plugin/plugin_load.h"

static const char *g_custom_ops[CLI_MAX_CUSTOM_OPS];
static int g_n_custom_ops;

int cli_add_custom_ops(const char *cmd, const char *path) {
  if (!path || !path[0]) return cli_error(cmd, CLI_EXIT_USAGE, "--custom-ops: empty library path");
  if (g_n_custom_ops >= CLI_MAX_CUSTOM_OPS)
    return cli_error(cmd, CLI_EXIT_USAGE, "--custom-ops: at most %d libraries", CLI_MAX_CUSTOM_OPS);
  g_custom_ops[g_n_custom_ops++] = path;
  return 0;
}

int cli_load_custom_ops(const char *cmd, tfcc_runtime *rt) {
  for (int i = 0; i < g_n_custom_ops; i++) {
    char err[1024];
    if (tfcc_plugin_load(rt, g_custom_ops[i], err, sizeof err) != TFCC_OK)
      return cli_error(cmd, CLI_EXIT_FAIL, "--custom-ops %s", err);
  }
  return 0;
}

static tfcc_key_source g_key; /* kind 0: no key */

int cli_set_key(const char *cmd, int from_env, const char *value) {
  const char *opt = from_env ? "--key-env" : "--key-file";
  if (g_key.kind)
    return cli_error(cmd, CLI_EXIT_USAGE, "%s: one key only (--key-file FILE or --key-env VAR)",
                     opt);
  if (!value || !value[0])
    return cli_error(cmd, CLI_EXIT_USAGE, "%s: empty %s", opt, from_env ? "variable name" : "path");
  g_key.kind = from_env ? TFCC_KEY_FROM_ENV : TFCC_KEY_FROM_FILE;
  if (from_env)
    g_key.env = value;
  else
    g_key.path = value;
  return 0;
}

tfcc_status cli_load_model(tfcc_runtime *rt, const char *path, const tfcc_model_options *opts,
                           tfcc_model **out, char *err, size_t n) {
  return tfcc_model_open(rt, path, g_key.kind ? &g_key : NULL, "--key-file FILE or --key-env VAR",
                         opts, out, err, n);
}

int cli_error(const char *cmd, int code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* keep it one line */
  for (char *p = msg; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
  fprintf(stderr, "tfcc%s%s: error: %s\n", cmd ? " " : "", cmd ? cmd : "", msg);
  return code;
}

/* cli_log_quiet's switch (cli.h) */
static atomic_int g_log_quiet;

void cli_log_quiet(int quiet) { atomic_store(&g_log_quiet, quiet); }

/* Library log lines on stderr: warnings always (a weights cache that cannot be written or was
 * refused and rebuilt, a fallback: what a user must know to get what they asked for); the
 * others only with TFCC_LOG set in the environment (an error line repeats what the failed call
 * returns, which the command prints as its one "tfcc <cmd>: error: ..." line); none but errors
 * while cli_log_quiet(1). */
static void log_filter(void *user, tfcc_log_level level, const char *tag, const char *message) {
  (void)user;
  const char *env = getenv("TFCC_LOG");
  if (atomic_load(&g_log_quiet) && level != TFCC_LOG_ERROR) return;
  if (level != TFCC_LOG_WARN && (!env || !env[0])) return;
  static const char *const names[] = {"error", "warning", "info", "debug"};
  fprintf(stderr, "tfcc %s [%s] %s\n", (unsigned)level < 4 ? names[level] : "log", tag ? tag : "",
          message ? message : "");
}

/* --device: the runtime's device for every runtime the command makes (NULL: env TFCC_DEVICE). */
static const char *g_device;
static int g_device_id;

int cli_parse_device(const char *v, char *err, size_t n) {
  static char name[16];
  const char *colon = v ? strchr(v, ':') : NULL;
  size_t len = v ? (colon ? (size_t)(colon - v) : strlen(v)) : 0;
  if (!v || len == 0 || len >= sizeof name) {
    snprintf(err, n, "--device: expected cpu, cuda or cuda:N, got '%s'", v ? v : "");
    return -1;
  }
  memcpy(name, v, len);
  name[len] = 0;
  if (strcmp(name, "cpu") != 0 && strcmp(name, "cuda") != 0) {
    snprintf(err, n, "--device: unknown device '%s' (cpu, cuda, cuda:N)", name);
    return -1;
  }
  int id = 0;
  if (colon) {
    char *end = NULL;
    long l = strtol(colon + 1, &end, 10);
    if (!colon[1] || *end || l < 0 || l > 1024) {
      snprintf(err, n, "--device: bad device number in '%s'", v);
      return -1;
    }
    id = (int)l;
  }
  g_device = name;
  g_device_id = id;
  return 0;
}

void cli_runtime_defaults(tfcc_runtime_options *ro, int threads) {
  tfcc_runtime_options_default(ro);
  ro->num_threads = threads;
  ro->device = g_device;
  ro->device_id = g_device_id;
  ro->log_fn = log_filter;
  ro->log_level = getenv("TFCC_LOG") && getenv("TFCC_LOG")[0] ? TFCC_LOG_DEBUG : TFCC_LOG_WARN;
}

int cli_open_model(const char *cmd, const char *path, int threads, int allow_unsupported,
                   tfcc_runtime **rt, tfcc_model **model) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.allow_unsupported = allow_unsupported;
  return cli_open_model_opts(cmd, path, threads, &mo, rt, model);
}

int cli_parse_precision(const char *v, tfcc_precision *out, char *err, size_t n) {
  if (v && (strcmp(v, "f32") == 0 || strcmp(v, "fp32") == 0 || strcmp(v, "float32") == 0)) {
    *out = TFCC_PRECISION_F32;
    return 0;
  }
  if (v && strcmp(v, "bf16") == 0) {
    *out = TFCC_PRECISION_BF16;
    return 0;
  }
  if (v && (strcmp(v, "fp16") == 0 || strcmp(v, "f16") == 0)) {
    *out = TFCC_PRECISION_F16;
    return 0;
  }
  snprintf(err, n, "--precision: unknown precision '%s' (f32, bf16, fp16)", v ? v : "");
  return -1;
}

int cli_parse_quant_compat(const char *v, tfcc_quant_compat *out, char *err, size_t n) {
  if (v && strcmp(v, "tflite") == 0) {
    *out = TFCC_QUANT_COMPAT_TFLITE;
    return 0;
  }
  if (v && strcmp(v, "reference") == 0) {
    *out = TFCC_QUANT_COMPAT_REFERENCE;
    return 0;
  }
  snprintf(err, n, "--quant-compat: unknown arithmetic '%s' (tflite, reference)", v ? v : "");
  return -1;
}

int cli_parse_isa(const char *what, const char *v, tfcc_isa *out, char *err, size_t n) {
  tfcc_cpu_info c;
  memset(&c, 0, sizeof c);
  tfcc_cpu_info_get(&c);
  const int x86 = strcmp(c.arch, "x86_64") == 0, arm = strcmp(c.arch, "aarch64") == 0,
            wasm = strcmp(c.arch, "wasm32") == 0;
  /* the caps this CPU family has kernels for, lowest first */
  char runnable[64] = "generic";
  size_t used = strlen(runnable);
  for (int i = TFCC_ISA_GENERIC + 1; i < TFCC_ISA_COUNT_; i++)
    if ((i == TFCC_ISA_NEON) ? arm : (i == TFCC_ISA_WASMSIMD) ? wasm : x86)
      used += (size_t)snprintf(runnable + used, sizeof runnable - used, ", %s",
                               tfcc_isa_name((tfcc_isa)i));
  tfcc_isa isa;
  if (!v || tfcc_isa_parse(v, &isa) != TFCC_OK) {
    snprintf(err, n, "%s: unknown ISA '%s' (on this CPU: %s)", what, v ? v : "", runnable);
    return -1;
  }
  int ok = isa == TFCC_ISA_GENERIC || (isa == TFCC_ISA_NEON       ? arm
                                       : isa == TFCC_ISA_WASMSIMD ? wasm
                                                                  : x86);
  if (!ok) {
    snprintf(err, n, "%s: '%s' is an %s ISA; this CPU is %s and runs only %s", what, v,
             isa == TFCC_ISA_NEON       ? "aarch64"
             : isa == TFCC_ISA_WASMSIMD ? "WebAssembly"
                                        : "x86-64",
             c.arch[0] ? c.arch : "of another family", runnable);
    return -1;
  }
  *out = isa;
  return 0;
}

const char *cli_precision_name(tfcc_precision p) {
  return p == TFCC_PRECISION_BF16 ? "bf16" : p == TFCC_PRECISION_F16 ? "fp16" : "f32";
}

int cli_open_model_opts(const char *cmd, const char *path, int threads,
                        const tfcc_model_options *mo, tfcc_runtime **rt, tfcc_model **model) {
  *rt = NULL;
  *model = NULL;
  tfcc_runtime_options ro;
  cli_runtime_defaults(&ro, threads);
  tfcc_status st = tfcc_runtime_create(&ro, rt);
  if (st != TFCC_OK)
    return cli_error(cmd, CLI_EXIT_FAIL, "cannot create runtime: %s",
                     tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
  if (cli_load_custom_ops(cmd, *rt) != 0) {
    tfcc_runtime_destroy(*rt);
    *rt = NULL;
    return CLI_EXIT_FAIL;
  }
  char why[1024];
  if (cli_load_model(*rt, path, mo, model, why, sizeof why) != TFCC_OK) {
    tfcc_runtime_destroy(*rt);
    *rt = NULL;
    return cli_error(cmd, CLI_EXIT_FAIL, "%s", why);
  }
  return 0;
}

char *cli_shape_sig(const tfcc_tensor_info *info, char *buf, size_t size) {
  npy_shape_str(info->rank, info->dims, buf, size);
  if (memcmp(info->dims, info->signature,
             sizeof(int32_t) * (size_t)(info->rank > 0 ? info->rank : 0)) != 0) {
    size_t used = strlen(buf);
    char sig[128];
    npy_shape_str(info->rank, info->signature, sig, sizeof sig);
    snprintf(buf + used, size - used, " (signature %s)", sig);
  }
  return buf;
}

void cli_safe_name(const char *name, char *out, size_t size) {
  size_t i = 0;
  if (!size) return;
  for (; name && name[i] && i + 1 < size; i++) {
    char c = name[i];
    int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
             c == '.' || c == '_' || c == '-';
    out[i] = ok ? c : '_';
  }
  out[i] = '\0';
}

size_t cli_elements(const tfcc_tensor_info *info) {
  size_t n = 1;
  for (int32_t i = 0; i < info->rank; i++) n *= (size_t)(info->dims[i] > 0 ? info->dims[i] : 0);
  return n;
}
