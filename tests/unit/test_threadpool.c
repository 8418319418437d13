/* Thread pool: every task runs exactly once, across many regions, from concurrent callers. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "runtime/threadpool.h"
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
  for (int r = 0; r < 200; r++) tfcc_threadpool_run(g_pool, 1000, task, j);
  return NULL;
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
    for (int r = 0; r < 100; r++) tfcc_threadpool_run(p, (size_t)(r % 7 == 0 ? 1 : 1000), task, &j);
    int expect_total = 0;
    for (int r = 0; r < 100; r++) expect_total += r % 7 == 0 ? 1 : 1000;
    int total = 0;
    for (int t = 0; t < 1000; t++) total += atomic_load(&j.hits[t]);
    CHECK(total == expect_total);
    CHECK(atomic_load(&j.bad_thread) == 0);
    /* Concurrent callers: regions never interleave wrongly. */
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
    tfcc_threadpool_destroy(p);
  }
  tfcc_threadpool_run(NULL, 3, task, &(job){.n_threads = 1});
  return tfcc_test_finish("threadpool");
}
