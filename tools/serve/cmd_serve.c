/* tfcc serve: the HTTP inference server (server/). This file only turns the command line into
 * a srv_config (a YAML file and/or flags; flags win) and hands over to srv_run. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "srv_config.h"
#include "srv_log.h"
#include "srv_server.h"

#define CMD "serve"

static const char k_usage[] =
    "usage: tfcc serve MODEL.tflite [options]\n"
    "       tfcc serve --config config.yaml [options]\n"
    "       tfcc serve --model-repository DIR [options]\n"
    "\n"
    "HTTP inference server: KServe v2 (/v2/...), TF Serving REST (/v1/models/NAME:predict),\n"
    "Prometheus metrics (/metrics), zero-downtime model reload. See docs/server.md.\n"
    "\n"
    "  -c, --config FILE           YAML config (runtime, models, repository, server, metrics, log)\n"
    "  -r, --model-repository DIR  serve every DIR/<model>/<version>/model.tflite (or .tfcce)\n"
    "  -n, --name NAME             model name for MODEL.tflite (default: file name without .tflite\n"
    "                              or .tfcce)\n"
    "      --host ADDR             listen address (default 127.0.0.1; 0.0.0.0 for all)\n"
    "  -p, --port N                port (default 8000; 0 = any free port)\n"
    "      --port-file FILE        write the bound port to FILE once listening (health port: second line)\n"
    "      --health-port N         also listen on N for health and metrics only (0 = any free port)\n"
    "  -s, --sessions N            sessions (concurrent runs) per model (default: CPUs)\n"
    "  -t, --threads N             runtime worker threads (default: all CPUs)\n"
    "      --max-queue N           requests that may wait for a session (default 256)\n"
    "      --max-batch N           dynamic batching: merge queued requests up to N rows (default 0: off)\n"
    "      --max-queue-delay-us N  dynamic batching: longest wait for a batch to fill (default 0)\n"
    "      --precision f32|bf16|fp16  float arithmetic of every model (default f32; fp16: GPU only)\n"
    "      --device cpu|cuda[:N]   where the models run (default: runtime.device, env TFCC_DEVICE,\n"
    "                              else cpu); cuda: NVIDIA GPU N through libtfcc_cuda (docs/cuda.md)\n"
    "      --quant-compat A        quantized arithmetic of every model: tflite (default, TensorFlow\n"
    "                              Lite as it runs by default) or reference (its builtin kernels')\n"
    "      --weights-cache DIR     packed-weights caches DIR/<model>-<version>.wc: a model's first load\n"
    "                              writes its cache, later loads and restarts map it (config:\n"
    "                              runtime.weights_cache)\n"
    "      --key-file FILE         key of an encrypted MODEL (.tfcce, tfcc encrypt) and of the\n"
    "                              repository's models: 32 raw bytes or 64 hex digits (config: a\n"
    "                              model's key_file); --weights-cache then holds encrypted caches\n"
    "      --key-env VAR           the same key as 64 hex digits in environment variable VAR\n"
    "                              (config: key_env)\n"
    "      --poll-ms N             model file / repository poll interval (default 1000)\n"
    "      --custom-ops LIB.so     register the custom operators of plugin LIB.so on the runtime\n"
    "                              (repeatable; config: runtime.custom_ops, which these add to)\n"
    "      --log-format text|json  log line format (default text)\n"
    "      --log-level LEVEL       error, warn, info (default), debug\n"
    "      --no-access-log         no access log lines\n"
    "  -h, --help                  this text\n"
    "\n"
    "SIGTERM/SIGINT: stop accepting, finish in-flight requests, exit 0. SIGHUP: re-read the config.\n";

enum {
  OPT_CONFIG = 1,
  OPT_REPO,
  OPT_NAME,
  OPT_HOST,
  OPT_PORT,
  OPT_PORT_FILE,
  OPT_SESSIONS,
  OPT_THREADS,
  OPT_MAX_QUEUE,
  OPT_POLL,
  OPT_LOG_FORMAT,
  OPT_LOG_LEVEL,
  OPT_NO_ACCESS,
  OPT_HELP,
  OPT_MAX_BATCH,
  OPT_BATCH_DELAY,
  OPT_PRECISION,
  OPT_QUANT_COMPAT,
  OPT_HEALTH_PORT,
  OPT_WEIGHTS_CACHE,
  OPT_CUSTOM_OPS,
  OPT_KEY_FILE,
  OPT_KEY_ENV,
  OPT_DEVICE
};
static const arg_opt k_opts[] = {{OPT_CONFIG, "-c", "--config", 1},
                                 {OPT_REPO, "-r", "--model-repository", 1},
                                 {OPT_NAME, "-n", "--name", 1},
                                 {OPT_HOST, NULL, "--host", 1},
                                 {OPT_PORT, "-p", "--port", 1},
                                 {OPT_PORT_FILE, NULL, "--port-file", 1},
                                 {OPT_SESSIONS, "-s", "--sessions", 1},
                                 {OPT_THREADS, "-t", "--threads", 1},
                                 {OPT_MAX_QUEUE, NULL, "--max-queue", 1},
                                 {OPT_POLL, NULL, "--poll-ms", 1},
                                 {OPT_LOG_FORMAT, NULL, "--log-format", 1},
                                 {OPT_LOG_LEVEL, NULL, "--log-level", 1},
                                 {OPT_NO_ACCESS, NULL, "--no-access-log", 0},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {OPT_MAX_BATCH, NULL, "--max-batch", 1},
                                 {OPT_BATCH_DELAY, NULL, "--max-queue-delay-us", 1},
                                 {OPT_WEIGHTS_CACHE, NULL, "--weights-cache", 1},
                                 {OPT_PRECISION, NULL, "--precision", 1},
                                 {OPT_QUANT_COMPAT, NULL, "--quant-compat", 1},
                                 {OPT_HEALTH_PORT, NULL, "--health-port", 1},
                                 {OPT_CUSTOM_OPS, NULL, "--custom-ops", 1},
                                 {OPT_KEY_FILE, NULL, "--key-file", 1},
                                 {OPT_KEY_ENV, NULL, "--key-env", 1},
                                 {OPT_DEVICE, NULL, "--device", 1},
                                 {0, NULL, NULL, 0}};

typedef struct overrides {
  const char *config, *repo, *name, *host, *port_file, *model, *log_format, *log_level, *precision;
  const char *device;
  const char *quant_compat;
  const char *weights_cache;
  const char *key_file, *key_env; /* MODEL's and the repository's models' key */
  const char *custom_ops[SRV_MAX_CUSTOM_OPS];
  int n_custom_ops;
  long port, health_port, sessions, threads, max_queue, poll, max_batch, batch_delay;
  int no_access;
} overrides;

