/* Model repository: the poller thread (a scan every poll_ms until stopped). */
#include <time.h>

#include "srv_log.h"
#include "srv_repo_internal.h"

static void *poller_main(void *arg) {
  srv_repo *r = arg;
  pthread_mutex_lock(&r->stop_mu);
  while (!r->stop) {
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    dl.tv_sec += r->poll_ms / 1000;
    dl.tv_nsec += (long)(r->poll_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
      dl.tv_sec++;
      dl.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&r->stop_cv, &r->stop_mu, &dl);
    if (r->stop) break;
    pthread_mutex_unlock(&r->stop_mu);
    srv_repo_sync(r, 0, NULL);
    pthread_mutex_lock(&r->stop_mu);
  }
  pthread_mutex_unlock(&r->stop_mu);
  return NULL;
}

int srv_repo_start_poller(srv_repo *r) {
  if (pthread_create(&r->poller, NULL, poller_main, r) != 0) return -1;
  r->poller_running = 1;
  return 0;
}
