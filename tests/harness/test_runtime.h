/* Runtimes for the API tests (tests/harness/harness.c). */
#ifndef TFCC_TEST_RUNTIME_H
#define TFCC_TEST_RUNTIME_H

#include "tfcc/tfcc.h"

/* A runtime for API tests: one thread, only errors logged; NULL (and a failed check) if it
 * cannot be made. Free with tfcc_runtime_destroy. */
tfcc_runtime *tfcc_test_runtime(void);
/* tfcc_test_runtime with custom operator `name` registered (prepare, eval, op user). */
tfcc_runtime *tfcc_test_runtime_with_op(const char *name, tfcc_custom_fn prepare,
                                        tfcc_custom_fn eval, void *user);

#endif
