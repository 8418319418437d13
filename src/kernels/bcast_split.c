/* Element-range splitting of broadcast iterations; see bcast_split.h. */
#include "kernels/bcast_split.h"

#include <stdint.h>

#include "base/threadpool.h"

typedef struct split_job {
  const tfcc_bcast *bc;
  size_t es;
  const uint8_t *a, *b;
  uint8_t *out;
  tfcc_vbin_row_fn fn;
  const void *params;
  int64_t chunk, total;
} split_job;

/* Output elements [e0, e1): the row holding e0 is located by dividing its index over the
 * outer dimensions, then rows follow as an odometer. */
static void run_range(const split_job *j, int64_t e0, int64_t e1) {
  const tfcc_bcast *bc = j->bc;
  const int32_t last = bc->rank - 1;
  const int64_t row = bc->dims[last];
  const int64_t sa = bc->strides[0][last], sb = bc->strides[1][last];
  int64_t idx[TFCC_MAX_DIMS] = {0};
  int64_t offa = 0, offb = 0, t = e0 / row, col = e0 % row;
  for (int32_t d = last - 1; d >= 0; d--) {
    idx[d] = t % bc->dims[d];
    t /= bc->dims[d];
    offa += idx[d] * bc->strides[0][d];
    offb += idx[d] * bc->strides[1][d];
  }
  const bool unit = (sa == 0 || sa == 1) && (sb == 0 || sb == 1);
  for (int64_t e = e0; e < e1;) {
    int64_t n = row - col;
    if (n > e1 - e) n = e1 - e;
    if (unit) {
      j->fn(j->params, j->a + (size_t)(offa + col * sa) * j->es,
            j->b + (size_t)(offb + col * sb) * j->es, j->out + (size_t)e * j->es, (size_t)n,
            (int)sa, (int)sb);
    } else { /* not produced by tfcc_bcast_plan (innermost strides are 0 or 1); kept correct */
      for (int64_t i = 0; i < n; i++)
        j->fn(j->params, j->a + (size_t)(offa + (col + i) * sa) * j->es,
              j->b + (size_t)(offb + (col + i) * sb) * j->es, j->out + (size_t)(e + i) * j->es, 1,
              0, 0);
    }
    e += n;
    col = 0;
    for (int32_t d = last - 1; d >= 0; d--) {
      idx[d]++;
      offa += bc->strides[0][d];
      offb += bc->strides[1][d];
      if (idx[d] < bc->dims[d]) break;
      offa -= bc->strides[0][d] * bc->dims[d];
      offb -= bc->strides[1][d] * bc->dims[d];
      idx[d] = 0;
    }
  }
}

static void split_task(void *ctx, size_t task, int thread) {
  (void)thread;
  const split_job *j = ctx;
  const int64_t e0 = (int64_t)task * j->chunk;
  int64_t e1 = e0 + j->chunk;
  if (e1 > j->total) e1 = j->total;
  if (e0 < e1) run_range(j, e0, e1);
}

void tfcc_bcast_split_run(struct tfcc_threadpool *pool, const tfcc_bcast *bc, size_t esize,
                          const void *a, const void *b, void *out, tfcc_vbin_row_fn fn,
                          const void *params, size_t min_task) {
  if (!bc || bc->n_in != 2 || bc->elements <= 0 || bc->rank < 1 || bc->dims[bc->rank - 1] <= 0)
    return;
  split_job j = {bc, esize, a, b, out, fn, params, bc->elements, bc->elements};
  const int threads = tfcc_threadpool_size(pool);
  if (min_task < 64) min_task = 64;
  if (threads <= 1 || (uint64_t)bc->elements < 2u * (uint64_t)min_task) {
    run_range(&j, 0, bc->elements);
    return;
  }
  int64_t tasks = bc->elements / (int64_t)min_task;
  if (tasks > 4 * (int64_t)threads) tasks = 4 * (int64_t)threads;
  int64_t chunk = (bc->elements + tasks - 1) / tasks;
  chunk = (chunk + 63) & ~(int64_t)63;
  j.chunk = chunk;
  tasks = (bc->elements + chunk - 1) / chunk;
  tfcc_threadpool_run(pool, (size_t)tasks, split_task, &j);
}
