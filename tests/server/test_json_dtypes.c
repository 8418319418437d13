/* The tensor types KServe v2 has no datatype for travel as the Python binding holds them, one
 * value per byte: int2 / int4 as INT8, uint4 as UINT8, float8 (e4m3fn / e5m2) as UINT8 raw
 * bytes; values are range-checked to the narrow type. Checked through srv_json_fill /
 * srv_json_fill_text (both parsers), srv_write_flat, srv_kserve_parse (datatype matching) and
 * srv_tfs_parse; bfloat16 keeps BF16. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_buf.h"
#include "srv_tensor.h"
#include "test_harness.h"

/* srv_json_fill and srv_json_fill_text on the same text: both must give want_rc (and the same
 * bytes / message). */
static void fill_both(const char *txt, tfcc_dtype dt, size_t count, int want_rc,
                      const char *want_err, const unsigned char *want) {
  unsigned char a[16], b[16];
  char e1[200] = "", e2[200] = "";
  memset(a, 0xAA, sizeof a);
  memset(b, 0xAA, sizeof b);
  json_error_t je;
  json_t *v = json_loads(txt, JSON_DECODE_ANY, &je);
  CHECKF(v != NULL, "'%s': %s", txt, je.text);
  if (!v) return;
  int r1 = srv_json_fill(v, dt, a, count, "x", e1, sizeof e1);
  int r2 = srv_json_fill_text(txt, strlen(txt), dt, b, count, "x", e2, sizeof e2);
  json_decref(v);
  CHECKF(r1 == want_rc && r2 == want_rc, "'%s' as %s: rc %d / %d, want %d (%s)", txt,
         tfcc_dtype_name(dt), r1, r2, want_rc, e1);
  if (want_err) {
    CHECKF(strstr(e1, want_err) != NULL, "'%s' as %s: message '%s'", txt, tfcc_dtype_name(dt), e1);
    CHECKF(!strcmp(e1, e2), "'%s': tree '%s', text '%s'", txt, e1, e2);
  }
  if (want) {
    CHECKF(!memcmp(a, want, count) && !memcmp(b, want, count), "'%s' as %s: bytes differ", txt,
           tfcc_dtype_name(dt));
  }
}

static void names(void) {
  CHECK(!strcmp(srv_v2_dtype(TFCC_INT4), "INT8"));
  CHECK(!strcmp(srv_v2_dtype(TFCC_INT2), "INT8"));
  CHECK(!strcmp(srv_v2_dtype(TFCC_UINT4), "UINT8"));
  CHECK(!strcmp(srv_v2_dtype(TFCC_FLOAT8_E4M3FN), "UINT8"));
  CHECK(!strcmp(srv_v2_dtype(TFCC_FLOAT8_E5M2), "UINT8"));
  CHECK(!strcmp(srv_v2_dtype(TFCC_BFLOAT16), "BF16"));
  tfcc_dtype t;
  CHECK(srv_v2_parse_dtype("INT8", &t) == 0 && t == TFCC_INT8);
  CHECK(srv_v2_parse_dtype("UINT8", &t) == 0 && t == TFCC_UINT8);
  CHECK(srv_v2_parse_dtype("BF16", &t) == 0 && t == TFCC_BFLOAT16);
  CHECK(srv_v2_parse_dtype("FP8", &t) != 0);
  CHECK(srv_wire_dtype(TFCC_INT4) == TFCC_INT8 && srv_wire_dtype(TFCC_INT2) == TFCC_INT8);
  CHECK(srv_wire_dtype(TFCC_UINT4) == TFCC_UINT8);
  CHECK(srv_wire_dtype(TFCC_FLOAT8_E5M2) == TFCC_UINT8);
  CHECK(srv_wire_dtype(TFCC_FLOAT32) == TFCC_FLOAT32);
}

