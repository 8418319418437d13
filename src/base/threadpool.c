#include "base/threadpool.h"

#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define CPU_RELAX() __asm__ volatile("yield")
#else
#define CPU_RELAX() ((void)0)
#endif

/* WebAssembly threads: Emscripten's sched_yield returns at once (musl's, no host yield), so a
 * worker would burn its whole RUN_SPIN_NS between regions on a CPU that the page's own thread
 * or other programs need. Past NAP_AFTER_NS a worker there naps instead: Atomics.wait
 * (emscripten_futex_wait) on the region generation, the high half of state, for the rest of its
 * spin budget, and the caller that opens a region notifies it when a worker naps. Pure spinning
 * up to 250 us, not SPIN_NS' 30: a worker woken from a nap joins tens of microseconds late, and
 * in Chromium at 2 threads napping after 30 us gave float MobileNetV2's best runs 1.1-1.4x
 * longer in 4 of 5 A/Bs (under load its medians were 0.6-0.7x, 250 us: 0.73-1.0x; bench/README.md
 * wasm15). */
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/threading.h>
#define TFCC_POOL_NAP 1
#ifndef NAP_AFTER_NS
#define NAP_AFTER_NS 250000ull /* pure spin before the first nap */
#endif
#endif

/* Spin this long before sleeping: bounded by time, not iterations, since PAUSE takes ~10
 * cycles on some cores and ~140 on others.
 *   SPIN_NS      workers between regions outside a run scope.
 *   RUN_SPIN_NS  workers inside a run scope, counted from the last region (or run_begin), and
 *                the caller waiting in a scope for workers' last tasks: longer than the serial
 *                operators between two parallel ones, so workers sleep only when a run is
 *                stuck in long serial work.
 * Waking a sleeping worker took ~45-50 us here (a VM: bench/threadpool_overhead), by when the
 * region it was woken for is usually over; a spinning worker joins within a microsecond.
 * Past SPIN_NS a spinner also calls sched_yield between clock reads: nearly free on an idle
 * core, while on a CPU shared with other processes it hands the core over instead of burning
 * the time slice that the caller or another program needs. Measured: as fast as pure spinning
 * with the cores to ourselves, 2-3x faster than it on a machine loaded 10x over. */
#define SPIN_NS 30000ull
#define RUN_SPIN_NS 2000000ull
#define SPIN_CHECK 64 /* PAUSEs between clock reads */

/* Separate lines for what the caller writes per region, what every thread writes per region,
 * and what changes rarely: no false sharing between them (128: adjacent-line prefetch). */
#define LINE 128

/* state: region generation (high 32 bits), CLOSED (no more joiners), count of workers in it. */
#define GEN_SHIFT 32
#define CLOSED (UINT64_C(1) << 31)
#define COUNT_MASK (CLOSED - 1)

static inline unsigned long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Tasks [front, back) of one thread's share of a region: front in the high 32 bits. The owner
 * takes from the front; a thread done with its own share takes from the back of another's. */
typedef struct range {
  alignas(LINE) _Atomic uint64_t fb;
} range;

typedef struct worker {
  tfcc_threadpool *pool;
  int id;
  pthread_t thread;
} worker;

struct tfcc_threadpool {
  /* fixed after create */
  int n;
  worker *workers;
  int started;
  pthread_mutex_t mu; /* sleeping and waking only */
  pthread_cond_t cv_work, cv_done;
  /* the current region: written by its caller before it opens the region; read by workers
   * that joined it */
  alignas(LINE) tfcc_task_fn fn;
  void *ctx;
  atomic_int busy; /* a caller owns the pool's region */
  alignas(LINE) _Atomic uint64_t state;
  range *ranges; /* per thread, each on its own line */
  /* rarely written */
  alignas(LINE) atomic_int sleepers; /* workers asleep (or about to) on cv_work */
  atomic_int caller_sleeping;        /* the caller waits on cv_done */
  atomic_uint wake;                  /* bumped by run_begin */
  atomic_int active_runs;            /* open run scopes */
#ifdef TFCC_POOL_NAP
  atomic_int nappers; /* workers in (or about to enter) an Atomics.wait on the generation */
#endif
  atomic_bool stop;
};

/* Thread `thread` runs its own share of the tasks, then helps the others from the back of
 * theirs. Contiguous shares keep each thread on the same rows from one operator to the next
 * (the kernels number tasks along the output rows), so a thread mostly reads what it wrote. */
