/* Watermarks: SHA-256 known answers, embed/read round trip, replace, tamper detection anywhere,
 * require_watermark at load, and identical results from the watermarked model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static void test_sha256(void) {
  struct {
    const char *in, *hex;
  } kat[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
  };
  for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
    uint8_t d[32];
    char h[65];
    tfcc_sha256(kat[i].in, strlen(kat[i].in), d);
    tfcc_sha256_hex(d, h);
    CHECKF(strcmp(h, kat[i].hex) == 0, "sha256('%s') = %s", kat[i].in, h);
  }
  /* One million 'a' fed in odd pieces. */
  static char a[1000];
  memset(a, 'a', sizeof a);
  tfcc_sha256_ctx c;
  tfcc_sha256_init(&c);
  for (int i = 0; i < 1000; i++) {
    tfcc_sha256_update(&c, a, 333);
    tfcc_sha256_update(&c, a, 667);
  }
  uint8_t d[32];
  char h[65];
  tfcc_sha256_final(&c, d);
  tfcc_sha256_hex(d, h);
  CHECK(strcmp(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
}

static void free_owned(void *user, void *data, size_t size) {
  (void)user;
  (void)size;
  free(data);
}

static void run_model(tfcc_runtime *rt, const void *data, size_t n, int require, tfcc_status *st,
                      uint8_t *out, size_t out_cap) {
  tfcc_model_options o;
  tfcc_model_options_default(&o);
  o.require_watermark = require;
  tfcc_model *m = NULL;
  *st = tfcc_model_load_buffer(rt, data, n, &o, &m);
  if (*st != TFCC_OK) return;
  tfcc_session *s = NULL;
  tfcc_session_create(m, NULL, &s);
  tfcc_tensor_info ii, oi;
  tfcc_session_input_info(s, 0, &ii);
  tfcc_session_output_info(s, 0, &oi);
  uint8_t *in = calloc(1, ii.bytes);
  for (size_t k = 0; k < ii.bytes; k++) in[k] = (uint8_t)(k * 7);
  const void *ins[1] = {in};
  void *outs[1] = {out};
  if (oi.bytes <= out_cap) *st = tfcc_session_run(s, ins, outs);
  free(in);
  tfcc_session_destroy(s);
  tfcc_model_release(m);
}

int main(void) {
  test_sha256();
  char path[512];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/conv_2d_i8_3x3_same.tflite",
           tfcc_test_source_dir());
  size_t n = 0;
  uint8_t *model = tfcc_test_read_file(path, &n);
  CHECK(model != NULL);
  if (!model) return tfcc_test_finish("lifecycle.watermark");
  tfcc_watermark_info wi;
  CHECK(tfcc_watermark_read(model, n, &wi) == TFCC_OK && !wi.present);

  void *w = NULL;
  size_t wn = 0;
  CHECK(tfcc_watermark_embed(model, n, "acme/vision build 2026.11.30-7", &w, &wn) == TFCC_OK);
  CHECK(wn > n && wn % 4 == 0 && memcmp((uint8_t *)w + (wn - n), model, n) == 0);
  CHECK(tfcc_watermark_read(w, wn, &wi) == TFCC_OK && wi.present && wi.valid);
  CHECK(strcmp(wi.id, "acme/vision build 2026.11.30-7") == 0);
  uint8_t dg[32];
  char hex[65];
  tfcc_sha256(model, n, dg);
  tfcc_sha256_hex(dg, hex);
  CHECK(strcmp(wi.sha256, hex) == 0);
  /* Deterministic; re-embedding replaces the id, not stacking watermarks. */
  void *w2 = NULL, *w3 = NULL;
  size_t wn2 = 0, wn3 = 0;
  CHECK(tfcc_watermark_embed(model, n, "acme/vision build 2026.11.30-7", &w2, &wn2) == TFCC_OK);
  CHECK(wn2 == wn && memcmp(w, w2, wn) == 0);
  CHECK(tfcc_watermark_embed(w, wn, "other", &w3, &wn3) == TFCC_OK);
  CHECK(tfcc_watermark_read(w3, wn3, &wi) == TFCC_OK && wi.valid && strcmp(wi.id, "other") == 0);
  CHECK(memcmp((uint8_t *)w3 + (wn3 - n), model, n) == 0);
  free(w2);
  w2 = NULL;
  CHECK(tfcc_watermark_embed(model, n, "bad\nid", &w2, &wn2) == TFCC_ERR_INVALID_ARG && w2 == NULL);
  free(w3);

  /* The watermarked model loads and computes the same; require_watermark accepts it. */
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  uint8_t out_a[4096], out_b[4096];
  tfcc_status st;
  run_model(rt, model, n, 0, &st, out_a, sizeof out_a);
  CHECK(st == TFCC_OK);
  run_model(rt, w, wn, 1, &st, out_b, sizeof out_b);
  CHECKF(st == TFCC_OK, "%s", tfcc_last_error());
  CHECK(memcmp(out_a, out_b, 64) == 0);
  run_model(rt, model, n, 1, &st, out_b, sizeof out_b);
  CHECK(st == TFCC_ERR_INTEGRITY);
  CHECKF(strstr(tfcc_last_error(), "watermark") != NULL, "%s", tfcc_last_error());

  /* A model that owns its bytes (owned buffer, file) may release constant pages during the
   * load (runtime/const_release.h): its watermark is read at load and answered from that, the
   * same as from the bytes; with TFCC_DEBUG_RELEASE_TRAP a later read of a released page would
   * fault. require_watermark gives the same answers. */
  setenv("TFCC_DEBUG_RELEASE_TRAP", "1", 1);
  for (int tamper = 0; tamper < 2; tamper++) {
    for (int require = 0; require < 2; require++) {
      uint8_t *own = malloc(wn);
      memcpy(own, w, wn);
      if (tamper) own[wn - 10] ^= 0x40;
      tfcc_model_options o;
      tfcc_model_options_default(&o);
      o.require_watermark = require;
      tfcc_model *om = NULL;
      tfcc_status ls = tfcc_model_load_owned_buffer(rt, own, wn, free_owned, NULL, &o, &om);
      if (tamper && require) {
        CHECK(ls == TFCC_ERR_INTEGRITY);
        CHECKF(strstr(tfcc_last_error(), "watermark") != NULL, "%s", tfcc_last_error());
        continue;
      }
      CHECKF(ls == TFCC_OK, "%s", tfcc_last_error());
      tfcc_watermark_info oi;
      CHECK(tfcc_model_watermark(om, &oi) == TFCC_OK && oi.present && oi.valid == !tamper);
      CHECK(strcmp(oi.id, "acme/vision build 2026.11.30-7") == 0);
      if (tamper) CHECKF(strstr(tfcc_last_error(), "watermark") != NULL, "%s", tfcc_last_error());
      tfcc_model_release(om);
    }
  }
  unsetenv("TFCC_DEBUG_RELEASE_TRAP");

  /* Any changed byte (prefix tables, text, graph, weights) is detected, except that the id is a
   * claim, not a secret: a changed id character reads back as that other id (re-embedding with
   * another id is what 'embed' does; an unkeyed watermark cannot prevent it). */
  uint8_t *t = malloc(wn);
  int accepted = 0;
  for (size_t i = 0; i < wn; i++) {
    memcpy(t, w, wn);
    t[i] ^= 0x01;
    tfcc_watermark_info ti;
    tfcc_status rs = tfcc_watermark_read(t, wn, &ti);
    if (rs == TFCC_OK && ti.present && ti.valid &&
        strcmp(ti.id, "acme/vision build 2026.11.30-7") == 0) {
      accepted++;
      fprintf(stderr, "flip at %zu accepted\n", i);
    }
  }
  CHECK(accepted == 0);
  memcpy(t, w, wn);
  t[wn - 10] ^= 0x40;
  run_model(rt, t, wn, 1, &st, out_b, sizeof out_b);
  CHECK(st == TFCC_ERR_INTEGRITY);
  free(t);
  free(w);
  free(w2);
  free(model);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("lifecycle.watermark");
}
