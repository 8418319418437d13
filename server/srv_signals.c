#include "srv_signals.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

static sigset_t g_set;

void srv_signals_block(void) {
  signal(SIGPIPE, SIG_IGN);
  sigemptyset(&g_set);
  sigaddset(&g_set, SIGTERM);
  sigaddset(&g_set, SIGINT);
  sigaddset(&g_set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &g_set, NULL);
}

int srv_signals_wait(int timeout_ms) {
  struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
  int sig = sigtimedwait(&g_set, NULL, &ts);
  return sig > 0 ? sig : 0;
}
