/* A runtime's registered custom operators (tfcc_runtime_register_custom_op, docs/custom_ops.md):
 * each is an operator definition (ops/op.h) whose steps call the user's callbacks over
 * tfcc_custom_tensor views. */
#ifndef TFCC_RUNTIME_CUSTOM_OPS_H
#define TFCC_RUNTIME_CUSTOM_OPS_H

#include <pthread.h>

#include "ops/op.h"

typedef struct tfcc_custom_reg tfcc_custom_reg;

/* The table of one runtime: append-only, entries live until the runtime is destroyed. */
typedef struct tfcc_custom_table {
  pthread_mutex_t lock;
  bool lock_init;
  tfcc_custom_reg *head;
  int count;
} tfcc_custom_table;

tfcc_status tfcc_custom_table_init(tfcc_custom_table *t, tfcc_err *err);
void tfcc_custom_table_free(tfcc_custom_table *t);
/* The operator registered under name, or NULL (takes the table's lock: load path only). */
const tfcc_op_def *tfcc_custom_table_find(tfcc_custom_table *t, const char *name);

#endif
