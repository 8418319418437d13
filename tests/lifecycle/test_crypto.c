/* Encrypted models: round trip through the library (key from file, env, callback, bytes), wrong
 * key, truncation and bit flips anywhere (header, ciphertext, tag): a clear error and no model. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

#ifndef TFCC_WITH_CRYPTO
int main(void) {
  printf("SKIP: built without TFCC_WITH_CRYPTO\n");
  return TFCC_TEST_SKIP;
}
#else
#include "lifecycle_util.h"
#include "tfcc/tfcc_crypto.h"

static uint8_t g_key[32];

static tfcc_status key_cb(void *user, const char *key_id, uint8_t key[32]) {
  (*(int *)user)++;
  if (strcmp(key_id, "unit-key-7") != 0) return TFCC_ERR_NOT_FOUND;
  memcpy(key, g_key, 32);
  return TFCC_OK;
}

int main(void) {
  char model[512], enc[512], keyf[512], tmp[512];
  snprintf(model, sizeof model, "%s/tests/ops/conformance/conv_2d_i8_3x3_same.tflite",
           tfcc_test_source_dir());
  const char *dir = getenv("TFCC_BINARY_DIR");
  snprintf(enc, sizeof enc, "%s/crypto_%d.tfcce", dir ? dir : "/tmp", (int)getpid());
  snprintf(keyf, sizeof keyf, "%s/crypto_%d.key", dir ? dir : "/tmp", (int)getpid());
  snprintf(tmp, sizeof tmp, "%s/crypto_%d.bad", dir ? dir : "/tmp", (int)getpid());
  for (int i = 0; i < 32; i++) g_key[i] = (uint8_t)(i * 29 + 3);
  char hex[65];
  for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", g_key[i]);
  CHECK(lc_write_file(keyf, hex, 64));
  setenv("TFCC_TEST_MODEL_KEY", hex, 1);

  size_t plain_n = 0;
  uint8_t *plain = tfcc_test_read_file(model, &plain_n);
  CHECK(plain != NULL);
  tfcc_key_source kf = {.kind = TFCC_KEY_FROM_FILE, .path = keyf};
  CHECK(tfcc_crypto_encrypt_file(model, enc, &kf, "unit-key-7") == TFCC_OK);
  size_t enc_n = 0;
  uint8_t *encd = tfcc_test_read_file(enc, &enc_n);
  CHECK(encd && enc_n == plain_n + 96);
  CHECK(memmem(encd, enc_n, plain + 100, 32) == NULL); /* not plaintext */
  char kid[33];
  CHECK(tfcc_crypto_key_id(enc, kid) == TFCC_OK && strcmp(kid, "unit-key-7") == 0);

  /* Round trips. */
  int calls = 0;
  tfcc_key_source sources[4] = {{.kind = TFCC_KEY_FROM_FILE, .path = keyf},
                                {.kind = TFCC_KEY_FROM_ENV, .env = "TFCC_TEST_MODEL_KEY"},
                                {.kind = TFCC_KEY_FROM_CALLBACK, .fn = key_cb, .user = &calls},
                                {.kind = TFCC_KEY_FROM_BYTES, .bytes = g_key}};
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  for (int s = 0; s < 4; s++) {
    tfcc_model *m = NULL;
    tfcc_status st = tfcc_model_load_encrypted(rt, enc, &sources[s], NULL, &m);
    CHECKF(st == TFCC_OK, "source %d: %s", s, tfcc_crypto_last_error());
    if (m) {
      CHECK(tfcc_model_op_count(m) == 1);
      tfcc_model_release(m);
    }
    void *p = NULL;
    size_t n = 0;
    CHECK(tfcc_crypto_decrypt_buffer(encd, enc_n, &sources[s], &p, &n) == TFCC_OK);
    CHECK(n == plain_n && p && memcmp(p, plain, n) == 0);
    tfcc_crypto_free(p, n);
  }
  CHECK(calls == 2);

  /* File decryption: the bytes of the original, page aligned, writable; the encrypted model
   * computes exactly what the plain one does. */
  {
    void *p = NULL;
    size_t n = 0;
    CHECKF(tfcc_crypto_decrypt_file(enc, &sources[3], &p, &n) == TFCC_OK, "%s",
           tfcc_crypto_last_error());
    CHECK(p && n == plain_n && memcmp(p, plain, n) == 0 && ((uintptr_t)p & 4095) == 0);
    if (p) ((uint8_t *)p)[0] ^= 1;
    tfcc_crypto_free(p, n);
    tfcc_model *mp = NULL, *me = NULL;
    CHECK(tfcc_model_load_file(rt, model, NULL, &mp) == TFCC_OK);
    CHECK(tfcc_model_load_encrypted(rt, enc, &sources[3], NULL, &me) == TFCC_OK);
    tfcc_session *sp = NULL, *se = NULL;
    if (mp && me && tfcc_session_create(mp, NULL, &sp) == TFCC_OK &&
        tfcc_session_create(me, NULL, &se) == TFCC_OK) {
      tfcc_tensor_info ii, oi;
      CHECK(tfcc_session_input_info(sp, 0, &ii) == TFCC_OK &&
            tfcc_session_output_info(sp, 0, &oi) == TFCC_OK);
      uint8_t *in = malloc(ii.bytes), *o1 = malloc(oi.bytes), *o2 = malloc(oi.bytes);
      for (size_t i = 0; i < ii.bytes; i++) in[i] = (uint8_t)(i * 37 + 11);
      const void *ins[1] = {in};
      void *out1[1] = {o1}, *out2[1] = {o2};
      CHECK(tfcc_session_run(sp, ins, out1) == TFCC_OK &&
            tfcc_session_run(se, ins, out2) == TFCC_OK);
      CHECK(memcmp(o1, o2, oi.bytes) == 0);
      free(in), free(o1), free(o2);
    } else {
      CHECK(!"sessions on the plain and the encrypted model");
    }
    tfcc_session_destroy(sp);
    tfcc_session_destroy(se);
    tfcc_model_release(mp);
    tfcc_model_release(me);
  }

  /* An empty plaintext round trips (no zero-byte mapping); a directory is refused by name. */
  {
    CHECK(lc_write_file(tmp, "", 0));
    char enc0[600];
    snprintf(enc0, sizeof enc0, "%s.empty.tfcce", tmp);
    CHECK(tfcc_crypto_encrypt_file(tmp, enc0, &sources[3], NULL) == TFCC_OK);
    void *p = NULL;
    size_t n = 7;
    CHECKF(tfcc_crypto_decrypt_file(enc0, &sources[3], &p, &n) == TFCC_OK, "%s",
           tfcc_crypto_last_error());
    CHECK(p != NULL && n == 0);
    tfcc_crypto_free(p, n);
    unlink(enc0);
    char kid0[33];
    CHECK(tfcc_crypto_key_id(dir ? dir : "/tmp", kid0) == TFCC_ERR_IO);
    CHECKF(strstr(tfcc_crypto_last_error(), "not a regular file") != NULL, "%s",
           tfcc_crypto_last_error());
  }

  /* Wrong key: named as such, no model. */
  uint8_t wrong[32];
  memcpy(wrong, g_key, 32);
  wrong[5] ^= 1;
  tfcc_key_source kw = {TFCC_KEY_FROM_BYTES, NULL, NULL, NULL, NULL, wrong};
  tfcc_model *m = (tfcc_model *)1;
  CHECK(tfcc_model_load_encrypted(rt, enc, &kw, NULL, &m) == TFCC_ERR_INTEGRITY && m == NULL);
  CHECKF(strstr(tfcc_crypto_last_error(), "wrong key") != NULL, "%s", tfcc_crypto_last_error());
  tfcc_key_source kmiss = {.kind = TFCC_KEY_FROM_ENV, .env = "TFCC_TEST_NO_SUCH_VAR"};
  CHECK(tfcc_model_load_encrypted(rt, enc, &kmiss, NULL, &m) == TFCC_ERR_NOT_FOUND && m == NULL);

  /* Every truncation length (sampled) and a bit flip in every byte: error, no output. */
  tfcc_key_source kb = sources[3];
  int bad_ok = 0;
  for (size_t len = 0; len < enc_n; len += (len < 120 ? 1 : 37)) {
    void *p = (void *)1;
    size_t n = 7;
    if (tfcc_crypto_decrypt_buffer(encd, len, &kb, &p, &n) == TFCC_OK || p || n) bad_ok++;
  }
  CHECK(lc_write_file(tmp, encd, enc_n - 1));
  CHECK(tfcc_model_load_encrypted(rt, tmp, &kb, NULL, &m) == TFCC_ERR_INTEGRITY && m == NULL);
  CHECKF(strstr(tfcc_crypto_last_error(), "truncated") != NULL, "%s", tfcc_crypto_last_error());
  for (size_t i = 0; i < enc_n; i++) {
    for (int bit = 0; bit < 8; bit += (i < 80 || i >= enc_n - 16 ? 1 : 7)) {
      encd[i] ^= (uint8_t)(1u << bit);
      void *p = (void *)1;
      size_t n = 7;
      tfcc_status st = tfcc_crypto_decrypt_buffer(encd, enc_n, &kb, &p, &n);
      if (st == TFCC_OK || p || n) {
        bad_ok++;
        fprintf(stderr, "flip at byte %zu bit %d accepted\n", i, bit);
      }
      encd[i] ^= (uint8_t)(1u << bit);
    }
  }
  CHECK(bad_ok == 0);
  encd[enc_n / 2] ^= 0x10;
  CHECK(lc_write_file(tmp, encd, enc_n));
  CHECK(tfcc_model_load_encrypted(rt, tmp, &kb, NULL, &m) == TFCC_ERR_INTEGRITY && m == NULL);
  CHECKF(strstr(tfcc_crypto_last_error(), "modified") != NULL, "%s", tfcc_crypto_last_error());

  tfcc_runtime_destroy(rt);
  free(plain);
  free(encd);
  unlink(enc);
  unlink(keyf);
  unlink(tmp);
  return tfcc_test_finish("lifecycle.crypto");
}
#endif