static void run_tasks(tfcc_threadpool *p, int thread) {
  const tfcc_task_fn fn = p->fn;
  void *const ctx = p->ctx;
  _Atomic uint64_t *own = &p->ranges[thread].fb;
  for (;;) {
    const uint64_t r = atomic_fetch_add_explicit(own, UINT64_C(1) << 32, memory_order_relaxed);
    const uint32_t front = (uint32_t)(r >> 32), back = (uint32_t)r;
    if (front >= back) break;
    fn(ctx, front, thread);
  }
  for (int k = 1; k < p->n; k++) {
    _Atomic uint64_t *other = &p->ranges[(thread + k) % p->n].fb;
    uint64_t r = atomic_load_explicit(other, memory_order_relaxed);
    while ((uint32_t)(r >> 32) < (uint32_t)r) {
      if (atomic_compare_exchange_weak_explicit(other, &r, r - 1, memory_order_relaxed,
                                                memory_order_relaxed)) {
        fn(ctx, (uint32_t)r - 1, thread);
        r = atomic_load_explicit(other, memory_order_relaxed);
      }
    }
  }
}

/* Sleeps until a region newer than gen opens, run_begin is called after wake was read, or stop. */
static void worker_sleep(tfcc_threadpool *p, uint32_t gen, unsigned wake) {
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add(&p->sleepers, 1); /* seq_cst: pairs with the waker's seq_cst publish */
  while ((uint32_t)(atomic_load(&p->state) >> GEN_SHIFT) == gen && atomic_load(&p->wake) == wake &&
         !atomic_load(&p->stop))
    pthread_cond_wait(&p->cv_work, &p->mu);
  atomic_fetch_sub(&p->sleepers, 1);
  pthread_mutex_unlock(&p->mu);
}

/* Joins region gen if it is still open; false if it closed or a newer one began. */
static bool try_join(tfcc_threadpool *p, uint64_t s, uint32_t gen) {
  for (;;) {
    if ((uint32_t)(s >> GEN_SHIFT) != gen || (s & CLOSED)) return false;
    if (atomic_compare_exchange_weak_explicit(&p->state, &s, s + 1, memory_order_acquire,
                                              memory_order_relaxed))
      return true;
  }
}

#ifdef TFCC_POOL_NAP
/* The generation word (state's high half: wasm is little-endian). */
static inline volatile void *gen_word(tfcc_threadpool *p) {
  return (volatile char *)&p->state + GEN_SHIFT / 8;
}

/* Waits up to ns for a region newer than gen (Atomics.wait; woken by the region's caller). */
static void worker_nap(tfcc_threadpool *p, uint32_t gen, unsigned long long ns) {
  atomic_fetch_add(&p->nappers, 1); /* seq_cst: pairs with the caller's seq_cst state store */
  emscripten_futex_wait(gen_word(p), gen, (double)ns / 1e6);
  atomic_fetch_sub(&p->nappers, 1);
}
#endif

static void *worker_main(void *arg) {
  worker *w = arg;
  tfcc_threadpool *p = w->pool;
  /* The pool starts at generation 0 (closed); any later generation is a region to look at. */
  uint32_t seen = 0;
  for (;;) {
    unsigned wake = atomic_load_explicit(&p->wake, memory_order_relaxed);
    unsigned long long spin_start = now_ns();
    uint64_t s;
    for (unsigned i = 1;; i++) {
      s = atomic_load_explicit(&p->state, memory_order_relaxed);
      if ((uint32_t)(s >> GEN_SHIFT) != seen ||
          atomic_load_explicit(&p->stop, memory_order_relaxed))
        break;
      CPU_RELAX();
      if (i % SPIN_CHECK) continue;
      const unsigned long long budget =
          atomic_load_explicit(&p->active_runs, memory_order_relaxed) > 0 ? RUN_SPIN_NS : SPIN_NS;
      const unsigned long long spun = now_ns() - spin_start;
#ifdef TFCC_POOL_NAP
      if (spun >= NAP_AFTER_NS && spun < budget) worker_nap(p, seen, budget - spun);
#else
      if (spun >= SPIN_NS && spun < budget) sched_yield();
#endif
      if (spun < budget) continue;
      worker_sleep(p, seen, wake);
      wake = atomic_load_explicit(&p->wake, memory_order_relaxed);
      spin_start = now_ns();
    }
    if (atomic_load_explicit(&p->stop, memory_order_acquire)) break;
    seen = (uint32_t)(s >> GEN_SHIFT);
    if (!try_join(p, s, seen)) continue; /* came too late: the caller did the work */
    run_tasks(p, w->id);
    /* seq_cst: pairs with the caller's caller_sleeping store before it checks the count */
    uint64_t prev = atomic_fetch_sub(&p->state, 1);
    if ((prev & COUNT_MASK) == 1 && atomic_load(&p->caller_sleeping)) {
      pthread_mutex_lock(&p->mu);
      pthread_cond_signal(&p->cv_done);
      pthread_mutex_unlock(&p->mu);
    }
  }
  return NULL;
}

