/* Helpers for the elementwise operator tests: ADD/SUB/MUL/DIV-style options, one call that runs
 * an operator through tests/harness/op_run.h, and numpy broadcast indexing for references.
 * Included by one test file each. */
#ifndef TFCC_TESTS_ELEM_TEST_UTIL_H
#define TFCC_TESTS_ELEM_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "op_run.h"

/* Options for ADD/SUB/MUL/DIV (field 0 activation, field 1 pot_scale_int16 if pot >= 0).
 * opts_type 0 = no options table. */
typedef struct {
  uint8_t opts_type;
  int activation;
  int pot; /* -1: field absent */
} etu_opts;

/* Runs op `builtin` on in[0..n_in) -> out (caller's buffer). Returns the first failing status;
 * the message is in *err. */
static inline tfcc_status etu_run(int32_t builtin, tfcc_tensor **in, int32_t n_in, tfcc_tensor *out,
                                  const etu_opts *opts, tfcc_err *err) {
  const tfcc_op_def *op = tfcc_op_lookup(builtin);
  tfcc_err_clear(err);
  if (!op) return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "no op %d", (int)builtin);
  uint8_t storage[256];
  tfcc_ir_node node;
  memset(&node, 0, sizeof node);
  node.builtin = builtin;
  if (opts && opts->opts_type) {
    tfb_field f[2];
    int nf = 0;
    f[nf++] = (tfb_field){0, TFB_U8, opts->activation, 0, NULL, 0, NULL};
    if (opts->pot >= 0) f[nf++] = (tfb_field){1, TFB_U8, opts->pot, 0, NULL, 0, NULL};
    node.options_type = opts->opts_type;
    tfcc_status st =
        oh_node_options(&node, opts->opts_type, tfb_build(storage, sizeof storage, f, nf), err);
    if (st != TFCC_OK) return st;
  }
  tfcc_tensor *outs[1] = {out};
  oh_node_run r = {
      .op = op, .node = &node, .in = in, .n_in = n_in, .out = outs, .n_out = 1, .err = err};
  return oh_run_node(&r);
}

/* Broadcast index: the element of a tensor of shape (r, d) read for output index `oi` of an
 * output of shape (ro, dout) (numpy rules). */
static inline int64_t etu_bidx(int64_t oi, int32_t ro, const int32_t *dout, int32_t r,
                               const int32_t *d) {
  int64_t idx = 0, mul = 1;
  for (int32_t j = ro - 1; j >= 0; j--) {
    int64_t c = oi % dout[j];
    oi /= dout[j];
    int32_t at = r - ro + j;
    if (at >= 0) {
      if (d[at] != 1) idx += c * mul;
      mul *= d[at];
    }
  }
  return idx;
}

#endif