static void values(void) {
  const unsigned char i4[] = {0xF8, 0x07, 0x00, 0xFF};
  fill_both("[-8, 7, 0, -1]", TFCC_INT4, 4, 0, NULL, i4);
  fill_both("[-8, 8]", TFCC_INT4, 2, -1, "element 1: 8 is out of range for INT8 (int4 values)",
            NULL);
  const unsigned char i2[] = {0xFE, 0x01};
  fill_both("[[-2], [1]]", TFCC_INT2, 2, 0, NULL, i2);
  fill_both("[-3]", TFCC_INT2, 1, -1, "-3 is out of range for INT8 (int2 values)", NULL);
  const unsigned char u4[] = {0, 15};
  fill_both("[0, 15]", TFCC_UINT4, 2, 0, NULL, u4);
  fill_both("[16]", TFCC_UINT4, 1, -1, "16 is out of range for UINT8 (uint4 values)", NULL);
  fill_both("[-1]", TFCC_UINT4, 1, -1, "out of range", NULL);
  const unsigned char f8[] = {0x38, 0xFF};
  fill_both("[56, 255]", TFCC_FLOAT8_E4M3FN, 2, 0, NULL, f8);
  fill_both("[256]", TFCC_FLOAT8_E5M2, 1, -1,
            "256 is out of range for UINT8 (float8_e5m2 raw bytes)", NULL);
  fill_both("[0.5]", TFCC_FLOAT8_E4M3FN, 1, -1, "0.5 is not an integer (datatype UINT8)", NULL);

  srv_buf b;
  srv_buf_init(&b);
  const signed char v4[] = {-8, 7, -1};
  srv_write_flat(&b, TFCC_INT4, v4, 3);
  srv_write_flat(&b, TFCC_INT2, v4 + 2, 1);
  const unsigned char raw[] = {0x38, 0xFF};
  srv_write_flat(&b, TFCC_FLOAT8_E4M3FN, raw, 2);
  srv_write_flat(&b, TFCC_UINT4, raw + 1, 1);
  CHECKF(b.len == strlen("[-8,7,-1][-1][56,255][255]") &&
             !memcmp(b.data, "[-8,7,-1][-1][56,255][255]", b.len),
         "written: %.*s", (int)b.len, b.data ? b.data : "");
  srv_buf_free(&b);
}

/* A one-input signature of dtype t, shape [2]. */
static void sig_of(srv_sig *sig, tfcc_dtype t) {
  memset(sig, 0, sizeof *sig);
  sig->n_in = sig->n_out = 1;
  snprintf(sig->in[0].name, sizeof sig->in[0].name, "x");
  sig->in[0].dtype = t;
  sig->in[0].rank = 1;
  sig->in[0].dims[0] = sig->in[0].sig[0] = 2;
  sig->out[0] = sig->in[0];
}

static int kserve(tfcc_dtype t, const char *datatype, const char *data, char *err, size_t n,
                  unsigned char *got) {
  srv_sig sig;
  sig_of(&sig, t);
  char body[256];
  snprintf(body, sizeof body,
           "{\"inputs\":[{\"name\":\"x\",\"datatype\":\"%s\",\"shape\":[2],\"data\":%s}]}",
           datatype, data);
  srv_request r;
  srv_request_init(&r, 1);
  int rc = srv_kserve_parse(body, strlen(body), strlen(body), &sig, 0, &r, err, n);
  if (rc == 0 && got) memcpy(got, r.in[0].data, 2);
  srv_request_free(&r);
  return rc;
}

static void requests(void) {
  char err[300] = "";
  unsigned char got[2] = {0, 0};
  CHECKF(kserve(TFCC_INT4, "INT8", "[-8, 7]", err, sizeof err, got) == 0, "int4: %s", err);
  CHECK(got[0] == 0xF8 && got[1] == 7);
  CHECK(kserve(TFCC_INT4, "INT4", "[1, 2]", err, sizeof err, NULL) == 400);
  CHECKF(strstr(err, "unknown or unsupported datatype 'INT4'"), "%s", err);
  CHECK(kserve(TFCC_INT2, "UINT8", "[1, 0]", err, sizeof err, NULL) == 400);
  CHECKF(strstr(err, "datatype UINT8 given, the model wants INT8"), "%s", err);
  CHECKF(kserve(TFCC_FLOAT8_E5M2, "UINT8", "[60, 188]", err, sizeof err, got) == 0, "f8: %s", err);
  CHECK(got[0] == 60 && got[1] == 188);
  CHECK(kserve(TFCC_UINT4, "UINT8", "[3, 99]", err, sizeof err, NULL) == 400);
  CHECKF(strstr(err, "99 is out of range for UINT8 (uint4 values)"), "%s", err);
  CHECKF(kserve(TFCC_BFLOAT16, "BF16", "[1.5, -2]", err, sizeof err, got) == 0, "bf16: %s", err);

  /* TF Serving (no datatype in the request): the values of the wire type */
  srv_sig sig;
  sig_of(&sig, TFCC_INT4);
  srv_request r;
  srv_request_init(&r, 1);
  const char *body = "{\"inputs\": {\"x\": [-1, 3]}}";
  int rc = srv_tfs_parse(body, strlen(body), &sig, 0, &r, err, sizeof err);
  CHECKF(rc == 0, "tfs int4: %s", err);
  if (rc == 0) {
    const unsigned char *d = r.in[0].data;
    CHECK(d[0] == 0xFF && d[1] == 3);
  }
  srv_request_free(&r);
  srv_request_init(&r, 1);
  body = "{\"inputs\": {\"x\": [-1, 9]}}";
  CHECK(srv_tfs_parse(body, strlen(body), &sig, 0, &r, err, sizeof err) == 400);
  CHECKF(strstr(err, "9 is out of range for INT8 (int4 values)"), "%s", err);
  srv_request_free(&r);
}

int main(void) {
  names();
  values();
  requests();
  return tfcc_test_finish("server_json_dtypes");
}