/* The numeric options: the overrides field each sets and its range. */
typedef struct num_opt {
  int id;
  size_t field; /* offsetof(overrides, ...), a long */
  long lo, hi;
  const char *name;
} num_opt;
static const num_opt k_num_opts[] = {
    {OPT_PORT, offsetof(overrides, port), 0, 65535, "--port"},
    {OPT_HEALTH_PORT, offsetof(overrides, health_port), 0, 65535, "--health-port"},
    {OPT_SESSIONS, offsetof(overrides, sessions), 1, 256, "--sessions"},
    {OPT_THREADS, offsetof(overrides, threads), 0, 1024, "--threads"},
    {OPT_MAX_QUEUE, offsetof(overrides, max_queue), 0, 1 << 20, "--max-queue"},
    {OPT_POLL, offsetof(overrides, poll), 50, 3600000, "--poll-ms"},
    {OPT_MAX_BATCH, offsetof(overrides, max_batch), 0, 1024, "--max-batch"},
    {OPT_BATCH_DELAY, offsetof(overrides, batch_delay), 0, 10000000, "--max-queue-delay-us"},
};

static const num_opt *num_opt_of(int id) {
  for (size_t i = 0; i < sizeof k_num_opts / sizeof k_num_opts[0]; i++)
    if (k_num_opts[i].id == id) return &k_num_opts[i];
  return NULL;
}

/* --key-file / --key-env onto a model entry (its key from the config replaced). 0 or -1. */
static int set_key(const overrides *o, srv_model_config *m) {
  const char *v = o->key_file ? o->key_file : o->key_env;
  if (!v) return 0;
  char *dst = o->key_file ? m->key_file : m->key_env;
  size_t size = o->key_file ? sizeof m->key_file : sizeof m->key_env;
  if (!v[0] || strlen(v) >= size) {
    cli_error(CMD, CLI_EXIT_USAGE, "%s: '%s': empty or too long",
              o->key_file ? "--key-file" : "--key-env", v);
    return -1;
  }
  m->key_file[0] = m->key_env[0] = '\0';
  snprintf(dst, size, "%s", v);
  return 0;
}