tfcc_status tfcc_threadpool_create(int n_threads, const int *affinity, int n_affinity,
                                   tfcc_threadpool **out, tfcc_err *err) {
  *out = NULL;
  if (n_threads < 1) n_threads = 1;
  const size_t bytes = (sizeof(tfcc_threadpool) + LINE - 1) / LINE * LINE;
  tfcc_threadpool *p = aligned_alloc(LINE, bytes);
  if (!p) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "thread pool: out of memory");
  memset(p, 0, bytes);
  p->n = n_threads;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv_work, NULL);
  pthread_cond_init(&p->cv_done, NULL);
  atomic_init(&p->busy, 0);
  atomic_init(&p->state, CLOSED); /* generation 0: closed */
  atomic_init(&p->sleepers, 0);
  atomic_init(&p->caller_sleeping, 0);
  atomic_init(&p->wake, 0);
  atomic_init(&p->active_runs, 0);
#ifdef TFCC_POOL_NAP
  atomic_init(&p->nappers, 0);
#endif
  atomic_init(&p->stop, false);
  if (n_threads > 1) {
    p->workers = calloc((size_t)n_threads, sizeof *p->workers);
    p->ranges = aligned_alloc(LINE, (size_t)n_threads * sizeof *p->ranges);
    if (p->ranges)
      for (int k = 0; k < n_threads; k++) atomic_init(&p->ranges[k].fb, 0);
    if (!p->workers || !p->ranges) {
      tfcc_threadpool_destroy(p);
      return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "thread pool: out of memory");
    }
    for (int k = 1; k < n_threads; k++) {
      worker *w = &p->workers[k];
      w->pool = p;
      w->id = k;
      if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        tfcc_threadpool_destroy(p);
        return tfcc_err_set(err, TFCC_ERR_RUNTIME, "thread pool: cannot start worker %d of %d", k,
                            n_threads);
      }
      p->started = k;
#ifdef __linux__
      if (affinity && n_affinity > 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        int cpu = affinity[k % n_affinity];
        if (cpu >= 0 && cpu < CPU_SETSIZE) {
          CPU_SET(cpu, &set);
          pthread_setaffinity_np(w->thread, sizeof set, &set);
        }
      }
#else
      (void)affinity;
      (void)n_affinity;
#endif
    }
  }
  *out = p;
  return TFCC_OK;
}

void tfcc_threadpool_destroy(tfcc_threadpool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->stop, true);
  pthread_cond_broadcast(&p->cv_work);
  pthread_mutex_unlock(&p->mu);
#ifdef TFCC_POOL_NAP
  emscripten_futex_wake(gen_word(p), INT32_MAX);
#endif
  for (int k = 1; k <= p->started; k++) pthread_join(p->workers[k].thread, NULL);
  pthread_cond_destroy(&p->cv_work);
  pthread_cond_destroy(&p->cv_done);
  pthread_mutex_destroy(&p->mu);
  free(p->workers);
  free(p->ranges);
  free(p);
}

int tfcc_threadpool_size(const tfcc_threadpool *p) { return p ? p->n : 1; }

/* Wakes sleeping workers after a seq_cst publish (region or run_begin) that they check. */
static void wake_sleepers(tfcc_threadpool *p) {
  if (atomic_load(&p->sleepers) == 0) return;
  pthread_mutex_lock(&p->mu);
  pthread_cond_broadcast(&p->cv_work);
  pthread_mutex_unlock(&p->mu);
}

void tfcc_threadpool_run_begin(tfcc_threadpool *p) {
  if (!p || p->n == 1) return;
  atomic_fetch_add_explicit(&p->active_runs, 1, memory_order_relaxed);
  atomic_fetch_add(&p->wake, 1);
  wake_sleepers(p);
}

void tfcc_threadpool_run_end(tfcc_threadpool *p) {
  if (!p || p->n == 1) return;
  atomic_fetch_sub_explicit(&p->active_runs, 1, memory_order_relaxed);
}

static bool try_own(tfcc_threadpool *p) {
  return atomic_load_explicit(&p->busy, memory_order_relaxed) == 0 &&
         atomic_exchange_explicit(&p->busy, 1, memory_order_acquire) == 0;
}

