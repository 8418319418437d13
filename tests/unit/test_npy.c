/* Unit tests of the tool's .npy reader/writer (tools/common/npy.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/common/npy.c"
#include "test_harness.h"

/* Builds a .npy image with the given major version and header dict, followed by data. */
static size_t make_npy(uint8_t *buf, size_t cap, int major, const char *dict, const void *data,
                       size_t data_bytes) {
  size_t pre = major == 1 ? 10 : 12;
  size_t dlen = strlen(dict);
  size_t total = (pre + dlen + 1 + 63) / 64 * 64;
  size_t hlen = total - pre;
  if (total + data_bytes > cap) return 0;
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (uint8_t)major;
  buf[7] = 0;
  for (size_t i = 0; i < pre - 8; i++) buf[8 + i] = (uint8_t)(hlen >> (8 * i));
  memcpy(buf + pre, dict, dlen);
  memset(buf + pre + dlen, ' ', hlen - dlen - 1);
  buf[total - 1] = '\n';
  if (data_bytes) memcpy(buf + total, data, data_bytes);
  return total + data_bytes;
}

static void expect_error(const char *dict, const void *data, size_t bytes, const char *needle) {
  uint8_t buf[1024];
  char err[256] = "";
  npy_array a;
  size_t n = make_npy(buf, sizeof buf, 1, dict, data, bytes);
  CHECK(n > 0);
  int rc = npy_parse(buf, n, &a, err, sizeof err);
  CHECKF(rc == -1, "%s accepted", dict);
  CHECKF(strstr(err, needle) != NULL, "error '%s' lacks '%s'", err, needle);
}

static void test_versions_and_types(void) {
  static const struct {
    const char *descr;
    tfcc_dtype dtype;
    size_t size;
  } cases[] = {{"<f4", TFCC_FLOAT32, 4}, {"<f2", TFCC_FLOAT16, 2}, {"<f8", TFCC_FLOAT64, 8},
               {"|i1", TFCC_INT8, 1},    {"|u1", TFCC_UINT8, 1},   {"<i2", TFCC_INT16, 2},
               {"<u2", TFCC_UINT16, 2},  {"<i4", TFCC_INT32, 4},   {"<u4", TFCC_UINT32, 4},
               {"<i8", TFCC_INT64, 8},   {"<u8", TFCC_UINT64, 8},  {"|b1", TFCC_BOOL, 1},
               {"=i4", TFCC_INT32, 4},   {"|?1", TFCC_BOOL, 1},    {">u1", TFCC_UINT8, 1}};
  uint8_t data[2 * 3 * 8];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7 + 1);
  for (int major = 1; major <= 3; major++) {
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
      char dict[128];
      snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (2, 3), }",
               cases[k].descr);
      uint8_t buf[512];
      size_t n = make_npy(buf, sizeof buf, major, dict, data, 6 * cases[k].size);
      npy_array a;
      char err[256] = "";
      int rc = npy_parse(buf, n, &a, err, sizeof err);
      CHECKF(rc == 0, "v%d %s: %s", major, cases[k].descr, err);
      if (rc != 0) continue;
      CHECK(a.dtype == cases[k].dtype);
      CHECK(a.rank == 2 && a.dims[0] == 2 && a.dims[1] == 3);
      CHECK(a.count == 6 && a.bytes == 6 * cases[k].size);
      CHECK(memcmp(a.data, data, a.bytes) == 0);
      npy_free(&a);
    }
  }
}

