#include "srv_infer.h"

#include <stdio.h>
#include <string.h>

int srv_infer_run(srv_version *v, int timeout_ms, srv_request *req, srv_encode_fn enc, void *ctx,
                  srv_buf *body, srv_timing *t, char *err, size_t n) {
  srv_model_stats *ms = v->owner->stats;
  uint64_t t0 = srv_now_ns();
  int status = 0;
  srv_slot *slot = srv_pool_acquire(&v->pool, ms, v->max_queue, timeout_ms, &status, err, n);
  uint64_t t1 = srv_now_ns();
  t->queue_ns = t1 - t0;
  if (!slot) return status;
  tfcc_session *s = slot->session;
  const void *ins[SRV_MAX_IO];
  int rc = 200;
  for (int i = 0; i < v->sig.n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    const srv_tensor *tin = &req->in[i];
    int same = info.rank == tin->rank;
    for (int32_t d = 0; same && d < info.rank; d++) same = info.dims[d] == tin->dims[d];
    if (!same) {
      tfcc_status st = tfcc_session_resize_input(s, i, tin->rank, tin->dims);
      if (st != TFCC_OK) {
        snprintf(err, n, "input '%s': cannot resize: %s", v->sig.in[i].name, tfcc_session_last_error(s));
        rc = 400;
        goto out;
      }
    }
    ins[i] = tin->data;
  }
  srv_outputs outs;
  outs.n = v->sig.n_out;
  for (int i = 0; i < outs.n; i++) {
    tfcc_session_output_info(s, i, &outs.info[i]);
    if (srv_slot_out_reserve(slot, i, outs.info[i].bytes) != 0) {
      snprintf(err, n, "out of memory for output '%s' (%zu bytes)", v->sig.out[i].name, outs.info[i].bytes);
      rc = 500;
      goto out;
    }
    outs.data[i] = slot->out[i];
  }
  uint64_t c0 = srv_now_ns();
  /* Requests are independent: stateful models (LSTM variables) start from zero state. */
  tfcc_status st = tfcc_session_reset_state(s);
  if (st == TFCC_OK) st = tfcc_session_run(s, ins, slot->out);
  t->compute_ns = srv_now_ns() - c0;
  if (st != TFCC_OK) {
    snprintf(err, n, "inference failed: %s", tfcc_session_last_error(s));
    rc = 500;
    goto out;
  }
  for (int i = 0; i < outs.n; i++) tfcc_session_output_info(s, i, &outs.info[i]);
  enc(ctx, v, req, &outs, body);
  if (body->oom) {
    snprintf(err, n, "out of memory encoding the response");
    rc = 500;
  }
out:
  srv_pool_release(&v->pool, slot);
  return rc;
}
