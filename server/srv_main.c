/* Server lifecycle: runtime, repository (initial load), HTTP front, poller, then the signal
 * loop: SIGHUP re-reads the config, SIGTERM/SIGINT drain (stop accepting, finish in-flight
 * requests, exit 0). */
#include <malloc.h>
#include <pthread.h>
#include <unistd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plugin_load.h"
#include "srv_log.h"
#include "srv_metrics.h"
#include "srv_server.h"
#include "srv_signals.h"

static void tfcc_log_bridge(void *user, tfcc_log_level level, const char *tag,
                            const char *message) {
  (void)user;
  srv_log((int)level, tag, "%s", message);
}

/* Intra-op threads per run. Sessions already run requests in parallel, so sessions x
 * threads above the CPUs oversubscribes them: runs wait on workers that are descheduled
 * (measured on 2 loaded cores: mobilenet_v1_025 compute 0.45 ms with 1 thread, 2-29 ms with
 * 2 threads and 2 sessions). Auto (0): CPUs / the largest session count, at least 1. */
static int runtime_threads(const srv_config *cfg) {
  long cpus = cfg->n_affinity ? cfg->n_affinity : sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 1) cpus = 1;
  int sessions = cfg->repository[0] || cfg->n_models == 0 ? cfg->repo_model.sessions : 1;
  for (int i = 0; i < cfg->n_models; i++)
    if (cfg->models[i].sessions > sessions) sessions = cfg->models[i].sessions;
  if (cfg->num_threads > 0) {
    if ((long)cfg->num_threads * sessions > cpus)
      srv_log(
          SRV_LOG_WARN, "THREAD_OVERSUBSCRIPTION",
          "runtime.num_threads %d x %d sessions > %ld CPUs: concurrent runs will wait on each other's "
          "workers (tail latency); runtime.num_threads 0 picks %ld",
          cfg->num_threads, sessions, cpus, cpus / sessions > 0 ? cpus / sessions : 1);
    return cfg->num_threads;
  }
  int n = (int)(cpus / sessions);
  return n > 0 ? n : 1;
}

static int create_runtime(const srv_config *cfg, tfcc_runtime **rt) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = runtime_threads(cfg);
  ro.cpu_affinity = cfg->n_affinity ? cfg->cpu_affinity : NULL;
  ro.cpu_affinity_count = cfg->n_affinity;
  ro.memory_pool_bytes = (size_t)cfg->memory_pool_mb << 20;
  ro.isa = cfg->isa[0] ? cfg->isa : NULL;
  ro.device = cfg->device[0] ? cfg->device : NULL; /* NULL: env TFCC_DEVICE, else the CPU */
  ro.device_id = cfg->device_id;
  ro.log_fn = tfcc_log_bridge;
  ro.log_level = cfg->log_level >= SRV_LOG_INFO ? TFCC_LOG_INFO : (tfcc_log_level)cfg->log_level;
  tfcc_status st = tfcc_runtime_create(&ro, rt);
  if (st != TFCC_OK) {
    srv_log(SRV_LOG_ERROR, "STARTUP", "cannot create the runtime: %s",
            tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
    return -1;
  }
  for (int i = 0; i < cfg->n_custom_ops; i++) { /* before any model loads */
    char err[1024];
    if (tfcc_plugin_load(*rt, cfg->custom_ops[i], err, sizeof err) != TFCC_OK) {
      srv_log(SRV_LOG_ERROR, "STARTUP", "runtime.custom_ops: %s", err);
      tfcc_runtime_destroy(*rt);
      *rt = NULL;
      return -1;
    }
    srv_log(SRV_LOG_INFO, "STARTUP",
            "runtime.custom_ops: %s registered (%d custom operators on the runtime)",
            cfg->custom_ops[i], tfcc_runtime_custom_op_count(*rt));
  }
  return 0;
}

