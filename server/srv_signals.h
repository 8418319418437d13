/* Signals: blocked in every thread (call before creating any), then taken synchronously by
 * the main thread with sigtimedwait. SIGPIPE is ignored (clients that go away). */
#ifndef TFCC_SERVER_SRV_SIGNALS_H
#define TFCC_SERVER_SRV_SIGNALS_H

void srv_signals_block(void);
/* Waits up to timeout_ms for SIGTERM, SIGINT or SIGHUP; returns it, or 0 on timeout. */
int srv_signals_wait(int timeout_ms);

#endif