static void test_shapes(void) {
  uint8_t buf[512];
  float one = 1.5f;
  npy_array a;
  char err[256] = "";
  /* scalar */
  size_t n = make_npy(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
                      &one, 4);
  CHECK(npy_parse(buf, n, &a, err, sizeof err) == 0);
  CHECK(a.rank == 0 && a.count == 1 && a.bytes == 4);
  if (a.data) CHECK(((float *)a.data)[0] == 1.5f);
  npy_free(&a);
  /* 1-D with trailing comma, key order changed, double quotes, no trailing comma in dict */
  float v[3] = {1, 2, 3};
  n = make_npy(buf, sizeof buf, 1,
               "{\"shape\": (3,), \"fortran_order\": False, \"descr\": \"<f4\"}", v, 12);
  CHECKF(npy_parse(buf, n, &a, err, sizeof err) == 0, "%s", err);
  CHECK(a.rank == 1 && a.dims[0] == 3);
  npy_free(&a);
  /* empty array */
  n = make_npy(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4), }",
               NULL, 0);
  CHECKF(npy_parse(buf, n, &a, err, sizeof err) == 0, "%s", err);
  CHECK(a.rank == 2 && a.count == 0 && a.bytes == 0 && a.data != NULL);
  npy_free(&a);
  /* Fortran order is fine when at most one dimension exceeds 1 */
  n = make_npy(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 3), }", v,
               12);
  CHECKF(npy_parse(buf, n, &a, err, sizeof err) == 0, "%s", err);
  npy_free(&a);
  /* rank 8 ok, rank 9 refused */
  uint8_t b1 = 1;
  n = make_npy(buf, sizeof buf, 1,
               "{'descr': '|u1', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1), }", &b1, 1);
  CHECKF(npy_parse(buf, n, &a, err, sizeof err) == 0, "%s", err);
  CHECK(a.rank == 8);
  npy_free(&a);
}

static void test_errors(void) {
  float v[6] = {0};
  expect_error("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", v, 8, "big-endian");
  expect_error("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", v, 24, "Fortran");
  expect_error("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", v, 16,
               "unsupported dtype '<c8'");
  expect_error("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", v, 24,
               "unsupported dtype");
  expect_error("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", v, 8,
               "structured");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", v, 20,
               "file holds 20 data bytes");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", v, 12,
               "file holds 12 data bytes");
  expect_error("{'descr': '<f4', 'fortran_order': False, }", v, 4, "missing 'shape'");
  expect_error("{'descr': '<f4', 'shape': (1,), }", v, 4, "missing 'fortran_order'");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", v, 4,
               "unknown key 'x'");
  expect_error("{'descr': '<f4', 'fortran_order': maybe, 'shape': (1,), }", v, 4, "fortran_order");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", v, 4, "shape");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1,2", v, 4, "shape");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999,), }", v, 4,
               "too large");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", v, 4,
               "rank above 8");
  expect_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } junk", v, 4, "trailing");
  expect_error("['descr']", v, 4, "not a dict");

  npy_array a;
  char err[256] = "";
  uint8_t junk[16] = "\x93NUMPX\x01\x00\x00\x00";
  CHECK(npy_parse(junk, sizeof junk, &a, err, sizeof err) == -1 && strstr(err, "magic"));
  uint8_t v9[16] = "\x93NUMPY\x09\x00\x00\x00";
  CHECK(npy_parse(v9, sizeof v9, &a, err, sizeof err) == -1 && strstr(err, "version 9"));
  uint8_t trunc[12] = "\x93NUMPY\x01\x00\xff\x00";
  CHECK(npy_parse(trunc, sizeof trunc, &a, err, sizeof err) == -1 && strstr(err, "truncated"));
  CHECK(npy_parse(trunc, 5, &a, err, sizeof err) == -1);
  CHECK(npy_read_file("/nonexistent/x.npy", &a, err, sizeof err) == -1 &&
        strstr(err, "/nonexistent/x.npy"));
}

