/* Runtime-owned worker threads for splitting one operator's work into tasks.
 *
 * The caller thread takes part. One parallel region runs at a time: a caller that finds the
 * pool busy (another session on another thread) runs its tasks inline, so no caller ever waits
 * for another's work. A region ends when its tasks are done: the caller waits only for workers
 * that took part, never for one still waking up (a late worker finds the region closed).
 *
 * Between regions workers spin briefly, then sleep. Inside a run scope (run_begin .. run_end,
 * one per session invoke) they keep spinning across the serial operators between regions, so
 * the next region finds them awake; run_begin also wakes sleeping workers, so their wake-up
 * overlaps the run's first operators. Waking a worker costs a system call only when one sleeps. */
#ifndef TFCC_RUNTIME_THREADPOOL_H
#define TFCC_RUNTIME_THREADPOOL_H

#include <stddef.h>

#include "base/err.h"

typedef struct tfcc_threadpool tfcc_threadpool;

typedef void (*tfcc_task_fn)(void *ctx, size_t task, int thread);

/* n_threads counts the caller (1 = no workers, everything inline). affinity (optional) pins
 * worker k (1..n-1) to affinity[k % n_affinity]. */
tfcc_status tfcc_threadpool_create(int n_threads, const int *affinity, int n_affinity,
                                   tfcc_threadpool **out, tfcc_err *err);
void tfcc_threadpool_destroy(tfcc_threadpool *pool);
/* Threads that may run tasks at once (1 for NULL). */
int tfcc_threadpool_size(const tfcc_threadpool *pool);
/* Runs fn(ctx, t, thread) for t in [0, n_tasks); returns when all are done. thread is in
 * [0, size). pool may be NULL (inline). No allocation, no lock on the way. */
void tfcc_threadpool_run(tfcc_threadpool *pool, size_t n_tasks, tfcc_task_fn fn, void *ctx);
/* Range form: fn(ctx, begin, end) on pieces of [0, n). run_chunks cuts pieces of `chunk`
 * items (the last one shorter), one task each; run_split cuts at most max_tasks pieces of
 * equal size (the last one shorter). Nothing runs for n == 0. */
typedef void (*tfcc_range_fn)(void *ctx, size_t begin, size_t end);
void tfcc_threadpool_run_chunks(tfcc_threadpool *pool, size_t n, size_t chunk, tfcc_range_fn fn,
                                void *ctx);
/* Elementwise work over [0, n): fn(ctx, 0, n) inline when the pool has one thread or
 * n < 2 * min_task, else at most 4 pieces per thread of about n / tasks items (tasks =
 * n / min_task), each a multiple of `align` (a power of two) but the last. */
void tfcc_threadpool_run_elementwise(tfcc_threadpool *pool, size_t n, size_t min_task, size_t align,
                                     tfcc_range_fn fn, void *ctx);
void tfcc_threadpool_run_split(tfcc_threadpool *pool, size_t n, size_t max_tasks, tfcc_range_fn fn,
                               void *ctx);
/* Run scope: regions are about to follow one another (a session's invoke). Workers stay
 * awake (spinning, up to a few ms without a region) until the matching run_end. Scopes nest
 * and may be open from several threads at once. pool may be NULL; no-ops for 1 thread. */
void tfcc_threadpool_run_begin(tfcc_threadpool *pool);
void tfcc_threadpool_run_end(tfcc_threadpool *pool);

#endif
