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

int srv_infer_run(srv_version *v, int timeout_ms, srv_request *req, srv_encode_fn enc, void *ctx,
                  srv_buf *body, srv_timing *t, char *err, size_t n) {
  if (srv_batch_accepts(v, req)) return srv_batch_run(v, timeout_ms, req, enc, ctx, body, t, err, n);
  srv_model_stats *ms = v->owner->stats;
  uint64_t t0 = srv_now_ns();
  int status = 0;
  srv_slot *slot = srv_pool_acquire(&v->pool, ms, v->max_queue, timeout_ms, &status, err, n);
  t->queue_ns = srv_now_ns() - t0;
  t->compute_ns = 0;
  if (!slot) return status;
  srv_outputs outs;
  int rc = srv_run_session(v, slot, slot->session, req->in, &outs, &t->compute_ns, err, n);
  if (rc == 200) {
    enc(ctx, v, req, &outs, body);
    if (body->oom) {
      snprintf(err, n, "out of memory encoding the response");
      rc = 500;
    }
  }
  srv_pool_release(&v->pool, slot);
  return rc;
}