static void test_roundtrip(void) {
  char path[] = "/tmp/tfcc_test_npy_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  int32_t dims[4] = {1, 5, 7, 3};
  float data[105];
  for (int i = 0; i < 105; i++) data[i] = (float)i * 0.25f - 3.0f;
  char err[256] = "";
  CHECKF(npy_write_file(path, TFCC_FLOAT32, 4, dims, data, err, sizeof err) == 0, "%s", err);
  npy_array a;
  CHECKF(npy_read_file(path, &a, err, sizeof err) == 0, "%s", err);
  CHECK(a.dtype == TFCC_FLOAT32 && a.rank == 4 && a.dims[2] == 7 && a.bytes == sizeof data);
  if (a.data) CHECK(memcmp(a.data, data, sizeof data) == 0);
  npy_free(&a);

  /* header layout: multiple of 64, ends with '\n', exact dict text (as numpy writes it) */
  char hdr[640];
  size_t h = npy_header(TFCC_INT64, 1, dims + 1, hdr, sizeof hdr);
  CHECK(h > 0 && h % 64 == 0 && hdr[h - 1] == '\n');
  CHECK(memcmp(hdr + 10, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }", 57) == 0);
  h = npy_header(TFCC_BOOL, 0, NULL, hdr, sizeof hdr);
  CHECK(h > 0 &&
        memcmp(hdr + 10, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }", 55) == 0);
  CHECK(npy_header(TFCC_STRING, 1, dims, hdr, sizeof hdr) == 0);
  CHECK(npy_write_file(path, TFCC_STRING, 1, dims, data, err, sizeof err) == -1);

  /* every dtype round-trips, scalar and rank 8 */
  static const tfcc_dtype types[] = {TFCC_FLOAT16, TFCC_FLOAT64, TFCC_INT8,  TFCC_UINT8,
                                     TFCC_INT16,   TFCC_UINT16,  TFCC_INT32, TFCC_UINT32,
                                     TFCC_INT64,   TFCC_UINT64,  TFCC_BOOL};
  int32_t d8[8] = {1, 2, 1, 1, 3, 1, 1, 2};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    for (int32_t rank = 0; rank <= 8; rank += 8) {
      CHECK(npy_write_file(path, types[k], rank, d8, data, err, sizeof err) == 0);
      CHECKF(npy_read_file(path, &a, err, sizeof err) == 0, "%s", err);
      CHECK(a.dtype == types[k] && a.rank == rank);
      CHECK(a.count == (rank ? 12u : 1u));
      if (a.data) CHECK(memcmp(a.data, data, a.bytes) == 0);
      npy_free(&a);
    }
  }
  remove(path);
}

static void test_shared_refs(void) {
  const char *shared = tfcc_test_shared_dir();
  if (!shared) return;
  char path[4096];
  npy_array a;
  char err[256] = "";
  snprintf(path, sizeof path, "%s/models/ref/mobilenet_v2_224_quant/input_0.npy", shared);
  CHECKF(npy_read_file(path, &a, err, sizeof err) == 0, "%s", err);
  CHECK(a.dtype == TFCC_UINT8 && a.rank == 4 && a.dims[1] == 224 && a.dims[3] == 3);
  npy_free(&a);
  snprintf(path, sizeof path, "%s/models/ref/deeplabv3_mnv2_dm05_quant/output_0.npy", shared);
  CHECKF(npy_read_file(path, &a, err, sizeof err) == 0, "%s", err);
  CHECK(a.dtype == TFCC_INT64 && a.rank == 3 && a.dims[1] == 513);
  npy_free(&a);
  snprintf(path, sizeof path, "%s/models/ref/hand_landmark_lite/output_1.npy", shared);
  CHECKF(npy_read_file(path, &a, err, sizeof err) == 0, "%s", err);
  CHECK(a.dtype == TFCC_FLOAT32 && a.count == 1);
  npy_free(&a);
}

/* Random corruption of a valid file: parsed or rejected with a message, never a crash. */
static void test_mutations(void) {
  uint8_t good[512], buf[512];
  int32_t data[6] = {1, 2, 3, 4, 5, 6};
  size_t n =
      make_npy(good, sizeof good, 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
               data, sizeof data);
  uint32_t seed = 777;
  int ok = 0, rejected = 0;
  for (int round = 0; round < 5000; round++) {
    memcpy(buf, good, n);
    for (int k = 0; k < 1 + round % 4; k++) {
      seed = seed * 1664525u + 1013904223u;
      size_t at = (seed >> 8) % 80;
      seed = seed * 1664525u + 1013904223u;
      buf[at] = round % 3 ? (uint8_t) "{}(),': 0123456789<|fiuTrueFalse"[(seed >> 24) % 32]
                          : (uint8_t)(seed >> 24);
    }
    npy_array a;
    char err[256] = "";
    if (npy_parse(buf, round % 9 == 0 ? n - (size_t)(round % 30) : n, &a, err, sizeof err) == 0) {
      ok++;
      CHECK(a.data != NULL);
      npy_free(&a);
    } else {
      rejected++;
      CHECK(err[0] != '\0');
    }
  }
  CHECK(ok > 0 && rejected > 0);
}

int main(void) {
  test_versions_and_types();
  test_mutations();
  test_shapes();
  test_errors();
  test_roundtrip();
  test_shared_refs();
  return tfcc_test_finish("test_npy");
}
