/* Eigen-order float32 FULLY_CONNECTED (fc_eigen.h): dispatch table and threaded driver. */
#include "kernels/hybrid/fc_eigen.h"

#include "base/threadpool.h"

TFCC_KERNEL_FAMILY(TFCC_KERNEL_ROWS_SSE4, "f32-fc-eigen", tfcc_fc_eigen)

size_t tfcc_fc_eigen_packed_floats(int32_t units, int32_t accum) {
  if (units <= 0 || accum <= 0) return 0;
  const size_t L = TFCC_FC_EIGEN_MAX_LANES;
  return ((size_t)units + L - 1) / L * L * (size_t)accum;
}

void tfcc_fc_eigen_pack(const float *w, int32_t units, int32_t accum, float *wp) {
  const size_t L = TFCC_FC_EIGEN_MAX_LANES, K = accum > 0 ? (size_t)accum : 0;
  const size_t up = tfcc_fc_eigen_packed_floats(units, accum) / (K ? K : 1);
  for (size_t u = 0; u < up; u++)
    for (size_t k = 0; k < K; k++)
      wp[(u / L) * L * K + k * L + u % L] = u < (size_t)units ? w[u * K + k] : 0.0f;
}

typedef struct fe_job {
  const tfcc_fc_eigen_kernel *k;
  const tfcc_fc_dims *d;
  bool gemv;
  const float *in, *w, *wp, *bias;
  float lo, hi;
  float *out, *scratch;
  int32_t units_per_task;
} fe_job;

static void fe_task(void *ctx, size_t t, int thread) {
  const fe_job *j = ctx;
  const int32_t u0 = (int32_t)t * j->units_per_task;
  const int32_t u1 = j->d->units - u0 < j->units_per_task ? j->d->units : u0 + j->units_per_task;
  float *scratch =
      j->scratch
          ? j->scratch + (size_t)thread * (tfcc_fc_eigen_scratch_bytes(j->d->accum) / sizeof(float))
          : NULL; /* packed weights */
  j->k->fn(j->d, j->gemv, j->in, j->w, j->wp, j->bias, j->lo, j->hi, j->out, scratch, u0, u1);
}

void tfcc_fc_eigen_run(struct tfcc_threadpool *pool, const tfcc_fc_eigen_kernel *k,
                       const tfcc_fc_dims *d, bool gemv, const float *in, const float *w,
                       const float *wp, const float *bias, float act_min, float act_max, float *out,
                       float *scratch) {
  if (d->batches <= 0 || d->units <= 0) return;
  const int32_t panels = (d->units + TFCC_FC_EIGEN_MAX_LANES - 1) / TFCC_FC_EIGEN_MAX_LANES;
  const int64_t macs = (int64_t)d->batches * d->units * (d->accum > 0 ? d->accum : 1);
  int32_t tasks = macs < 256 * 1024 ? 1 : tfcc_threadpool_size(pool);
  if (tasks > panels) tasks = panels;
  if (tasks <= 1) {
    k->fn(d, gemv, in, w, wp, bias, act_min, act_max, out, scratch, 0, d->units);
    return;
  }
  const int32_t per = (panels + tasks - 1) / tasks * TFCC_FC_EIGEN_MAX_LANES;
  fe_job j = {k, d, gemv, in, w, wp, bias, act_min, act_max, out, scratch, per};
  tfcc_threadpool_run(pool, (size_t)((d->units + per - 1) / per), fe_task, &j);
}
