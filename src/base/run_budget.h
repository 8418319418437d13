/* A run's budget: its deadline and its cancellation flag. Owned by the session's run state
 * (runtime/run_state.h); checked between operators, between loop iterations of control flow, and
 * inside operators whose own loops can run long on a small file (a hybrid time-major
 * BIDIRECTIONAL_SEQUENCE_RNN repeats its whole sequence once per time step, as TFLite's kernel
 * does: quadratic in the sequence length). */
#ifndef TFCC_BASE_RUN_BUDGET_H
#define TFCC_BASE_RUN_BUDGET_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/err.h"

typedef struct tfcc_run_budget {
  uint64_t timeout_ns;  /* per run; 0: none */
  uint64_t deadline_ns; /* of the current run (CLOCK_MONOTONIC); 0: none */
  atomic_int cancel;    /* set by tfcc_session_cancel, cleared when a run reports it */
  int64_t max_work;     /* per operator: its work estimate (tfcc_op_def.macs) at the shapes it
                           runs with (tfcc_session_set_run_max_work); 0: none */
} tfcc_run_budget;

uint64_t tfcc_run_now_ns(void);

/* TFCC_ERR_CANCELLED or TFCC_ERR_DEADLINE when the run must stop (the message says which), else
 * TFCC_OK. No system call unless a deadline is set (then one clock read). b may be NULL (no
 * budget: graph passes, constant folding at load). */
static inline tfcc_status tfcc_run_budget_check(tfcc_run_budget *b, tfcc_err *err) {
  if (!b) return TFCC_OK;
  if (atomic_load_explicit(&b->cancel, memory_order_relaxed)) {
    atomic_store_explicit(&b->cancel, 0, memory_order_relaxed);
    return tfcc_err_set(err, TFCC_ERR_CANCELLED, "run cancelled (tfcc_session_cancel)");
  }
  if (b->deadline_ns && tfcc_run_now_ns() > b->deadline_ns)
    return tfcc_err_set(err, TFCC_ERR_DEADLINE,
                        "run deadline exceeded: the run took longer than its %.3f ms "
                        "budget (tfcc_session_set_run_timeout)",
                        (double)b->timeout_ns / 1e6);
  return TFCC_OK;
}

#endif