static int apply(overrides *o, srv_config *c) {
  tfcc_quant_compat quant_compat = TFCC_QUANT_COMPAT_TFLITE;
  if (o->quant_compat) {
    char qerr[128];
    if (cli_parse_quant_compat(o->quant_compat, &quant_compat, qerr, sizeof qerr) != 0)
      return cli_error(CMD, CLI_EXIT_USAGE, "%s", qerr);
  }
  tfcc_precision precision = TFCC_PRECISION_F32;
  if (o->precision) {
    char perr[128];
    if (cli_parse_precision(o->precision, &precision, perr, sizeof perr) != 0)
      return cli_error(CMD, CLI_EXIT_USAGE, "%s", perr);
  }
  if (o->device && srv_config_device(c, o->device) != 0)
    return cli_error(CMD, CLI_EXIT_USAGE, "--device: '%s' is not cpu, cuda or cuda:N", o->device);
  if (o->host) snprintf(c->host, sizeof c->host, "%s", o->host);
  if (o->port >= 0) c->port = (int)o->port;
  if (o->health_port >= 0) c->health_port = (int)o->health_port;
  if (o->port_file) snprintf(c->port_file, sizeof c->port_file, "%s", o->port_file);
  if (o->threads >= 0) c->num_threads = (int)o->threads;
  if (o->poll >= 0) c->poll_ms = (int)o->poll;
  if (o->repo) snprintf(c->repository, sizeof c->repository, "%s", o->repo);
  if (o->weights_cache) {
    if (strlen(o->weights_cache) >= sizeof c->weights_cache)
      return cli_error(CMD, CLI_EXIT_USAGE, "--weights-cache: path too long");
    snprintf(c->weights_cache, sizeof c->weights_cache, "%s", o->weights_cache);
  }
  for (int i = 0; i < o->n_custom_ops; i++) { /* added to the config's runtime.custom_ops */
    if (c->n_custom_ops >= SRV_MAX_CUSTOM_OPS)
      return cli_error(CMD, CLI_EXIT_USAGE, "--custom-ops: more than %d libraries in all",
                       SRV_MAX_CUSTOM_OPS);
    if (!o->custom_ops[i][0] || strlen(o->custom_ops[i]) >= sizeof c->custom_ops[0])
      return cli_error(CMD, CLI_EXIT_USAGE, "--custom-ops: '%s': empty or too long a path",
                       o->custom_ops[i]);
    snprintf(c->custom_ops[c->n_custom_ops++], sizeof c->custom_ops[0], "%s", o->custom_ops[i]);
  }
  if (o->no_access) c->access_log = 0;
  if (o->log_format) {
    if (!strcmp(o->log_format, "json"))
      c->log_json = 1;
    else if (!strcmp(o->log_format, "text"))
      c->log_json = 0;
    else
      return cli_error(CMD, CLI_EXIT_USAGE, "--log-format: '%s' is not text or json",
                       o->log_format);
  }
  if (o->log_level) {
    int l = srv_log_parse_level(o->log_level);
    if (l < 0)
      return cli_error(CMD, CLI_EXIT_USAGE, "--log-level: '%s' is not error, warn, info or debug",
                       o->log_level);
    c->log_level = l;
  }
  if (o->model) {
    srv_model_config *m = srv_config_add_model(c);
    if (!m) return cli_error(CMD, CLI_EXIT_USAGE, "too many models");
    if (strlen(o->model) >= sizeof m->path)
      return cli_error(CMD, CLI_EXIT_USAGE, "model path too long");
    snprintf(m->path, sizeof m->path, "%s", o->model);
    if (o->name)
      snprintf(m->name, sizeof m->name, "%s", o->name);
    else {
      const char *base = strrchr(o->model, '/');
      base = base ? base + 1 : o->model;
      snprintf(m->name, sizeof m->name, "%s", base);
      char *dot = strstr(m->name, ".tflite");
      if (!dot) dot = strstr(m->name, ".tfcce");
      if (dot && dot != m->name) *dot = '\0';
    }
    if (set_key(o, m) != 0) return CLI_EXIT_USAGE;
  }
  if (set_key(o, &c->repo_model) != 0) return CLI_EXIT_USAGE;
  for (int i = -1; i < c->n_models; i++) { /* -1: models found in the repository */
    srv_model_config *m = i < 0 ? &c->repo_model : &c->models[i];
    if (o->sessions > 0) m->sessions = (int)o->sessions;
    if (o->max_queue >= 0) m->max_queue = (int)o->max_queue;
    if (o->max_batch >= 0) m->max_batch = (int)o->max_batch;
    if (o->batch_delay >= 0) m->max_queue_delay_us = o->batch_delay;
    if (o->precision) m->precision = (int)precision;
    if (o->quant_compat) m->quant_compat = (int)quant_compat;
  }
  return 0;
}

