/* Model repository: the served models, their loaded versions, and zero-downtime reload.
 *
 * A model's path is a .tflite file (served as version 1) or a directory laid out as
 * <path>/<version>/model.tflite (Triton / TF Serving). The repository directory
 * (config repository.path) adds one model per sub-directory. A poller thread re-scans every
 * poll_ms: a new or changed file is loaded and verified in the background (sessions created,
 * one warm-up run), then swapped in under the model's lock (a pointer exchange); requests
 * hold a reference to the version they started on, and a version is freed when its last
 * reference goes. A changed file under the same version number with unchanged settings is
 * applied as a hot weight update (tfcc_model_update_weights: sessions kept, runs in
 * progress finish on the old weights); when its graph differs the update is refused and the
 * whole model is swapped as above. A file is only picked up once it is unchanged over two polls; the safe
 * publish is still write-elsewhere-then-rename (docs/server.md). A failed load keeps the old
 * version serving and is recorded (log MODEL_LOAD_FAILED, metadata "last_error", metric). */
#ifndef TFCC_SERVER_SRV_REPO_H
#define TFCC_SERVER_SRV_REPO_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>

#include "srv_batch.h"
#include "srv_buf.h"
#include "srv_config.h"
#include "srv_metrics.h"
#include "srv_pool.h"
#include "srv_tensor.h"

typedef struct srv_file_id {
  dev_t dev;
  ino_t ino;
  off_t size;
  long long mtime_ns;
} srv_file_id;

typedef struct srv_model srv_model;
typedef struct srv_version srv_version;

/* What a request runs on a version: subgraph 0 under its tensor names (ep[0], the default),
 * or one signature of the file (its subgraph, inputs and outputs named as the signature names
 * them). Each has its own session pool and batcher; a signature's pool is created on its
 * first request (srv_endpoint.c). */
typedef struct srv_endpoint {
  srv_version *ver;
  const char *key; /* signature key (owned by the model); NULL for ep[0] */
  int subgraph;
  srv_sig sig;
  int served_by;      /* index of the endpoint whose pool and batcher run it: itself, or 0
                           for a signature of subgraph 0 (same sessions, its own names) */
  pthread_mutex_t mu; /* the pool's creation */
  _Atomic int ready;  /* pool and batcher created */
  srv_pool pool;
  srv_batcher batch; /* dynamic batching (off unless max_batch > 1 and dim 0 is dynamic) */
  /* A signature whose subgraph cannot run (tfcc_model_subgraph_error: an unsupported operator,
   * a plan that fails): its cause, answered to its requests with cannot_run_status (501 for
   * an unsupported operator, else 500); "" when it runs. Never has a pool. */
  char cannot_run[512];
  int cannot_run_status;
} srv_endpoint;

struct srv_version {
  srv_model *owner;
  long long version;
  char path[SRV_PATH_MAX];
  srv_file_id id;
  tfcc_model *model;
  srv_endpoint *ep; /* [n_ep]: ep[0] subgraph 0, ep[1 + k] signature k of the file */
  int n_ep;
  int max_queue, sessions, max_batch;
  size_t max_memory; /* each session's plan (arena + variables) at most: srv_repo.max_session_bytes */
  int64_t max_queue_delay_us;
  _Atomic int refs;
  srv_version_stats *stats;
  int cfg_gen; /* the model settings it was loaded with (srv_model.cfg_gen) */
};

/* The endpoint whose pool and batcher run e's requests. */
static inline srv_endpoint *srv_endpoint_runner(const srv_endpoint *e) {
  return &e->ver->ep[e->served_by];
}

/* srv_endpoint.c. Fills v->ep from v->model (ep[0]'s pool created; signatures' io read from a
 * probe session). 0 or -1 with err. */
int srv_endpoints_create(srv_version *v, char *err, size_t n);
void srv_endpoints_destroy(srv_version *v);
/* The endpoint for signature key (NULL or "": ep[0]), its runner's pool created if needed (other
 * endpoints are not blocked meanwhile). NULL with *status 400 (no such signature: err names
 * the file's signatures) or 500 (the sessions could not be created). */
srv_endpoint *srv_version_endpoint(srv_version *v, const char *key, int *status, char *err,
                                   size_t n);
