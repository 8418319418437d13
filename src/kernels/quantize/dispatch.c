/* Quantize dispatch table, chunked parallel driver and the 8-bit requantization table. */
#include <string.h>

#include "kernels/quantize/quantize.h"
#include "kernels/dispatch_table.h"
#include "kernels/ref/quantize.h"
#include "base/threadpool.h"

#define K(name_, fn_, isa, lvl) \
  { \
    "quantize-" #isa, lvl, tfcc_qz_xnn_##isa, tfcc_qz_ref_##isa, tfcc_dqz_##isa, \
        tfcc_rqz_xnn_##isa \
  }
static const tfcc_qz_kernel kernels[] = {TFCC_KERNEL_ROWS_SSE4(K, , )};
#undef K
TFCC_DISPATCH_TABLE_FNS(tfcc_qz, tfcc_qz_kernel)

bool tfcc_qz_usable(const tfcc_qz_kernel *k, tfcc_isa isa) {
  return tfcc_isa_level_fits(k->isa, isa);
}

/* Elements per task: big enough that a task outweighs waking a worker. */
#define QZ_CHUNK ((size_t)128 * 1024)

typedef enum { JOB_XNN, JOB_REF, JOB_DEQ, JOB_RQ } job_kind;

typedef struct qz_job {
  job_kind kind;
  const tfcc_qz_kernel *k;
  const void *in;
  void *out;
  size_t n, chunk;
  float scale;
  int32_t zp;
  tfcc_dtype t;
  int32_t mult, in_zp; /* JOB_RQ (zp: the output zero point) */
} qz_job;

static size_t qsize(tfcc_dtype t) { return t == TFCC_INT16 ? 2 : 1; }

static void job_range(const qz_job *j, size_t i0, size_t cnt) {
  const size_t qs = qsize(j->t);
  if (j->kind == JOB_RQ)
    j->k->requantize_xnn((const uint8_t *)j->in + i0, (uint8_t *)j->out + i0, cnt, j->mult,
                         j->in_zp, j->zp, j->t);
  else if (j->kind == JOB_DEQ)
    j->k->dequantize((const uint8_t *)j->in + i0 * qs, (float *)j->out + i0, cnt, j->scale, j->zp,
                     j->t);
  else if (j->kind == JOB_XNN)
    j->k->quantize_xnn((const float *)j->in + i0, (uint8_t *)j->out + i0 * qs, cnt, j->scale, j->zp,
                       j->t);
  else
    j->k->quantize_ref((const float *)j->in + i0, (uint8_t *)j->out + i0 * qs, cnt, j->scale, j->zp,
                       j->t);
}

static void job_task(void *ctx, size_t task, int thread) {
  (void)thread;
  const qz_job *j = ctx;
  const size_t i0 = task * j->chunk;
  const size_t cnt = j->n - i0 < j->chunk ? j->n - i0 : j->chunk;
  job_range(j, i0, cnt);
}

static void run(struct tfcc_threadpool *pool, qz_job *j) {
  if (j->n == 0) return;
  const int threads = tfcc_threadpool_size(pool);
  if (threads <= 1 || j->n < 2 * QZ_CHUNK) {
    job_range(j, 0, j->n);
    return;
  }
  size_t tasks = (j->n + QZ_CHUNK - 1) / QZ_CHUNK;
  if (tasks > (size_t)threads * 4) tasks = (size_t)threads * 4;
  j->chunk = ((j->n + tasks - 1) / tasks + 63) & ~(size_t)63;
  tasks = (j->n + j->chunk - 1) / j->chunk;
  tfcc_threadpool_run(pool, tasks, job_task, j);
}

void tfcc_qz_quantize_xnn(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const float *in,
                          void *out, size_t n, float inv_scale, int32_t zp, tfcc_dtype ot) {
  qz_job j = {JOB_XNN, k, in, out, n, n, inv_scale, zp, ot, 0, 0};
  run(pool, &j);
}

void tfcc_qz_quantize_ref(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const float *in,
                          void *out, size_t n, float scale, int32_t zp, tfcc_dtype ot) {
  qz_job j = {JOB_REF, k, in, out, n, n, scale, zp, ot, 0, 0};
  run(pool, &j);
}

void tfcc_qz_dequantize(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const void *in,
                        float *out, size_t n, float scale, int32_t zp, tfcc_dtype it) {
  qz_job j = {JOB_DEQ, k, in, out, n, n, scale, zp, it, 0, 0};
  run(pool, &j);
}

void tfcc_qz_requantize_xnn(struct tfcc_threadpool *pool, const tfcc_qz_kernel *k, const void *in,
                            void *out, size_t n, int32_t mult, int32_t in_zp, int32_t out_zp,
                            tfcc_dtype t) {
  qz_job j = {JOB_RQ, k, in, out, n, n, 0.f, out_zp, t, mult, in_zp};
  run(pool, &j);
}

void tfcc_qz_lut_build(tfcc_qz_lut *t, tfcc_dtype in_type, tfcc_dtype out_type, bool xnn,
                       int32_t mult, int shift, int32_t in_zp, int32_t out_zp) {
  memset(t, 0, sizeof *t);
  t->in_type = in_type;
  t->out_type = out_type;
  uint8_t bytes[256];
  for (int b = 0; b < 256; b++) bytes[b] = (uint8_t)b;
  /* run the reference kernels on every input byte */
  if (out_type == TFCC_INT16) {
    tfcc_requantize(in_type, bytes, out_type, t->v, 256, mult, shift, in_zp, out_zp);
    return;
  }
  uint8_t o[256];
  if (xnn)
    tfcc_xnn_requantize_q8(in_type, bytes, o, 256, mult, in_zp, out_zp);
  else
    tfcc_requantize(in_type, bytes, out_type, o, 256, mult, shift, in_zp, out_zp);
  for (int b = 0; b < 256; b++)
    t->v[b] = out_type == TFCC_INT8 ? (int16_t)(int8_t)o[b] : (int16_t)o[b];
}

void tfcc_qz_lut_apply(const tfcc_qz_lut *t, const void *in, void *out, size_t n) {
  const uint8_t *x = in;
  if (t->out_type == TFCC_INT16) {
    int16_t *o = out;
    for (size_t i = 0; i < n; i++) o[i] = t->v[x[i]];
  } else {
    uint8_t b[256];
    for (int i = 0; i < 256; i++) b[i] = (uint8_t)t->v[i];
    uint8_t *o = out;
    for (size_t i = 0; i < n; i++) o[i] = b[x[i]];
  }
}