int cmd_serve(int argc, char **argv) {
  overrides o;
  memset(&o, 0, sizeof o);
  o.port = o.health_port = o.sessions = o.threads = o.max_queue = o.poll = o.max_batch =
      o.batch_delay = -1;
  args a;
  args_init(&a, argc, argv);
  const char *v;
  int id;
  char err[512];
  while ((id = args_next(&a, k_opts, &v)) != ARGS_END) {
    switch (id) {
      case ARGS_ERROR: return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
      case ARGS_POSITIONAL:
        if (o.model)
          return cli_error(CMD, CLI_EXIT_USAGE, "one MODEL.tflite only (use --config for several)");
        o.model = v;
        break;
      case OPT_HELP: fputs(k_usage, stdout); return CLI_EXIT_OK;
      case OPT_CONFIG: o.config = v; break;
      case OPT_REPO: o.repo = v; break;
      case OPT_NAME: o.name = v; break;
      case OPT_HOST: o.host = v; break;
      case OPT_PORT_FILE: o.port_file = v; break;
      case OPT_LOG_FORMAT: o.log_format = v; break;
      case OPT_LOG_LEVEL: o.log_level = v; break;
      case OPT_PRECISION: o.precision = v; break;
      case OPT_DEVICE: o.device = v; break;
      case OPT_QUANT_COMPAT: o.quant_compat = v; break;
      case OPT_WEIGHTS_CACHE: o.weights_cache = v; break;
      case OPT_KEY_FILE:
      case OPT_KEY_ENV:
        if (o.key_file || o.key_env)
          return cli_error(CMD, CLI_EXIT_USAGE, "one key only (--key-file FILE or --key-env VAR)");
        *(id == OPT_KEY_FILE ? &o.key_file : &o.key_env) = v;
        break;
      case OPT_NO_ACCESS: o.no_access = 1; break;
      case OPT_CUSTOM_OPS:
        if (o.n_custom_ops >= SRV_MAX_CUSTOM_OPS)
          return cli_error(CMD, CLI_EXIT_USAGE, "--custom-ops: at most %d libraries",
                           SRV_MAX_CUSTOM_OPS);
        o.custom_ops[o.n_custom_ops++] = v;
        break;
      default: { /* a numeric option: its field and range */
        const num_opt *n = num_opt_of(id);
        long *field = n ? (long *)((char *)&o + n->field) : NULL;
        if (field && args_int(n->name, v, n->lo, n->hi, field, err, sizeof err) != 0)
          return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
        break;
      }
    }
  }
  if (!o.config && !o.model && !o.repo) {
    fputs(k_usage, stderr);
    return CLI_EXIT_USAGE;
  }
  srv_config *c = calloc(1, sizeof *c);
  if (!c || srv_config_init(c) != 0) {
    free(c);
    return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  }
  if (o.config && srv_config_load_file(o.config, c, err, sizeof err) != 0) {
    /* A config with only a repository or no models is completed by the flags below. */
    if (!(strstr(err, "no models") && (o.model || o.repo))) {
      srv_config_free(c);
      free(c);
      return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
    }
  }
  int rc = apply(&o, c);
  if (rc == 0 && srv_config_validate(c, err, sizeof err) != 0)
    rc = cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
  if (rc != 0) {
    srv_config_free(c);
    free(c);
    return rc;
  }
  rc = srv_run(c, o.config); /* takes c's contents */
  free(c);
  return rc;
}
