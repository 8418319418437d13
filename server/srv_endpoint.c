/* The endpoints of a model version: subgraph 0 under its tensor names (ep[0]) and every
 * signature of the file (ep[1 + k]), each with its own session pool and batcher.
 *
 * ep[0]'s pool is created with the version (and verified by the warm-up run). A signature's
 * inputs and outputs are read at load from a probe session (created and destroyed), so the
 * metadata lists every signature without holding sessions for it; its pool is created on its
 * first request under the endpoint's own mutex (requests to other endpoints go on). A
 * signature of subgraph 0 (a converter's serving_default) runs on ep[0]'s pool under its own
 * names. So a version holds at most (1 + other subgraphs' signatures requested) x sessions
 * sessions. A version swap
 * (reload) replaces every endpoint at once; a hot weight update rebinds every session of
 * the model, whichever pool holds it. A signature whose subgraph cannot run (an unsupported
 * operator, a plan that fails: tfcc_model_subgraph_error) is kept with its cause and no pool:
 * its requests are answered 501 / 500 naming it, and metadata leaves it out. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_json_spans.h"
#include "srv_log.h"
#include "srv_repo.h"

static void io_from_info(srv_io *io, const tfcc_tensor_info *info) {
  snprintf(io->name, sizeof io->name, "%s", info->name ? info->name : "");
  io->dtype = info->dtype;
  io->rank = info->rank;
  int has_sig = 0;
  for (int32_t d = 0; d < info->rank; d++) has_sig |= info->signature[d] != 0;
  for (int32_t d = 0; d < info->rank; d++) {
    io->dims[d] = info->dims[d];
    io->sig[d] = has_sig ? info->signature[d] : info->dims[d];
  }
}

/* The inputs and outputs of session s. 0, or -1 with err when there are more than served. */
static int sig_from_session(srv_sig *sig, tfcc_session *s, const char *what, char *err, size_t n) {
  int n_in = tfcc_session_input_count(s), n_out = tfcc_session_output_count(s);
  if (n_in > SRV_MAX_IO || n_out > SRV_MAX_IO) {
    snprintf(err, n, "%s: %d inputs and %d outputs (at most %d each are served)", what, n_in, n_out,
             SRV_MAX_IO);
    return -1;
  }
  sig->n_in = n_in;
  sig->n_out = n_out;
  for (int i = 0; i < n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    io_from_info(&sig->in[i], &info);
  }
  for (int i = 0; i < n_out; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(s, i, &info);
    io_from_info(&sig->out[i], &info);
  }
  return 0;
}

/* NULL when every input and output has a dynamic dimension 0 (requests can be merged along
 * it), else why not. */
static const char *batch_dim_dynamic(const srv_sig *sig, char *why, size_t n) {
  for (int i = 0; i < sig->n_in + sig->n_out; i++) {
    const srv_io *io = i < sig->n_in ? &sig->in[i] : &sig->out[i - sig->n_in];
    if (io->rank < 1 || io->sig[0] != -1) {
      snprintf(why, n,
               "%s '%s' has no dynamic batch dimension (dimension 0 must be -1 in its signature)",
               i < sig->n_in ? "input" : "output", io->name);
      return why;
    }
  }
  return NULL;
}

/* Creates e's pool and batcher (under e->mu, or before the version is published). */
static int start_pool(srv_endpoint *e, char *err, size_t n) {
  srv_version *v = e->ver;
  srv_batcher_init(&e->batch, 0, 0);
  if (srv_pool_create(&e->pool, v->model, e->key, v->sessions, v->max_batch, v->max_memory, err, n) != 0) {
    srv_batcher_destroy(&e->batch);
    return -1;
  }
  /* ep[0]'s io comes from its first session (before the version is published); a signature's
   * was read at load and is read by metadata requests meanwhile: not written again */
  if (!e->key && sig_from_session(&e->sig, e->pool.slots[0].session, v->path, err, n) != 0) {
    srv_pool_destroy(&e->pool);
    srv_batcher_destroy(&e->batch);
    return -1;
  }
  if (v->max_batch > 1) {
    char why[400];
    const char *why_not = batch_dim_dynamic(&e->sig, why, sizeof why);
    if (why_not) {
      srv_log(SRV_LOG_WARN, "BATCHING_DISABLED",
              "model=%s version=%lld%s%s: max_batch %d ignored: %s", v->owner->cfg.name, v->version,
              e->key ? " signature=" : "", e->key ? e->key : "", v->max_batch, why_not);
    } else {
      e->batch.max_batch = v->max_batch;
      e->batch.delay_ns = v->max_queue_delay_us * 1000;
    }
  }
  return 0;
}