/* Index of signature key in v->ep, -1 if none. */
int srv_version_find_signature(const srv_version *v, const char *key);
/* The "signature_name" a request names: TF Serving's top-level one (kserve 0) or KServe's
 * "parameters": {"signature_name": ...} (kserve 1). Looks only at bodies containing the text
 * "signature_name" (no second parse of ordinary requests). 0 (out = "" if none) or 400. */
int srv_request_signature_name(const char *body, size_t len, int kserve, char *out, size_t out_n,
                               char *err, size_t n);
/* The same read from a request already parsed (root): what srv_request_signature_name does after its parse. */
int srv_json_signature_name(const json_t *root, int kserve, char *out, size_t out_n, char *err,
                            size_t n);

typedef struct srv_pending {
  long long version;
  srv_file_id id;
} srv_pending;

struct srv_model {
  srv_model_config cfg;
  int from_repository;     /* discovered in repository.path (not in the config's models) */
  _Atomic int unloaded;    /* by the unload API or removed from the config (read unlocked) */
  pthread_mutex_t mu;      /* guards ver[] (the swap) and the status fields */
  pthread_mutex_t scan_mu; /* one scan/load at a time per model */
  srv_version *ver[SRV_MAX_VERSIONS]; /* ascending versions */
  int n_ver;
  char last_error[512];
  long long last_error_version;
  srv_pending failed[SRV_MAX_VERSIONS]; /* files that failed (retried only when they change) */
  int n_failed;
  srv_pending seen[SRV_MAX_VERSIONS]; /* last poll's view (stability check) */
  int n_seen;
  srv_model_stats *stats;
  int cfg_gen; /* +1 when the config changes the model's settings */
};

typedef struct srv_repo {
  tfcc_runtime *rt;
  char repo_path[SRV_PATH_MAX];
  srv_model_config repo_model;      /* settings of discovered models */
  char weights_cache[SRV_PATH_MAX]; /* "" or the directory of packed-weights caches */
  size_t max_session_bytes;         /* every session's tfcc_session_options.max_memory:
                                       server.max_request_mb */
  int poll_ms;
  int request_timeout_ms;
  pthread_mutex_t mu; /* guards models[] (entries are never freed before destroy) */
  srv_model *models[SRV_MAX_MODELS * 2];
  int n_models;
  pthread_t poller;
  int poller_running;
  pthread_mutex_t stop_mu;
  pthread_cond_t stop_cv;
  int stop;
} srv_repo;

int srv_repo_create(tfcc_runtime *rt, const srv_config *cfg, srv_repo **out, char *err, size_t n);
/* Scans and loads every model once (synchronously). Returns the number of models without any
 * loaded version; *failures (when not NULL) is increased by the loads that failed. */
int srv_repo_sync(srv_repo *r, int initial, int *failures);
int srv_repo_start_poller(srv_repo *r);
void srv_repo_destroy(srv_repo *r);
/* What a reload (SIGHUP) did: models added, changed (reloaded), removed (unloaded) by the
 * config; loads that failed (the previous version keeps serving); models served in all and
 * those without a loaded version. */
typedef struct srv_reload_result {
  int added, changed, removed, failed, models, not_ready;
} srv_reload_result;
/* SIGHUP: applies a new config's models (added, changed -> reloaded, removed -> unloaded),
 * then loads what changed on disk (synchronously). */
void srv_repo_apply_config(srv_repo *r, const srv_config *cfg, srv_reload_result *res);
/* SIGHUP without a config file: loads what changed on disk now (synchronously). */
void srv_repo_rescan(srv_repo *r, srv_reload_result *res);

/* A reference to the version to serve (version < 0: the latest loaded). NULL with *status
 * 404 (unknown model or version) or 503 (not ready) and err set. */
srv_version *srv_repo_acquire(srv_repo *r, const char *name, long long version, int *status,
                              char *err, size_t n);
void srv_version_release(srv_version *v);
srv_model *srv_repo_find(srv_repo *r, const char *name);

/* Explicit repository API. 0, or an HTTP status with err. */
int srv_repo_load(srv_repo *r, const char *name, char *err, size_t n);
int srv_repo_unload(srv_repo *r, const char *name, char *err, size_t n);
/* All models loaded (at least one version each) and none failed to start. */
int srv_repo_ready(srv_repo *r);
/* JSON list for POST /v2/repository/index. */
void srv_repo_index_json(srv_repo *r, srv_buf *b);
/* Snapshot of a model's state for metadata: versions (ascending), last error. */
int srv_model_state(srv_model *m, long long *versions, int max, char *last_error, size_t n);

#endif