/* One line with the outcome of a reload (SIGHUP). */
static void log_reload_result(const char *what, const srv_reload_result *res) {
  char counts[160] = "";
  if (what[0])
    snprintf(counts, sizeof counts, "%d model(s) added, %d changed, %d removed; ", res->added,
             res->changed, res->removed);
  if (res->failed || res->not_ready)
    srv_log(
        SRV_LOG_WARN, "CONFIG_RELOAD",
        "reload done with errors: %s%s%d load(s) failed (MODEL_LOAD_FAILED above; a model keeps serving its "
        "previous version), %d of %d model(s) not ready",
        what, counts, res->failed, res->not_ready, res->models);
  else
    srv_log(SRV_LOG_INFO, "CONFIG_RELOAD", "reload done: %s%sall %d model(s) ready", what, counts,
            res->models);
}

/* SIGHUP: one line saying a reload was requested, the reload, then one line with its result.
 * New log settings take effect after that line (the whole reload logs in one format). */
void srv_live_get(srv_server *s, srv_live *out) {
  pthread_rwlock_rdlock(&s->live_mu);
  *out = s->live;
  pthread_rwlock_unlock(&s->live_mu);
}

int srv_live_timeout_ms(srv_server *s) {
  pthread_rwlock_rdlock(&s->live_mu);
  const int ms = s->live.request_timeout_ms;
  pthread_rwlock_unlock(&s->live_mu);
  return ms;
}

static void reload_config(srv_server *s) {
  srv_reload_result res;
  if (!s->config_path[0]) {
    srv_log(SRV_LOG_INFO, "CONFIG_RELOAD",
            "SIGHUP: reload requested (no config file: rescanning the model files)");
    srv_repo_rescan(s->repo, &res);
    log_reload_result("", &res);
    return;
  }
  srv_log(SRV_LOG_INFO, "CONFIG_RELOAD", "SIGHUP: reload requested (re-reading %s)",
          s->config_path);
  srv_config nc;
  char err[1024];
  if (srv_config_init(&nc) != 0) {
    srv_log(SRV_LOG_ERROR, "CONFIG_RELOAD",
            "reload failed: out of memory (keeping the running config)");
    return;
  }
  if (srv_config_load_file(s->config_path, &nc, err, sizeof err) != 0) {
    srv_log(SRV_LOG_ERROR, "CONFIG_RELOAD", "reload failed: %s (keeping the running config)", err);
    srv_config_free(&nc);
    return;
  }
  if (strcmp(nc.host, s->cfg.host) || nc.port != s->cfg.port ||
      nc.max_connections != s->cfg.max_connections || nc.health_port != s->cfg.health_port ||
      nc.max_connections_per_client != s->cfg.max_connections_per_client ||
      nc.receive_timeout_s != s->cfg.receive_timeout_s ||
      nc.read_timeout_s != s->cfg.read_timeout_s || nc.max_body_mb != s->cfg.max_body_mb ||
      nc.num_threads != s->cfg.num_threads || strcmp(nc.repository, s->cfg.repository) ||
      nc.n_custom_ops != s->cfg.n_custom_ops ||
      memcmp(nc.custom_ops, s->cfg.custom_ops, sizeof nc.custom_ops) ||
      memcmp(&nc.repo_model, &s->cfg.repo_model, sizeof nc.repo_model))
    srv_log(SRV_LOG_WARN, "CONFIG_RELOAD",
            "server/runtime/repository settings changed: they apply after a restart");
  srv_repo_apply_config(s->repo, &nc, &res);
  /* keep the running server settings; take the rest */
  pthread_rwlock_wrlock(&s->live_mu);
  s->live.metrics_enabled = nc.metrics_enabled;
  snprintf(s->live.metrics_path, sizeof s->live.metrics_path, "%s", nc.metrics_path);
  s->live.request_timeout_ms = nc.request_timeout_ms;
  pthread_rwlock_unlock(&s->live_mu);
  char what[SRV_PATH_MAX + 16];
  snprintf(what, sizeof what, "%s applied: ", s->config_path);
  log_reload_result(what, &res);
  srv_log_setup(nc.log_level, nc.log_json, nc.access_log);
  srv_config_free(&nc);
}

