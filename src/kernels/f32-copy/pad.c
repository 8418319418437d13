/* Constant PAD in one sequential pass over the output (see pad.h). */
#include "kernels/f32-copy/pad.h"

#include <stdbool.h>
#include <string.h>

#include "base/threadpool.h"

typedef struct pad_job {
  int32_t rank;
  const int32_t *in_dims, *out_dims;
  const int64_t *before;
  size_t es;
  bool zero;           /* every byte of the value is 0: memset */
  uint8_t pattern[64]; /* the value repeated (64 / es elements, es divides 64 or not) */
  size_t pattern_bytes;
  size_t os[16], is[16]; /* element strides */
} pad_job;

/* Writes n elements of the pad value at o; returns the end. */
static uint8_t *fill(const pad_job *j, uint8_t *o, size_t n) {
  size_t bytes = n * j->es;
  if (j->zero) {
    memset(o, 0, bytes);
    return o + bytes;
  }
  while (bytes >= j->pattern_bytes) {
    memcpy(o, j->pattern, j->pattern_bytes);
    o += j->pattern_bytes;
    bytes -= j->pattern_bytes;
  }
  memcpy(o, j->pattern, bytes); /* a whole number of elements: pattern starts on one */
  return o + bytes;
}

static uint8_t *pad_dim(const pad_job *j, int32_t d, const uint8_t *in, uint8_t *o) {
  const size_t before = (size_t)j->before[d], n_in = (size_t)j->in_dims[d];
  const size_t after = (size_t)j->out_dims[d] - n_in - before;
  o = fill(j, o, before * j->os[d]);
  if (d == j->rank - 1) {
    memcpy(o, in, n_in * j->es);
    o += n_in * j->es;
  } else if (j->before[d + 1] == 0 && j->out_dims[d + 1] == j->in_dims[d + 1] &&
             j->os[d] == j->is[d]) {
    /* nothing padded below this dimension: the rows are one contiguous block */
    memcpy(o, in, n_in * j->is[d] * j->es);
    o += n_in * j->is[d] * j->es;
  } else {
    for (size_t i = 0; i < n_in; i++) o = pad_dim(j, d + 1, in + i * j->is[d] * j->es, o);
  }
  return fill(j, o, after * j->os[d]);
}

/* Fills j from the arguments; false when there is nothing to do beyond what it wrote (an
 * empty output, rank 0, an empty input). */
static bool pad_setup(pad_job *j, const void *in, int32_t rank, const int32_t *in_dims,
                      const int64_t *before, const int32_t *out_dims, const void *value, size_t es,
                      void *out) {
  j->rank = rank;
  j->in_dims = in_dims;
  j->out_dims = out_dims;
  j->before = before;
  j->es = es;
  size_t n_out = 1, n_in = 1;
  for (int32_t d = 0; d < rank; d++) {
    n_out *= (size_t)out_dims[d];
    n_in *= (size_t)in_dims[d];
  }
  if (n_out == 0) return false;
  j->zero = true;
  for (size_t b = 0; b < es; b++)
    if (((const uint8_t *)value)[b] != 0) j->zero = false;
  j->pattern_bytes = (sizeof j->pattern / es) * es;
  for (size_t b = 0; b < j->pattern_bytes; b += es) memcpy(j->pattern + b, value, es);
  if (rank == 0) {
    memcpy(out, in, es);
    return false;
  }
  if (n_in == 0) { /* an empty input: the output is all padding */
    fill(j, out, n_out);
    return false;
  }
  j->os[rank - 1] = j->is[rank - 1] = 1;
  for (int32_t d = rank - 2; d >= 0; d--) {
    j->os[d] = j->os[d + 1] * (size_t)out_dims[d + 1];
    j->is[d] = j->is[d + 1] * (size_t)in_dims[d + 1];
  }
  return true;
}

void tfcc_pad_const_fast(const void *in, int32_t rank, const int32_t *in_dims,
                         const int64_t *before, const int32_t *out_dims, const void *value,
                         size_t es, void *out) {
  pad_job j;
  if (pad_setup(&j, in, rank, in_dims, before, out_dims, value, es, out)) pad_dim(&j, 0, in, out);
}

typedef struct pad_split {
  pad_job j;
  const uint8_t *in;
  uint8_t *out;
  int32_t s;              /* dimensions [0, s] flattened into outer indices */
  size_t outer, per_task; /* outer indices in all, per task */
} pad_split;

/* Outer indices [t0, t1): each one's block of os[s] elements is padding (some index in the
 * padding) or dimension s + 1 onwards of one input slab. */
static void pad_split_task(void *ctx, size_t task, int thread) {
  (void)thread;
  const pad_split *t = ctx;
  const pad_job *j = &t->j;
  const size_t t0 = task * t->per_task;
  const size_t t1 = t0 + t->per_task < t->outer ? t0 + t->per_task : t->outer;
  const size_t block = j->os[t->s] * j->es;
  for (size_t o = t0; o < t1; o++) {
    size_t rem = o, in_off = 0;
    bool inside = true;
    for (int32_t d = t->s; d >= 0 && inside; d--) {
      const size_t i = rem % (size_t)j->out_dims[d], b = (size_t)j->before[d];
      rem /= (size_t)j->out_dims[d];
      inside = i >= b && i < b + (size_t)j->in_dims[d];
      in_off += (i - b) * j->is[d];
    }
    uint8_t *dst = t->out + o * block;
    if (inside)
      pad_dim(j, t->s + 1, t->in + in_off * j->es, dst);
    else
      fill(j, dst, j->os[t->s]);
  }
}

void tfcc_pad_const_fast_pool(struct tfcc_threadpool *pool, const void *in, int32_t rank,
                              const int32_t *in_dims, const int64_t *before,
                              const int32_t *out_dims, const void *value, size_t es, void *out) {
  const size_t threads = (size_t)tfcc_threadpool_size(pool);
  size_t bytes = es;
  for (int32_t d = 0; d < rank; d++) bytes *= (size_t)out_dims[d];
  pad_split t;
  if (threads <= 1 || bytes < TFCC_PAD_MIN_PARALLEL_BYTES) {
    tfcc_pad_const_fast(in, rank, in_dims, before, out_dims, value, es, out);
    return;
  }
  if (!pad_setup(&t.j, in, rank, in_dims, before, out_dims, value, es, out)) return;
  /* the first dimension s where the leading ones give 4 blocks per thread; the last
   * dimension is never split (blocks of single elements) */
  t.outer = 1;
  t.s = -1;
  for (int32_t d = 0; d < rank - 1 && t.s < 0; d++) {
    t.outer *= (size_t)out_dims[d];
    if (t.outer >= 4 * threads) t.s = d;
  }
  if (t.s < 0) {
    pad_dim(&t.j, 0, in, out);
    return;
  }
  t.in = in;
  t.out = out;
  const size_t tasks = 4 * threads;
  t.per_task = (t.outer + tasks - 1) / tasks;
  tfcc_threadpool_run(pool, (t.outer + t.per_task - 1) / t.per_task, pad_split_task, &t);
}
