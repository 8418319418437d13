/* Operator versions: a model naming a version newer than the operator implements is refused at
 * load with a message naming the operator and both versions; the versions the operators state
 * cover what the conformance models carry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/fb_core.h"
#include "ir/builtin_ops.h"
#include "ops/op.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

/* Byte offset of operator code 0's version (int32) in a model, or 0. */
static size_t opcode0_version_at(const uint8_t *buf, size_t len) {
  tfcc_fb_table root = {buf, len, tfcc_fb_ld32(buf)};
  tfcc_fb_vec codes;
  if (!tfcc_fb_vec_field(&root, 1, 4, &codes) || codes.count < 1) return 0;
  tfcc_fb_table oc = tfcc_fb_vec_table(&root, &codes, 0);
  size_t at;
  char why[128];
  return tfcc_fb_field_at(&oc, 2, 4, &at, why, sizeof why) == TFCC_FB_OK ? at : 0;
}

static tfcc_status load(tfcc_runtime *rt, const uint8_t *buf, size_t len) {
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_buffer(rt, buf, len, NULL, &m);
  tfcc_model_release(m);
  return st;
}

int main(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/add_f32_bcast_4d.tflite",
           tfcc_test_source_dir());
  size_t len = 0;
  uint8_t *buf = tfcc_test_read_file(path, &len);
  CHECKF(buf != NULL, "cannot read %s", path);
  if (!buf) return tfcc_test_finish("op_versions");
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  const size_t at = opcode0_version_at(buf, len);
  CHECKF(at != 0, "%s: operator code 0 has no version field", path);
  const int32_t max = tfcc_op_max_version(TFCC_OP_ADD);
  CHECK(max == 6); /* TFLite's ADD kernel: versions 1 to 6 (6: float16) */
  if (at) {
    for (int32_t v = 1; v <= max + 1; v++) {
      uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
      memcpy(buf + at, b, 4);
      tfcc_status st = load(rt, buf, len);
      if (v <= max) {
        CHECKF(st == TFCC_OK, "ADD version %d: %s", (int)v, tfcc_last_error());
      } else {
        CHECKF(st == TFCC_ERR_UNSUPPORTED, "ADD version %d loaded", (int)v);
        CHECKF(strstr(tfcc_last_error(), "ADD version 7 (tfcc implements up to version 6)"),
               "message: %s", tfcc_last_error());
      }
    }
  }
  /* types: the versions of the newest standard resolver (LiteRT register.cc, Aug 2026) that the
   * int2 / uint4 / float8 tensor types and uint8 -> int16 QUANTIZE bring */
  static const struct {
    int32_t op, version;
  } newest[] = {
      {TFCC_OP_BROADCAST_TO, 4},
      {TFCC_OP_CAST, 9},
      {TFCC_OP_CONCATENATION, 7},
      {TFCC_OP_DEQUANTIZE, 9},
      {TFCC_OP_FILL, 5},
      {TFCC_OP_GATHER, 8},
      {TFCC_OP_GATHER_ND, 6},
      {TFCC_OP_PACK, 5},
      {TFCC_OP_PAD, 6},
      {TFCC_OP_PADV2, 6},
      {TFCC_OP_REVERSE_V2, 4},
      {TFCC_OP_SPLIT, 5},
      {TFCC_OP_SPLIT_V, 3},
      {TFCC_OP_UNPACK, 6},
      {TFCC_OP_EMBEDDING_LOOKUP, 5},
      {TFCC_OP_QUANTIZE, 6},
      {TFCC_OP_FULLY_CONNECTED, 14},
      {TFCC_OP_SOFTMAX, 4},
      {TFCC_OP_EQUAL, 5},
      {TFCC_OP_NOT_EQUAL, 4},
      {TFCC_OP_SQRT, 2},
      {TFCC_OP_GELU, 3},
  };
  for (size_t i = 0; i < sizeof newest / sizeof newest[0]; i++)
    CHECKF(tfcc_op_max_version(newest[i].op) == newest[i].version, "%s: version %d, expected %d",
           tfcc_builtin_name(newest[i].op), (int)tfcc_op_max_version(newest[i].op),
           (int)newest[i].version);
  /* operators without a version range implement version 1 */
  CHECK(tfcc_op_max_version(TFCC_OP_RESHAPE) == 1);
  tfcc_runtime_destroy(rt);
  free(buf);
  return tfcc_test_finish("op_versions");
}
