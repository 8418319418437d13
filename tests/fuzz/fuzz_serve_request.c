/* libFuzzer target for tfcc serve's request parsers: KServe v2 JSON + binary tensor extension
 * (srv_kserve_parse, with the "data" values parsed from the text: srv_json_spans.c), TF Serving
 * predict (srv_tfs_parse), the YAML config loader, and the HTTP framing checks
 * (srv_http_check: a request target line, then "key: value" header lines), against a made-up
 * model signature (FP32 [1,-1,3] with a dynamic dimension, INT8 [2], BOOL [], and two outputs).
 * The first input byte picks the parser; for KServe the next two give the
 * Inference-Header-Content-Length. Requests are bounded to 1 MiB of tensors (413 beyond). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "srv_config.h"
#include "srv_http_check.h"
#include "srv_tensor.h"

#define FUZZ_MAX_BYTES ((size_t)1 << 20)

/* data: "TARGET\nkey: value\n..." -> srv_http_check_target / _header / _finish. */
static void check_http(const char *data, size_t len) {
  char *copy = malloc(len + 1);
  if (!copy) return;
  memcpy(copy, data, len);
  copy[len] = '\0';
  char err[300];
  char *nl = memchr(copy, '\n', len);
  size_t tl = nl ? (size_t)(nl - copy) : len;
  copy[tl] = '\0';
  srv_http_check_target(copy, err, sizeof err);
  srv_http_check c;
  srv_http_check_init(&c);
  size_t at = nl ? tl + 1 : len;
  while (at < len) {
    char *line = copy + at;
    char *end = memchr(line, '\n', len - at);
    size_t ll = end ? (size_t)(end - line) : len - at;
    char *colon = memchr(line, ':', ll);
    if (colon) {
      const char *v = colon + 1;
      while (v < line + ll && *v == ' ') v++;
      srv_http_check_header(&c, line, (size_t)(colon - line), v, (size_t)(line + ll - v));
    }
    at += ll + 1;
  }
  srv_http_check_finish(&c, len % 2 ? "HTTP/1.1" : "HTTP/1.0", err, sizeof err);
  free(copy);
}

static srv_sig g_sig;

static void init_sig(void) {
  srv_io *a = &g_sig.in[0], *b = &g_sig.in[1], *c = &g_sig.in[2];
  strcpy(a->name, "x");
  a->dtype = TFCC_FLOAT32;
  a->rank = 3;
  a->dims[0] = 1, a->dims[1] = 4, a->dims[2] = 3;
  a->sig[0] = 1, a->sig[1] = -1, a->sig[2] = 3;
  strcpy(b->name, "ids");
  b->dtype = TFCC_INT8;
  b->rank = 1;
  b->dims[0] = b->sig[0] = 2;
  strcpy(c->name, "flag");
  c->dtype = TFCC_BOOL;
  c->rank = 0;
  g_sig.n_in = 3;
  strcpy(g_sig.out[0].name, "y");
  g_sig.out[0].dtype = TFCC_FLOAT16;
  strcpy(g_sig.out[1].name, "z");
  g_sig.out[1].dtype = TFCC_INT64;
  g_sig.n_out = 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (g_sig.n_in == 0) init_sig();
  if (size < 3) return 0;
  char err[1024];
  const char *body = (const char *)data + 3;
  size_t len = size - 3;
  srv_request *r = malloc(sizeof *r);
  if (!r) return 0;
  switch (data[0] % 4) {
    case 0: {
      size_t hl = ((size_t)data[1] << 8 | data[2]);
      if (hl == 0 || hl > len) hl = len;
      if (srv_kserve_parse(body, len, hl, &g_sig, FUZZ_MAX_BYTES, r, err, sizeof err) == 0) {
        /* touch every bound input byte (ASan checks the bounds) */
        volatile uint8_t sum = 0;
        for (int i = 0; i < g_sig.n_in; i++)
          for (size_t k = 0; k < r->in[i].bytes; k++) sum ^= ((const uint8_t *)r->in[i].data)[k];
        (void)sum;
        srv_request_free(r);
      }
      break;
    }
    case 1:
      if (srv_tfs_parse(body, len, &g_sig, FUZZ_MAX_BYTES, r, err, sizeof err) == 0)
        srv_request_free(r);
      break;
    case 3: check_http(body, len); break;
    default: {
      srv_config c;
      if (srv_config_init(&c) == 0) {
        srv_config_load_buffer("fuzz.yaml", body, len, &c, err, sizeof err);
        srv_config_free(&c);
      }
      break;
    }
  }
  free(r);
  return 0;
}
