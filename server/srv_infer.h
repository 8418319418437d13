/* Runs a parsed request on an endpoint of a model version (subgraph 0 or a signature,
 * srv_repo.h): on a session of its runner's pool (bounded queue; queued requests run on the
 * session's worker thread, srv_pool.h),
 * resizes dynamic inputs when the request's shape differs, runs, and lets the protocol's
 * encoder write the response while the session's output buffers are still held. With
 * dynamic batching on (srv_batch.h) a request whose rows fit a batch goes through the
 * runner's batcher instead. The request's tensors and the answer's names are e's. */
#ifndef TFCC_SERVER_SRV_INFER_H
#define TFCC_SERVER_SRV_INFER_H

#include "srv_buf.h"
#include "srv_repo.h"
#include "srv_tensor.h"

/* Output i of the run: info (current shape) and data. */
typedef struct srv_outputs {
  int n;
  tfcc_tensor_info info[SRV_MAX_IO];
  const void *data[SRV_MAX_IO];
} srv_outputs;

typedef void (*srv_encode_fn)(void *ctx, const srv_endpoint *e, const srv_request *req,
                              const srv_outputs *outs, srv_buf *body);

typedef struct srv_timing {
  uint64_t queue_ns, compute_ns;
} srv_timing;

/* Returns 200 (body written by enc) or an HTTP status with err. */
int srv_infer_run(srv_endpoint *e, int timeout_ms, srv_request *req, srv_encode_fn enc, void *ctx,
                  srv_buf *body, srv_timing *t, char *err, size_t n);

/* One run of session s (of slot) on inputs in[0..sig.n_in): resizes inputs whose shape
 * differs from the session's, reserves the slot's output buffers, resets state, runs.
 * Fills outs (pointing into the slot's buffers). Returns 200, or 400/500 with err, or 413 when
 * max_bytes (0: no bound) is less than the inputs + activations + outputs at these shapes (the
 * session is then put back to the model's shapes before anything is run or reserved). */
int srv_run_session(srv_endpoint *e, srv_slot *slot, tfcc_session *s, const srv_tensor *in, size_t max_bytes,
                    srv_outputs *outs, uint64_t *compute_ns, char *err, size_t n);

/* Dynamic batching (srv_batch.h): whether req goes through e's batcher (batching on, and
 * every input has rows in [1, max_batch)), and the batched run (same contract as
 * srv_infer_run). */
int srv_batch_accepts(const srv_endpoint *e, const srv_request *req);
int srv_batch_run(srv_endpoint *e, int timeout_ms, srv_request *req, srv_encode_fn enc, void *ctx,
                  srv_buf *body, srv_timing *t, char *err, size_t n);

#endif
