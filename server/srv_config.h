/* Server configuration: defaults, the YAML file (libyaml), and validation.
 *
 *   runtime: {num_threads, cpu_affinity: [ids], memory_pool_mb, isa, device: cpu | cuda[:N],
 *             weights_cache: DIR,
 *             custom_ops: [LIB.so]}
 *   models:  [{name, path, versions: [n] | latest, sessions, max_queue, max_batch,
 *              max_queue_delay_us, precision: fp32 | bf16,
 *              quant_compat: tflite | reference, inputs: [names], outputs: [names],
 *              key_file: FILE | key_env: VAR}]
 *   repository: {path, poll_ms, sessions, max_queue, max_batch, max_queue_delay_us, precision,
 *                quant_compat,
 *                key_file | key_env}
 *   server:  {host, port, health_port, max_connections, max_connections_per_client, max_body_mb,
 *             max_request_mb, timeouts: {read_s, receive_s, request_ms, drain_s}}
 *   metrics: {enabled, path}
 *   log:     {level, format: text|json, access}
 *
 * Unknown keys, wrong types and out-of-range values fail the load with "FILE:LINE: key: why". */
#ifndef TFCC_SERVER_SRV_CONFIG_H
#define TFCC_SERVER_SRV_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define SRV_MAX_MODELS 64
#define SRV_MAX_VERSIONS 16
#define SRV_MAX_IO 64
#define SRV_NAME_MAX 128
#define SRV_PATH_MAX 1024
#define SRV_CONFIG_MAX_DEPTH 64 /* YAML nesting (the schema needs 4) */
#define SRV_MAX_CUSTOM_OPS 16

typedef struct srv_model_config {
  char name[SRV_NAME_MAX];
  char path
      [SRV_PATH_MAX]; /* a .tflite file (version 1) or a directory <path>/<version>/model.tflite */
  int64_t versions[SRV_MAX_VERSIONS];
  int n_versions; /* 0: serve the latest version only */
  int sessions;   /* session instances (concurrent runs) */
  int max_queue;  /* requests that may wait for a session; beyond: 503 */
  int max_batch;  /* dynamic batching: rows per merged run (0, 1: off; at most 1024) */
  int64_t max_queue_delay_us;
  int precision; /* tfcc_model_options.precision: TFCC_PRECISION_F32 (default) or _BF16 */
  int quant_compat; /* tfcc_model_options.quant_compat: TFCC_QUANT_COMPAT_TFLITE (default) or _REFERENCE */
  char inputs[SRV_MAX_IO][SRV_NAME_MAX]; /* required input names (new versions must have them) */
  int n_inputs;
  char outputs[SRV_MAX_IO][SRV_NAME_MAX];
  int n_outputs;
  /* encrypted models (.tfcce, tfcc encrypt): the key, from a file (32 raw bytes or 64 hex
   * digits) or an environment variable (64 hex digits); "" = none (plain models). At most one. */
  char key_file[SRV_PATH_MAX];
  char key_env[SRV_NAME_MAX];
} srv_model_config;

typedef struct srv_config {
  /* runtime */
  int num_threads;
  int cpu_affinity[256];
  int n_affinity;
  int memory_pool_mb;
  char isa[16];
  char device[16]; /* "" or "cpu": the CPU; "cuda": device_id's GPU (docs/cuda.md) */
  int device_id;
  char weights_cache
      [SRV_PATH_MAX]; /* "" = none; else packed-weights caches DIR/<model>-<version>.wc */
  /* custom-operator plugins registered on the runtime at startup (docs/custom_ops.md) */
  char custom_ops[SRV_MAX_CUSTOM_OPS][SRV_PATH_MAX];
  int n_custom_ops;
  /* models */
  srv_model_config *models;
  int n_models;
  char repository[SRV_PATH_MAX]; /* "" = none */
  srv_model_config repo_model;   /* settings of the models found in the repository (no name/path) */
  int poll_ms;
  /* server */
  char host[64];
  int port;
  int health_port; /* second listener for health and metrics only; -1 = none, 0 = any free port */
  int max_connections;
  int max_connections_per_client; /* per client address; -1 = max_connections / 2, 0 = no cap */
  int max_body_mb;
  int max_request_mb; /* memory one request may take: inputs, activations, outputs; beyond: 413;
                         also every session's tfcc_session_options.max_memory */
  int read_timeout_s; /* inactivity */
  int receive_timeout_s;  /* a whole request (line, headers, body) must arrive within this */
  int request_timeout_ms; /* longest wait for a session */
  int drain_timeout_s;
  char port_file[SRV_PATH_MAX]; /* write the bound port here (tests; port 0) */
  /* metrics / log */
  int metrics_enabled;
  char metrics_path[128];
  int log_level;
  int log_json;
  int access_log;
} srv_config;

/* Fills defaults (no models). Returns 0 or -1 (out of memory). */
int srv_config_init(srv_config *c);
void srv_config_free(srv_config *c);
/* Defaults of one model entry (name and path empty). */
void srv_model_config_default(srv_model_config *m);
/* Appends a model; returns it or NULL if the table is full. */
srv_model_config *srv_config_add_model(srv_config *c);
/* Parses FILE into c (which must have been initialised). Returns 0 or -1 with err set. */
int srv_config_load_file(const char *path, srv_config *c, char *err, size_t n);
/* Same from memory (the fuzzer and tests); name is used in messages. */
int srv_config_load_buffer(const char *name, const char *text, size_t len, srv_config *c, char *err,
                           size_t n);
/* Cross-field checks (unique model names, paths set). */
int srv_config_validate(const srv_config *c, char *err, size_t n);

/* Sets c->device / device_id from "cpu", "cuda" or "cuda:N"; -1 if v is none of these. */
int srv_config_device(srv_config *c, const char *v);

#endif