int srv_run(srv_config *cfg, const char *config_path) {
  srv_server *s = calloc(1, sizeof *s);
  if (!s) return 1;
  s->cfg = *cfg;
  pthread_rwlock_init(&s->live_mu, NULL);
  s->live.metrics_enabled = cfg->metrics_enabled;
  snprintf(s->live.metrics_path, sizeof s->live.metrics_path, "%s", cfg->metrics_path);
  s->live.request_timeout_ms = cfg->request_timeout_ms;
  snprintf(s->config_path, sizeof s->config_path, "%s", config_path ? config_path : "");
  srv_log_setup(cfg->log_level, cfg->log_json, cfg->access_log);
  /* Flat RSS under many connection threads: few malloc arenas, and request bodies above
   * 256 KiB always mmap'ed (returned to the OS on free) instead of the adaptive threshold. */
  mallopt(M_ARENA_MAX, 4);
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  srv_metrics_init();
  srv_signals_block();
  int rc = 1;
  char err[1024];
  if (create_runtime(&s->cfg, &s->rt) != 0) goto out;
  if (srv_repo_create(s->rt, &s->cfg, &s->repo, err, sizeof err) != 0) {
    srv_log(SRV_LOG_ERROR, "STARTUP", "%s", err);
    goto out;
  }
  int not_ready = srv_repo_sync(s->repo, 1, NULL);
  if (not_ready)
    srv_log(SRV_LOG_WARN, "STARTUP",
            "%d model(s) have no loaded version (see MODEL_LOAD_FAILED); not ready", not_ready);
  if (srv_http_start(s, err, sizeof err) != 0) {
    srv_log(SRV_LOG_ERROR, "STARTUP", "%s", err);
    goto out;
  }
  if (srv_repo_start_poller(s->repo) != 0) {
    srv_log(SRV_LOG_ERROR, "STARTUP", "cannot start the repository poller");
    goto out;
  }
  if (s->cfg.port_file[0]) {
    FILE *f = fopen(s->cfg.port_file, "w");
    if (f) {
      fprintf(f, "%d\n", s->port);
      if (s->health_port >= 0)
        fprintf(f, "%d\n", s->health_port); /* second line: the health listener */
      fclose(f);
    }
  }
  srv_log(SRV_LOG_INFO, "LISTENING", "http://%s:%d (KServe v2 /v2, TF Serving /v1, metrics %s)",
          s->cfg.host, s->port, s->cfg.metrics_enabled ? s->cfg.metrics_path : "off");
  if (s->health_port >= 0)
    srv_log(SRV_LOG_INFO, "LISTENING", "http://%s:%d health and metrics only (server.health_port)",
            s->cfg.host, s->health_port);
  for (;;) {
    int sig = srv_signals_wait(1000);
    if (sig == SIGHUP) reload_config(s);
    if (sig == SIGTERM || sig == SIGINT) {
      srv_log(SRV_LOG_INFO, "SHUTDOWN",
              "%s: draining (no new connections, finishing %ld in-flight request(s))",
              sig == SIGTERM ? "SIGTERM" : "SIGINT", atomic_load(&s->in_flight));
      break;
    }
  }
  atomic_store(&s->draining, 1);
  srv_http_quiesce(s);
  uint64_t deadline = srv_now_ns() + (uint64_t)s->cfg.drain_timeout_s * 1000000000ull;
  /* Done when nothing has been in flight for 200 ms (requests may still arrive on open
   * keep-alive connections; their answers carry Connection: close). */
  uint64_t idle_since = 0;
  while (srv_now_ns() < deadline) {
    uint64_t now = srv_now_ns();
    if (atomic_load(&s->in_flight) > 0)
      idle_since = 0;
    else if (!idle_since)
      idle_since = now;
    else if (now - idle_since > 200000000ull)
      break;
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  long left = atomic_load(&s->in_flight);
  if (left > 0)
    srv_log(SRV_LOG_WARN, "SHUTDOWN", "drain timeout: %ld request(s) still in flight", left);
  rc = left > 0 ? 1 : 0;
out:
  srv_http_stop(s);
  srv_repo_destroy(s->repo);
  tfcc_runtime_destroy(s->rt);
  srv_log(SRV_LOG_INFO, "SHUTDOWN", "stopped (exit %d)", rc);
  srv_config_free(&s->cfg);
  srv_metrics_shutdown();
  pthread_rwlock_destroy(&s->live_mu);
  free(s);
  return rc;
}
