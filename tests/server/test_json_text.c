/* srv_json_fill_text (KServe "data" parsed from the text, no jansson tree) against
 * srv_json_fill on the jansson tree of the same text: for every valid JSON value the two give
 * the same bytes and the same error message, and the text parser hands back (1) only what
 * jansson refuses or what is not a number. Random values from a list of edge tokens (ranges of
 * every dtype, signs, exponents, overflow, true/false/null/strings, leading zeros), nested
 * 0-2 deep, for all 13 KServe datatypes and element counts 0-4; then the span scan of whole
 * requests (srv_json_find_spans + srv_json_load_without_spans). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_json_spans.h"
#include "srv_tensor.h"
#include "test_harness.h"

static const char *k_toks[] = {"0",
                               "-0",
                               "1",
                               "-1",
                               "1.5",
                               "1e3",
                               "1E-3",
                               "-2.5e+2",
                               "255",
                               "256",
                               "-129",
                               "127",
                               "128",
                               "true",
                               "false",
                               "null",
                               "\"a\"",
                               "1e400",
                               "-1e400",
                               "1e-400",
                               "9223372036854775807",
                               "9223372036854775808",
                               "-9223372036854775808",
                               "0.1",
                               "3.4028235e38",
                               "1.0",
                               "01",
                               "1.",
                               "-",
                               "{}",
                               "[]",
                               "65504",
                               "65520",
                               "2147483648",
                               "4294967295",
                               "4294967296",
                               "{\"b64\":\"YQ==\"}",
                               "0.30000000000000004"};

static unsigned rnd(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

static void differential(void) {
  const tfcc_dtype dts[] = {TFCC_FLOAT32, TFCC_FLOAT64, TFCC_FLOAT16, TFCC_BFLOAT16, TFCC_UINT8,
                            TFCC_INT8,    TFCC_INT16,   TFCC_UINT16,  TFCC_INT32,    TFCC_UINT32,
                            TFCC_INT64,   TFCC_UINT64,  TFCC_BOOL};
  const int nt = (int)(sizeof k_toks / sizeof k_toks[0]);
  unsigned seed = 1;
  int valid = 0;
  for (int it = 0; it < 60000; it++) {
    char txt[512];
    int k = 0, cnt = 1 + (int)(rnd(&seed) % 4), nest = (int)(rnd(&seed) % 3);
    for (int d = 0; d < nest; d++) txt[k++] = '[';
    for (int i = 0; i < cnt; i++)
      k += sprintf(txt + k, "%s%s%s", i ? (rnd(&seed) % 5 ? "," : " , ") : "",
                   k_toks[rnd(&seed) % (unsigned)nt], rnd(&seed) % 7 == 0 ? " " : "");
    for (int d = 0; d < nest; d++) txt[k++] = ']';
    txt[k] = '\0';
    tfcc_dtype dt = dts[rnd(&seed) % 13];
    size_t count = rnd(&seed) % 5;
    unsigned char a[64], b[64];
    memset(a, 0xAA, sizeof a);
    memset(b, 0xAA, sizeof b);
    char e1[300] = "", e2[300] = "";
    json_error_t je;
    json_t *v = json_loads(txt, JSON_DECODE_ANY, &je);
    int r2 = srv_json_fill_text(txt, strlen(txt), dt, b, count, "x", e2, sizeof e2);
    if (!v) { /* invalid JSON: the text parser names a problem or hands it to jansson */
      CHECKF(r2 != 0, "'%s' is invalid JSON but was accepted", txt);
      continue;
    }
    valid++;
    int r1 = srv_json_fill(v, dt, a, count, "x", e1, sizeof e1);
    json_decref(v);
    if (r2 == 1) {
      CHECKF(r1 != 0, "'%s' (dtype %d, %zu elements): handed back although jansson accepts it", txt,
             (int)dt, count);
      continue;
    }
    CHECKF(r1 == r2 && !strcmp(e1, e2) && (r1 != 0 || !memcmp(a, b, sizeof a)),
           "'%s' (dtype %d, %zu elements): tree %d '%s', text %d '%s'", txt, (int)dt, count, r1, e1,
           r2, e2);
  }
  CHECK(valid > 10000);
}

static void spans(void) {
  const char *req =
      "{\"id\":\"a\\\"data\",\"inputs\":[{\"name\":\"x\",\"data\":[[1, 2],[3,4]],\"parameters\":{\"data\":7}},"
      "{\"data\" : true,\"name\":\"y\"}],\"data\":[9]}";
  srv_json_span sp[4];
  int n = srv_json_find_spans(req, strlen(req), sp, 4);
  CHECK(n == 2);
  CHECK(n == 2 && sp[0].input == 0 && !strncmp(req + sp[0].off, "[[1, 2],[3,4]]", sp[0].len) &&
        sp[0].len == 14);
  CHECK(n == 2 && sp[1].input == 1 && sp[1].len == 4 && !strncmp(req + sp[1].off, "true", 4));
  json_error_t je;
  json_t *root = srv_json_load_without_spans(req, strlen(req), sp, n, &je);
  CHECKF(root != NULL, "load: %s", je.text);
  if (root) {
    json_t *in = json_object_get(root, "inputs");
    CHECK(json_integer_value(json_object_get(json_array_get(in, 0), "data")) == 0);
    CHECK(json_integer_value(
              json_object_get(json_object_get(json_array_get(in, 0), "parameters"), "data")) == 7);
    CHECK(json_is_array(json_object_get(root, "data")));
    json_decref(root);
  }
  const char *bad[] = {"{\"inputs\":[{\"data\":[1,2}]}", "{\"inputs\":[{\"data\"", "[", "\"\\",
                       "{\"a\":\"x"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECKF(srv_json_find_spans(bad[i], strlen(bad[i]), sp, 4) < 0, "'%s' scanned", bad[i]);
}

int main(void) {
  differential();
  spans();
  return tfcc_test_finish("server_json_text");
}
