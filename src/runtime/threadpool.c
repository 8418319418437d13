#include "runtime/threadpool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
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

/* Spin this long for the next region (workers) or for the workers to finish (caller) before
 * sleeping: bounded by time, not iterations, since PAUSE takes ~10 cycles on some cores and
 * ~140 on others (20000 PAUSEs were over 1 ms on Intel, CPU a loaded machine needs). */
#define SPIN_NS 30000ull
#define SPIN_CHECK 64 /* PAUSEs between clock reads */

static inline unsigned long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

typedef struct worker {
  tfcc_threadpool *pool;
  int id;
  pthread_t thread;
} worker;

struct tfcc_threadpool {
  int n;
  worker *workers;
  int started;
  pthread_mutex_t region;  /* one parallel region at a time */
  pthread_mutex_t mu;
  pthread_cond_t cv_work, cv_done;
  atomic_uint generation;
  atomic_size_t next_task;
  atomic_int remaining;    /* workers still in the current region */
  atomic_bool stop;
  size_t n_tasks;
  tfcc_task_fn fn;
  void *ctx;
};

static void run_tasks(tfcc_threadpool *p, int thread) {
  size_t t;
  while ((t = atomic_fetch_add_explicit(&p->next_task, 1, memory_order_relaxed)) < p->n_tasks)
    p->fn(p->ctx, t, thread);
}

static void *worker_main(void *arg) {
  worker *w = arg;
  tfcc_threadpool *p = w->pool;
  /* The pool starts at generation 0; a region may begin before this thread first runs, so
   * start from 0 rather than the current value, or that region would be missed. */
  unsigned seen = 0;
  for (;;) {
    const unsigned long long spin_end = now_ns() + SPIN_NS;
    for (unsigned i = 1;; i++) {
      if (atomic_load_explicit(&p->generation, memory_order_acquire) != seen ||
          atomic_load_explicit(&p->stop, memory_order_acquire))
        break;
      CPU_RELAX();
      if (i % SPIN_CHECK == 0 && now_ns() >= spin_end) break;
    }
    if (atomic_load_explicit(&p->generation, memory_order_acquire) == seen) {
      pthread_mutex_lock(&p->mu);
      while (atomic_load_explicit(&p->generation, memory_order_acquire) == seen &&
             !atomic_load_explicit(&p->stop, memory_order_acquire))
        pthread_cond_wait(&p->cv_work, &p->mu);
      pthread_mutex_unlock(&p->mu);
    }
    if (atomic_load_explicit(&p->stop, memory_order_acquire)) break;
    seen = atomic_load_explicit(&p->generation, memory_order_acquire);
    run_tasks(p, w->id);
    if (atomic_fetch_sub_explicit(&p->remaining, 1, memory_order_acq_rel) == 1) {
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
  tfcc_threadpool *p = calloc(1, sizeof *p);
  if (!p) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "thread pool: out of memory");
  p->n = n_threads;
  pthread_mutex_init(&p->region, NULL);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv_work, NULL);
  pthread_cond_init(&p->cv_done, NULL);
  atomic_init(&p->generation, 0);
  atomic_init(&p->next_task, 0);
  atomic_init(&p->remaining, 0);
  atomic_init(&p->stop, false);
  if (n_threads > 1) {
    p->workers = calloc((size_t)n_threads, sizeof *p->workers);
    if (!p->workers) {
      tfcc_threadpool_destroy(p);
      return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "thread pool: out of memory");
    }
    for (int k = 1; k < n_threads; k++) {
      worker *w = &p->workers[k];
      w->pool = p;
      w->id = k;
      if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        tfcc_threadpool_destroy(p);
        return tfcc_err_set(err, TFCC_ERR_RUNTIME, "thread pool: cannot start worker %d of %d", k, n_threads);
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
  atomic_store_explicit(&p->stop, true, memory_order_release);
  pthread_cond_broadcast(&p->cv_work);
  pthread_mutex_unlock(&p->mu);
  for (int k = 1; k <= p->started; k++) pthread_join(p->workers[k].thread, NULL);
  pthread_cond_destroy(&p->cv_work);
  pthread_cond_destroy(&p->cv_done);
  pthread_mutex_destroy(&p->mu);
  pthread_mutex_destroy(&p->region);
  free(p->workers);
  free(p);
}

int tfcc_threadpool_size(const tfcc_threadpool *p) { return p ? p->n : 1; }

void tfcc_threadpool_run(tfcc_threadpool *p, size_t n_tasks, tfcc_task_fn fn, void *ctx) {
  if (!p || p->n == 1 || n_tasks <= 1 || pthread_mutex_trylock(&p->region) != 0) {
    for (size_t t = 0; t < n_tasks; t++) fn(ctx, t, 0);
    return;
  }
  p->fn = fn;
  p->ctx = ctx;
  p->n_tasks = n_tasks;
  atomic_store_explicit(&p->next_task, 0, memory_order_relaxed);
  atomic_store_explicit(&p->remaining, p->n - 1, memory_order_relaxed);
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
  pthread_cond_broadcast(&p->cv_work);
  pthread_mutex_unlock(&p->mu);
  run_tasks(p, 0);
  const unsigned long long spin_end = now_ns() + SPIN_NS;
  for (unsigned i = 1; atomic_load_explicit(&p->remaining, memory_order_acquire) > 0; i++) {
    CPU_RELAX();
    if (i % SPIN_CHECK == 0 && now_ns() >= spin_end) break;
  }
  if (atomic_load_explicit(&p->remaining, memory_order_acquire) > 0) {
    pthread_mutex_lock(&p->mu);
    while (atomic_load_explicit(&p->remaining, memory_order_acquire) > 0) pthread_cond_wait(&p->cv_done, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
  pthread_mutex_unlock(&p->region);
}
