/* Builtin code / custom name → operator definition. */
#include <string.h>

#include "ops/op.h"
#include "ops/op_list.h"

#define TFCC_DECLARE_OP_(code, sym) extern const tfcc_op_def tfcc_op_##sym;
TFCC_OP_LIST(TFCC_DECLARE_OP_)
#undef TFCC_DECLARE_OP_

const tfcc_op_def *tfcc_op_lookup(int32_t builtin) {
  switch (builtin) {
#define TFCC_CASE_OP_(code, sym) \
  case TFCC_OP_##code:           \
    return &tfcc_op_##sym;
    TFCC_OP_LIST(TFCC_CASE_OP_)
#undef TFCC_CASE_OP_
    default:
      return NULL;
  }
}

extern const tfcc_op_def tfcc_op_expand_dwconv;

const tfcc_op_def *tfcc_op_internal(int32_t code) {
  switch (code) {
    case TFCC_OP_EXPAND_DEPTHWISE_CONV_2D:
      return &tfcc_op_expand_dwconv;
    default:
      return NULL;
  }
}

#define TFCC_DECLARE_CUSTOM_(name, sym) extern const tfcc_op_def tfcc_op_##sym;
TFCC_CUSTOM_OP_LIST(TFCC_DECLARE_CUSTOM_)
#undef TFCC_DECLARE_CUSTOM_

const tfcc_op_def *tfcc_op_custom(const char *name) {
  if (!name) return NULL;
#define TFCC_MATCH_CUSTOM_(cname, sym) \
  if (strcmp(name, cname) == 0) return &tfcc_op_##sym;
  TFCC_CUSTOM_OP_LIST(TFCC_MATCH_CUSTOM_)
#undef TFCC_MATCH_CUSTOM_
  return NULL;
}
