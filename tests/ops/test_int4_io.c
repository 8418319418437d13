/* Run-time int4 tensors through the public API (docs/operators.md, "int4"): tfcc holds them one
 * value per byte, sign-extended, so an int4 model input or output is one int8 per element
 * (TFLite packs two per byte in its own buffers; its Python API hands them out unpacked, as
 * here). TRANSPOSE v7 from an int4 input to an int4 output, GATHER v7 of a constant int4 table
 * (unpacked at load), and NOT_EQUAL v4 of unquantized int16 (raw values: TFLite's kernel leaves
 * that output unwritten, so no conformance case can hold it). Models:
 * tests/ops/data/opsc_hostile (modelgen/make_opsc_hostile.py, accepted.txt). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

static tfcc_runtime *g_rt;

static tfcc_session *open_model(const char *name, tfcc_model **m) {
  char path[1200];
  snprintf(path, sizeof path, "%s/tests/ops/data/opsc_hostile/%s", tfcc_test_source_dir(), name);
  tfcc_session *s = NULL;
  *m = NULL;
  CHECKF(tfcc_model_load_file(g_rt, path, NULL, m) == TFCC_OK, "%s: %s", name, tfcc_last_error());
  if (*m) CHECKF(tfcc_session_create(*m, NULL, &s) == TFCC_OK, "%s: %s", name, tfcc_last_error());
  return s;
}

static void close_model(tfcc_session *s, tfcc_model *m) {
  tfcc_session_destroy(s);
  tfcc_model_release(m);
}

static void test_transpose_io(void) {
  tfcc_model *m;
  tfcc_session *s = open_model("transpose_int4_io_v7.tflite", &m);
  if (!s) return close_model(s, m);
  tfcc_tensor_info ii, oi;
  CHECK(tfcc_session_input_info(s, 0, &ii) == TFCC_OK);
  CHECK(ii.dtype == TFCC_INT4 && ii.bytes == 6 && tfcc_dtype_size(TFCC_INT4) == 1);
  const int8_t x[6] = {-8, -1, 0, 3, 7, -5}; /* [2, 3] */
  int8_t y[6] = {0};
  const void *ins[] = {x};
  void *outs[] = {y};
  CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
  CHECK(tfcc_session_output_info(s, 0, &oi) == TFCC_OK);
  CHECK(oi.dtype == TFCC_INT4 && oi.rank == 2 && oi.dims[0] == 3 && oi.dims[1] == 2 &&
        oi.bytes == 6);
  const int8_t want[6] = {-8, 3, -1, 7, 0, -5}; /* [3, 2] */
  CHECK(memcmp(y, want, sizeof want) == 0);
  close_model(s, m);
}

static void test_gather_const(void) {
  tfcc_model *m;
  tfcc_session *s = open_model("gather_int4_output.tflite", &m);
  if (!s) return close_model(s, m);
  int8_t y[4] = {0};
  void *outs[] = {y};
  CHECKF(tfcc_session_run(s, NULL, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
  const int8_t want[4] = {1, -2, 7, -8}; /* rows 0 and 3 of the packed table */
  CHECK(memcmp(y, want, sizeof want) == 0);
  close_model(s, m);
}

static void test_not_equal_i16_raw(void) {
  tfcc_model *m;
  tfcc_session *s = open_model("not_equal_int16_raw_v4.tflite", &m);
  if (!s) return close_model(s, m);
  const int16_t a[6] = {0, 1, -32768, 32767, 5, -7}, b[6] = {0, 2, -32768, 32766, 5, 7};
  uint8_t o[6];
  memset(o, 0xAA, sizeof o);
  const void *ins[] = {a, b};
  void *outs[] = {o};
  CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
  for (int i = 0; i < 6; i++) CHECKF(o[i] == (a[i] != b[i]), "element %d: %d", i, (int)o[i]);
  close_model(s, m);
}

/* types: int2 / uint4 outputs and inputs one value per byte, float8 as raw bytes (copied). */
static void test_int2_uint4_float8_io(void) {
  tfcc_model *m;
  tfcc_session *s = open_model("cast_float32_int2_io_v8.tflite", &m);
  if (s) {
    tfcc_tensor_info oi;
    CHECK(tfcc_session_output_info(s, 0, &oi) == TFCC_OK);
    CHECK(oi.dtype == TFCC_INT2 && oi.bytes == 5 && tfcc_dtype_size(TFCC_INT2) == 1);
    const float x[5] = {-3.f, -1.5f, 0.5f, 1.f, 9.f};
    int8_t y[5] = {0};
    const void *ins[] = {x};
    void *outs[] = {y};
    CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
    const int8_t want[5] = {-2, -1, 0, 1, 1}; /* clamped to [-2, 1], then truncated */
    CHECK(memcmp(y, want, sizeof want) == 0);
  }
  close_model(s, m);
  s = open_model("dequantize_uint4_input_v8.tflite", &m);
  if (s) {
    tfcc_tensor_info ii;
    CHECK(tfcc_session_input_info(s, 0, &ii) == TFCC_OK);
    CHECK(ii.dtype == TFCC_UINT4 && ii.bytes == 5);
    const uint8_t x[5] = {0, 8, 9, 15, 3}; /* scale 0.5, zero point 8 */
    float y[5] = {0};
    const void *ins[] = {x};
    void *outs[] = {y};
    CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
    const float want[5] = {-4.f, 0.f, 0.5f, 3.5f, -2.5f};
    CHECK(memcmp(y, want, sizeof want) == 0);
  }
  close_model(s, m);
  s = open_model("gather_float8_io_v8.tflite", &m);
  if (s) {
    tfcc_tensor_info ii;
    CHECK(tfcc_session_input_info(s, 0, &ii) == TFCC_OK);
    CHECK(ii.dtype == TFCC_FLOAT8_E5M2 && ii.bytes == 8 && tfcc_dtype_size(ii.dtype) == 1);
    CHECK(strcmp(tfcc_dtype_name(TFCC_FLOAT8_E4M3FN), "float8_e4m3fn") == 0);
    const uint8_t x[8] = {0x3C, 0xBC, 0x7C, 0x7E, 0x01, 0x80, 0x40, 0xFF}; /* [4, 2] */
    uint8_t y[4] = {0};
    const void *ins[] = {x};
    void *outs[] = {y};
    CHECKF(tfcc_session_run(s, ins, outs) == TFCC_OK, "%s", tfcc_session_last_error(s));
    const uint8_t want[4] = {0x3C, 0xBC, 0x40, 0xFF}; /* rows 0 and 3, NaN bytes kept */
    CHECK(memcmp(y, want, sizeof want) == 0);
  }
  close_model(s, m);
}

int main(void) {
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 1;
  CHECKF(tfcc_runtime_create(&ro, &g_rt) == TFCC_OK, "%s", tfcc_last_error());
  if (g_rt) {
    test_transpose_io();
    test_gather_const();
    test_not_equal_i16_raw();
    test_int2_uint4_float8_io();
    tfcc_runtime_destroy(g_rt);
  }
  return tfcc_test_finish("ops.int4_io");
}