/* A signature of subgraph 0 runs on ep[0]'s sessions (the same inputs and outputs in the same
 * order, tfcc_session_create_for_signature): its io is ep[0]'s under the signature's names. */
static void sig_of_subgraph0(const srv_version *v, const tfcc_signature_info *si,
                             const srv_sig *ep0, srv_sig *out) {
  *out = *ep0;
  for (int i = 0; i < ep0->n_in + ep0->n_out; i++) {
    int is_in = i < ep0->n_in, k = is_in ? i : i - ep0->n_in;
    int32_t t = -1;
    if ((is_in ? tfcc_model_input_tensor(v->model, k, &t)
               : tfcc_model_output_tensor(v->model, k, &t)) != TFCC_OK)
      continue;
    int cnt = is_in ? si->input_count : si->output_count;
    const int32_t *ts = is_in ? si->input_tensors : si->output_tensors;
    const char *const *names = is_in ? si->input_names : si->output_names;
    srv_io *io = is_in ? &out->in[k] : &out->out[k];
    for (int j = 0; j < cnt; j++)
      if (ts[j] == t && names[j]) snprintf(io->name, sizeof io->name, "%s", names[j]);
  }
}

int srv_endpoints_create(srv_version *v, char *err, size_t n) {
  int n_sig = tfcc_model_signature_count(v->model);
  if (n_sig < 0) n_sig = 0;
  v->ep = calloc((size_t)n_sig + 1, sizeof *v->ep);
  if (!v->ep) {
    snprintf(err, n, "out of memory");
    return -1;
  }
  v->n_ep = n_sig + 1;
  for (int i = 0; i < v->n_ep; i++) {
    v->ep[i].ver = v;
    v->ep[i].served_by = i;
    pthread_mutex_init(&v->ep[i].mu, NULL);
  }
  srv_endpoint *e0 = &v->ep[0];
  if (start_pool(e0, err, n) != 0) return -1;
  atomic_store(&e0->ready, 1);
  for (int k = 0; k < n_sig; k++) {
    srv_endpoint *e = &v->ep[1 + k];
    tfcc_signature_info si;
    if (tfcc_model_signature_info(v->model, k, &si) != TFCC_OK) {
      snprintf(err, n, "%s: signature %d: cannot read it", v->path, k);
      return -1;
    }
    e->key = si.key;
    e->subgraph = si.subgraph;
    if (si.subgraph == 0) {
      e->served_by = 0;
      sig_of_subgraph0(v, &si, &e0->sig, &e->sig);
      continue;
    }
    tfcc_session *probe = NULL;
    tfcc_session_options so;
    tfcc_session_options_default(&so);
    so.max_memory = v->max_memory;
    tfcc_status st = tfcc_session_create_for_signature(v->model, si.key, &so, &probe);
    const char *why = tfcc_model_subgraph_error(v->model, si.subgraph);
    if (st != TFCC_OK && st != TFCC_ERR_NO_MEMORY && why && why[0]) {
      /* a signature the model's load found cannot run (as TFLite, which fails a subgraph
       * only when it prepares it): the version serves its other entries and answers this
       * one's requests with the cause */
      snprintf(e->cannot_run, sizeof e->cannot_run, "%s", why);
      e->cannot_run_status = st == TFCC_ERR_UNSUPPORTED ? 501 : 500;
      srv_log(SRV_LOG_WARN, "SIGNATURE_UNAVAILABLE",
              "model=%s version=%lld signature=%s subgraph=%d: cannot run: %s", v->owner->cfg.name,
              v->version, si.key, (int)si.subgraph, why);
      continue;
    }
    if (st != TFCC_OK) {
      snprintf(err, n, "%s: signature '%s' (subgraph %d): %s", v->path, si.key, (int)si.subgraph,
               tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
      return -1;
    }
    char what[300];
    snprintf(what, sizeof what, "%s: signature '%s'", v->path, si.key);
    int rc = sig_from_session(&e->sig, probe, what, err, n);
    tfcc_session_destroy(probe);
    if (rc) return -1;
  }
  return 0;
}

void srv_endpoints_destroy(srv_version *v) {
  for (int i = 0; v->ep && i < v->n_ep; i++) {
    srv_endpoint *e = &v->ep[i];
    if (atomic_load(&e->ready)) {
      srv_pool_destroy(&e->pool);
      srv_batcher_destroy(&e->batch);
    }
    pthread_mutex_destroy(&e->mu);
  }
  free(v->ep);
  v->ep = NULL;
  v->n_ep = 0;
}

int srv_version_find_signature(const srv_version *v, const char *key) {
  for (int i = 1; i < v->n_ep; i++)
    if (!strcmp(v->ep[i].key, key)) return i;
  return -1;
}

srv_endpoint *srv_version_endpoint(srv_version *v, const char *key, int *status, char *err,
                                   size_t n) {
  int i = 0;
  if (key && key[0]) {
    i = srv_version_find_signature(v, key);
    /* a file without signatures: TF Serving's default name is subgraph 0 */
    if (i < 0 && v->n_ep == 1 && !strcmp(key, "serving_default")) i = 0;
    if (i < 0) {
      char list[512] = "";
      size_t used = 0;
      for (int k = 1; k < v->n_ep && used < sizeof list; k++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'", k > 1 ? ", " : "",
                                 v->ep[k].key);
      if (v->n_ep == 1)
        snprintf(
            err, n,
            "signature_name '%.200s': the model has no such signature (the file has no signatures; "
            "omit signature_name or use 'serving_default' for its subgraph 0)",
            key);
      else
        snprintf(err, n,
                 "signature_name '%.200s': the model has no such signature (its signatures: %s)",
                 key, list);
      *status = 400;
      return NULL;
    }
  }
  if (v->ep[i].cannot_run[0]) {
    snprintf(err, n, "signature_name '%.200s': the signature cannot run: %s", v->ep[i].key,
             v->ep[i].cannot_run);
    *status = v->ep[i].cannot_run_status;
    return NULL;
  }
  srv_endpoint *e = srv_endpoint_runner(&v->ep[i]);
  if (!atomic_load_explicit(&e->ready, memory_order_acquire)) {
    char why[512];
    int rc = 0;
    pthread_mutex_lock(&e->mu);
    if (!atomic_load_explicit(&e->ready, memory_order_relaxed)) {
      uint64_t t0 = srv_now_ns();
      rc = start_pool(e, why, sizeof why);
      if (rc == 0) {
        atomic_store_explicit(&e->ready, 1, memory_order_release);
        srv_log(SRV_LOG_INFO, "SIGNATURE_READY",
                "model=%s version=%lld signature=%s subgraph=%d sessions=%d ms=%.1f",
                v->owner->cfg.name, v->version, e->key, e->subgraph, v->sessions,
                (double)(srv_now_ns() - t0) / 1e6);
      }
    }
    pthread_mutex_unlock(&e->mu);
    if (rc) {
      snprintf(err, n, "signature '%s': cannot create its sessions: %s", e->key, why);
      *status = 500;
      return NULL;
    }
  }
  return &v->ep[i];
}

int srv_json_signature_name(const json_t *root, int kserve, char *out, size_t out_n, char *err,
                            size_t n) {
  out[0] = '\0';
  const json_t *holder =
      json_is_object(root) ? (kserve ? json_object_get(root, "parameters") : root) : NULL;
  const json_t *jn = json_is_object(holder) ? json_object_get(holder, "signature_name") : NULL;
  if (jn && (!json_is_string(jn) || json_string_length(jn) >= out_n)) {
    snprintf(err, n, "%ssignature_name must be a string of at most %zu bytes",
             kserve ? "parameters." : "", out_n - 1);
    return 400;
  }
  if (jn) snprintf(out, out_n, "%s", json_string_value(jn));
  return 0;
}

int srv_request_signature_name(const char *body, size_t len, int kserve, char *out, size_t out_n,
                               char *err, size_t n) {
  out[0] = '\0';
  if (!body || !memmem(body, len, "signature_name", 14)) return 0;
  json_error_t je;
  json_t *root = NULL;
  if (kserve) {
    srv_json_span spans[SRV_MAX_IO];
    int n_spans = srv_json_find_spans(body, len, spans, SRV_MAX_IO);
    root = n_spans > 0 ? srv_json_load_without_spans(body, len, spans, n_spans, &je)
                       : json_loadb(body, len, 0, &je);
  } else {
    root = json_loadb(body, len, 0, &je);
  }
  if (!root) return 0; /* the request's parser names the JSON error */
  const int rc = srv_json_signature_name(root, kserve, out, out_n, err, n);
  json_decref(root);
  return rc;
}