/* Waits until no worker is inside the (closed) region. */
static void wait_workers(tfcc_threadpool *p) {
  const unsigned long long budget =
      atomic_load_explicit(&p->active_runs, memory_order_relaxed) > 0 ? RUN_SPIN_NS : SPIN_NS;
  const unsigned long long start = now_ns();
  for (unsigned i = 1; atomic_load_explicit(&p->state, memory_order_acquire) & COUNT_MASK; i++) {
    CPU_RELAX();
    if (i % SPIN_CHECK) continue;
    const unsigned long long spun = now_ns() - start;
    if (spun >= budget) break;
    if (spun >= SPIN_NS) sched_yield();
  }
  if (!(atomic_load_explicit(&p->state, memory_order_acquire) & COUNT_MASK)) return;
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->caller_sleeping, 1); /* seq_cst: pairs with the workers' seq_cst leave */
  while (atomic_load(&p->state) & COUNT_MASK) pthread_cond_wait(&p->cv_done, &p->mu);
  atomic_store(&p->caller_sleeping, 0);
  pthread_mutex_unlock(&p->mu);
}

void tfcc_threadpool_run(tfcc_threadpool *p, size_t n_tasks, tfcc_task_fn fn, void *ctx) {
  /* (task numbers are 32-bit inside a region: more tasks than that run inline) */
  if (!p || p->n == 1 || n_tasks <= 1 || n_tasks > UINT32_MAX / 2 || !try_own(p)) {
    for (size_t t = 0; t < n_tasks; t++) fn(ctx, t, 0);
    return;
  }
  p->fn = fn;
  p->ctx = ctx;
  for (int k = 0; k < p->n; k++) {
    const uint64_t front = (uint64_t)n_tasks * (uint64_t)k / (uint64_t)p->n;
    const uint64_t back = (uint64_t)n_tasks * (uint64_t)(k + 1) / (uint64_t)p->n;
    atomic_store_explicit(&p->ranges[k].fb, front << 32 | back, memory_order_relaxed);
  }
  /* Open generation g+1 with no workers in it (the previous one is closed and empty).
   * seq_cst: pairs with a sleeping worker's seq_cst sleepers increment. */
  const uint64_t gen = (atomic_load_explicit(&p->state, memory_order_relaxed) >> GEN_SHIFT) + 1;
  atomic_store(&p->state, gen << GEN_SHIFT);
#ifdef TFCC_POOL_NAP
  if (atomic_load(&p->nappers)) emscripten_futex_wake(gen_word(p), INT32_MAX);
#endif
  wake_sleepers(p);
  run_tasks(p, 0);
  /* Every task is taken: no one may join any more; wait for those still at work. */
  if (atomic_fetch_or_explicit(&p->state, CLOSED, memory_order_acq_rel) & COUNT_MASK)
    wait_workers(p);
  atomic_store_explicit(&p->busy, 0, memory_order_release);
}

typedef struct range_job {
  tfcc_range_fn fn;
  void *ctx;
  size_t n, chunk;
} range_job;

static void range_task(void *ctx, size_t task, int thread) {
  (void)thread;
  const range_job *r = ctx;
  const size_t begin = task * r->chunk;
  const size_t end = r->n - begin < r->chunk ? r->n : begin + r->chunk;
  r->fn(r->ctx, begin, end);
}

void tfcc_threadpool_run_chunks(tfcc_threadpool *pool, size_t n, size_t chunk, tfcc_range_fn fn,
                                void *ctx) {
  if (n == 0 || chunk == 0) return;
  range_job r = {fn, ctx, n, chunk};
  tfcc_threadpool_run(pool, (n + chunk - 1) / chunk, range_task, &r);
}

void tfcc_threadpool_run_split(tfcc_threadpool *pool, size_t n, size_t max_tasks, tfcc_range_fn fn,
                               void *ctx) {
  if (n == 0) return;
  if (max_tasks < 1) max_tasks = 1;
  if (max_tasks > n) max_tasks = n;
  tfcc_threadpool_run_chunks(pool, n, (n + max_tasks - 1) / max_tasks, fn, ctx);
}

void tfcc_threadpool_run_elementwise(tfcc_threadpool *pool, size_t n, size_t min_task, size_t align,
                                     tfcc_range_fn fn, void *ctx) {
  if (n == 0) return;
  const int threads = tfcc_threadpool_size(pool);
  if (threads <= 1 || n < 2 * min_task) {
    fn(ctx, 0, n);
    return;
  }
  size_t tasks = n / min_task;
  if (tasks > 4 * (size_t)threads) tasks = 4 * (size_t)threads;
  tfcc_threadpool_run_chunks(pool, n, ((n + tasks - 1) / tasks + align - 1) & ~(align - 1), fn,
                             ctx);
}
