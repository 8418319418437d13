/* Helpers for whoever runs operators (the session's executor, the constant folder): the byte
 * size of a tensor from its dtype and shape, and an operator's display name for messages. */
#include <stdio.h>

#include "ops/op.h"

const char *tfcc_node_op_name(const tfcc_ir_node *n) {
  static _Thread_local char buf[96];
  if (n->builtin == TFCC_OP_CUSTOM) {
    snprintf(buf, sizeof buf, "CUSTOM:%s", n->custom_code ? n->custom_code : "?");
    return buf;
  }
  return tfcc_builtin_name(n->builtin);
}

tfcc_status tfcc_tensor_update_bytes(tfcc_tensor *t, tfcc_err *err) {
  size_t es = t->dtype == TFCC_RESOURCE ? sizeof(int32_t) : tfcc_dtype_size(t->dtype);
  if (es == 0)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "tensor %d: dtype %s is not supported",
                        (int)t->index, tfcc_dtype_name(t->dtype));
  int64_t n = tfcc_shape_elements(t->rank, t->dims);
  if (n < 0 || (uint64_t)n > (uint64_t)(SIZE_MAX / 2) / es) {
    char s[128];
    return tfcc_err_set(err, TFCC_ERR_SHAPE, "tensor %d: shape %s is too large or negative",
                        (int)t->index, tfcc_shape_str(t->rank, t->dims, s, sizeof s));
  }
  t->bytes = (size_t)n * es;
  return TFCC_OK;
}
