/* Helpers for the shape-operator tests: tensors that own a copy of their data, and one call that
 * runs an operator through tests/harness/op_run.h giving each output a fresh buffer. */
#ifndef TFCC_TESTS_SHAPE_TEST_UTIL_H
#define TFCC_TESTS_SHAPE_TEST_UTIL_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "op_run.h"

/* ---- tensors ---- */

/* A tensor of dtype and shape; data copied from src (if any) into a fresh buffer. */
static inline tfcc_tensor st_tensor(tfcc_dtype dt, int32_t rank, const int32_t *dims,
                                    const void *src) {
  tfcc_tensor t = oh_tensor(dt, rank, dims, NULL, NULL);
  t.index = 0;
  t.data = malloc(t.bytes ? t.bytes : 1);
  if (src) memcpy(t.data, src, t.bytes);
  t.known = src != NULL;
  t.is_const = src != NULL;
  return t;
}
static inline void st_quant(tfcc_tensor *t, oh_qparam *s, float scale, int32_t zp) {
  t->quant = oh_qparam_set(s, scale, zp);
}
static inline tfcc_tensor st_output(tfcc_dtype dt) {
  tfcc_tensor t = oh_tensor(dt, 0, NULL, NULL, NULL);
  t.bytes = 0;
  t.index = 0;
  return t;
}
static inline void st_free(tfcc_tensor *t) {
  free(t->data);
  t->data = NULL;
}

/* Runs op `builtin` (options table opts). Outputs get buffers of their prepared size (freed by
 * the caller with st_free). Returns the status of the first failing step; msg gets the error. */
static inline tfcc_status st_run(int32_t builtin, tfcc_fb_table opts, tfcc_tensor **in,
                                 int32_t n_in, tfcc_tensor **out, int32_t n_out, char *msg,
                                 size_t msg_len) {
  static tfcc_err err;
  tfcc_ir_node node;
  memset(&node, 0, sizeof(node));
  node.builtin = builtin;
  node.n_inputs = n_in;
  node.n_outputs = n_out;
  oh_node_run r = {.op = tfcc_op_lookup(builtin),
                   .node = &node,
                   .in = in,
                   .n_in = n_in,
                   .out = out,
                   .n_out = n_out,
                   .err = &err,
                   .alloc_outputs = true};
  tfcc_status st = oh_node_options(&node, 0, opts, &err);
  if (st == TFCC_OK) st = oh_run_node(&r);
  snprintf(msg, msg_len, "%s", err.msg);
  return st;
}

#endif
