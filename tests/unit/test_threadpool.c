/* Thread pool: every task runs exactly once, across many regions, from concurrent callers,
 * inside and outside run scopes; a worker never runs a task of a region that has returned;
 * sleeping workers wake for a region and for run_begin. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "base/threadpool.h"
#include "test_harness.h"

typedef struct {
  atomic_int hits[1000];
  int n_threads;
  atomic_int bad_thread;
} job;

static void task(void *ctx, size_t t, int thread) {
  job *j = ctx;
  atomic_fetch_add(&j->hits[t], 1);
  if (thread < 0 || thread >= j->n_threads) atomic_store(&j->bad_thread, 1);
}

static tfcc_threadpool *g_pool;

static void *caller(void *arg) {
  job *j = arg;
  for (int r = 0; r < 200; r++) {
    if (r % 3 == 0) tfcc_threadpool_run_begin(g_pool);
    tfcc_threadpool_run(g_pool, 1000, task, j);
    if (r % 3 == 2) tfcc_threadpool_run_end(g_pool);
  }
  if (199 % 3 != 2) tfcc_threadpool_run_end(g_pool);
  return NULL;
}

/* A region's context lives on the caller's stack only while tfcc_threadpool_run runs: a task
 * that arrives after it returned (a late worker) sees closed set or a different id. */
typedef struct {
  atomic_int closed;
  int id;
  atomic_int done;
} region;

static atomic_int g_stale;
static void task_region(void *ctx, size_t t, int thread) {
  region *r = ctx;
  (void)t, (void)thread;
  if (atomic_load(&r->closed)) atomic_fetch_add(&g_stale, 1);
  atomic_fetch_add(&r->done, 1);
}

static void check_regions_never_leak(tfcc_threadpool *p, int scope) {
  atomic_store(&g_stale, 0);
  region rs[2];
  for (int r = 0; r < 20000; r++) {
    region *x = &rs[r % 2];
    atomic_store(&x->closed, 0);
    atomic_store(&x->done, 0);
    x->id = r;
    if (scope && r % 100 == 0) tfcc_threadpool_run_begin(p);
    const size_t n = (size_t)(2 + r % 5);
    tfcc_threadpool_run(p, n, task_region, x);
    if (atomic_load(&x->done) != (int)n) {
      CHECKF(0, "region %d: %d of %zu tasks done at return", r, atomic_load(&x->done), n);
      break;
    }
    atomic_store(&x->closed, 1);
    if (scope && r % 100 == 99) tfcc_threadpool_run_end(p);
  }
  CHECKF(atomic_load(&g_stale) == 0, "%d tasks ran after their region returned",
         atomic_load(&g_stale));
}

/* Task 0 (the caller's first) waits until a worker has run task 1: proves a worker came. */
typedef struct {
  atomic_int worker_ran;
  int timed_out;
} meet;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static void task_meet(void *ctx, size_t t, int thread) {
  meet *m = ctx;
  if (thread != 0) {
    atomic_store(&m->worker_ran, 1);
    return;
  }
  if (t != 0) return;
  const double t0 = now_s();
  while (!atomic_load(&m->worker_ran))
    if (now_s() - t0 > 5.0) { /* generous: the machine may be loaded */
      m->timed_out = 1;
      return;
    }
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void check_wake(tfcc_threadpool *p) {
  for (int r = 0; r < 4; r++) {
    sleep_ms(20);                            /* well past any spin: the workers sleep */
    if (r % 2) tfcc_threadpool_run_begin(p); /* wakes them ahead of the region */
    meet m = {0};
    tfcc_threadpool_run(p, 2, task_meet, &m);
    if (r % 2) tfcc_threadpool_run_end(p);
    CHECKF(!m.timed_out && atomic_load(&m.worker_ran), "round %d: no worker woke for the region",
           r);
  }
}

int main(void) {
  for (int n = 1; n <= 4; n++) {
    tfcc_threadpool *p = NULL;
    int aff[] = {0, 1};
    CHECK(tfcc_threadpool_create(n, aff, 2, &p, NULL) == TFCC_OK);
    CHECK(tfcc_threadpool_size(p) == n);
    static job j;
    memset(&j, 0, sizeof j);
    j.n_threads = n;
    for (int r = 0; r < 100; r++) {
      if (r == 50) tfcc_threadpool_run_begin(p);
      tfcc_threadpool_run(p, (size_t)(r % 7 == 0 ? 1 : 1000), task, &j);
    }
    tfcc_threadpool_run_end(p);
    tfcc_threadpool_run(p, 0, task, &j);
    int expect_total = 0;
    for (int r = 0; r < 100; r++) expect_total += r % 7 == 0 ? 1 : 1000;
    int total = 0;
    for (int t = 0; t < 1000; t++) total += atomic_load(&j.hits[t]);
    CHECK(total == expect_total);
    CHECK(atomic_load(&j.bad_thread) == 0);
    /* Concurrent callers: regions never interleave wrongly; run scopes from both. */
    g_pool = p;
    static job a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.n_threads = b.n_threads = n;
    pthread_t ta, tb;
    pthread_create(&ta, NULL, caller, &a);
    pthread_create(&tb, NULL, caller, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    for (int t = 0; t < 1000; t++) {
      CHECK(atomic_load(&a.hits[t]) == 200);
      CHECK(atomic_load(&b.hits[t]) == 200);
    }
    check_regions_never_leak(p, 0);
    check_regions_never_leak(p, 1);
    if (n > 1) check_wake(p);
    /* Nested scopes; destroy while workers spin inside an open one. */
    tfcc_threadpool_run_begin(p);
    tfcc_threadpool_run_begin(p);
    tfcc_threadpool_run(p, 1000, task, &j);
    tfcc_threadpool_run_end(p);
    tfcc_threadpool_destroy(p);
  }
  /* Destroy at once, before the workers first ran. */
  tfcc_threadpool *p = NULL;
  CHECK(tfcc_threadpool_create(3, NULL, 0, &p, NULL) == TFCC_OK);
  tfcc_threadpool_destroy(p);
  tfcc_threadpool_run(NULL, 3, task, &(job){.n_threads = 1});
  tfcc_threadpool_run_begin(NULL);
  tfcc_threadpool_run_end(NULL);
  return tfcc_test_finish("threadpool");
}
