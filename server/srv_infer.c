#include "srv_infer.h"

#include <stdio.h>
#include <string.h>

#include "srv_batch.h"

int srv_run_session(srv_version *v, srv_slot *slot, tfcc_session *s, const srv_tensor *in, srv_outputs *outs,
                    uint64_t *compute_ns, char *err, size_t n) {
  const void *ins[SRV_MAX_IO];
  *compute_ns = 0;
  for (int i = 0; i < v->sig.n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    const srv_tensor *tin = &in[i];
    int same = info.rank == tin->rank;
    for (int32_t d = 0; same && d < info.rank; d++) same = info.dims[d] == tin->dims[d];
    if (!same) {
      tfcc_status st = tfcc_session_resize_input(s, i, tin->rank, tin->dims);
      if (st != TFCC_OK) {
        snprintf(err, n, "input '%s': cannot resize: %s", v->sig.in[i].name, tfcc_session_last_error(s));
        return 400;
      }
    }
    ins[i] = tin->data;
  }
  outs->n = v->sig.n_out;
  for (int i = 0; i < outs->n; i++) {
    tfcc_session_output_info(s, i, &outs->info[i]);
    if (srv_slot_out_reserve(slot, i, outs->info[i].bytes) != 0) {
      snprintf(err, n, "out of memory for output '%s' (%zu bytes)", v->sig.out[i].name, outs->info[i].bytes);
      return 500;
    }
    outs->data[i] = slot->out[i];
  }
  uint64_t c0 = srv_now_ns();
  /* Requests are independent: stateful models (LSTM variables) start from zero state. */
  tfcc_status st = tfcc_session_reset_state(s);
  if (st == TFCC_OK) st = tfcc_session_run(s, ins, slot->out);
  *compute_ns = srv_now_ns() - c0;
  if (st != TFCC_OK) {
    snprintf(err, n, "inference failed: %s", tfcc_session_last_error(s));
    return 500;
  }
  for (int i = 0; i < outs->n; i++) tfcc_session_output_info(s, i, &outs->info[i]);
  return 200;
}

/* A request's work on a slot (srv_pool_run): run, then encode from the slot's buffers. */
typedef struct infer_job {
  srv_version *v;
  srv_request *req;
  srv_encode_fn enc;
  void *ctx;
  srv_buf *body;
  uint64_t compute_ns;
  int rc;
  char *err;
  size_t n;
} infer_job;

static void run_job(void *arg, srv_slot *slot) {
  infer_job *j = arg;
  srv_outputs outs;
  j->rc = srv_run_session(j->v, slot, slot->session, j->req->in, &outs, &j->compute_ns, j->err, j->n);
  if (j->rc == 200) {
    j->enc(j->ctx, j->v, j->req, &outs, j->body);
    if (j->body->oom) {
      snprintf(j->err, j->n, "out of memory encoding the response");
      j->rc = 500;
    }
  }
}

int srv_infer_run(srv_version *v, int timeout_ms, srv_request *req, srv_encode_fn enc, void *ctx,
                  srv_buf *body, srv_timing *t, char *err, size_t n) {
  if (srv_batch_accepts(v, req)) return srv_batch_run(v, timeout_ms, req, enc, ctx, body, t, err, n);
  infer_job j = {v, req, enc, ctx, body, 0, 500, err, n};
  int status = srv_pool_run(&v->pool, v->owner->stats, v->max_queue, timeout_ms, run_job, &j, &t->queue_ns, err, n);
  t->compute_ns = j.compute_ns;
  return status ? status : j.rc;
}
