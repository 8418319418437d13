/* The packed-weights cache of an encrypted model (docs/weights_cache.md, "Encrypted models"):
 * tfcc_model_load_encrypted with weights_cache writes the cache encrypted (AES-256-GCM under
 * HKDF-SHA-256(model key, "tfcc weights cache" + key id), checked here against HMAC-SHA-256
 * computed by hand), a warm load takes every block from it and computes the bits of a load
 * without a cache, at every ISA cap. A cache made at another cap, under another key, for another
 * model, with any byte flipped, truncated at any length, or of another container or layout
 * version is refused with one warning and rewritten; processes racing to write it leave a valid
 * file and no temporary one. By default the float packings stay out of it (test_no_float). Models from ../shared (skipped when absent). */
#include <dirent.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/internal.h"
#include "runtime/weights_cache.h"
#include "lifecycle_util.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

#ifndef TFCC_WITH_CRYPTO
int main(void) {
  printf("SKIP: built without TFCC_WITH_CRYPTO\n");
  return TFCC_TEST_SKIP;
}
#else
#include "tfcc/tfcc_crypto.h"

#define KEY_ID "cache-test"
#define OUT_CAP (1u << 20)

static char g_dir[256];
static int g_warnings; /* WARN lines about the cache */
static int g_verify;   /* run_enc: model options.weights_cache_verify */
static uint8_t g_key[32], g_key2[32];

static void log_fn(void *user, tfcc_log_level level, const char *tag, const char *msg) {
  (void)user;
  (void)tag;
  if (level <= TFCC_LOG_WARN && strstr(msg, "weights cache")) g_warnings++;
}

/* Loads the encrypted model enc (key bytes key; cache: the weights cache or NULL), runs it once
 * on a fixed input; its outputs end to end in out, their size in *ob, the cache counts in *st. */
static bool run_enc(tfcc_runtime *rt, const char *enc, const uint8_t *key, const char *cache,
                    uint8_t *out, size_t *ob, tfcc_wcache_stats *st) {
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.weights_cache = cache;
  mo.weights_cache_verify = g_verify;
  tfcc_key_source ks = {.kind = TFCC_KEY_FROM_BYTES, .bytes = key};
  tfcc_model *m = NULL;
  if (tfcc_model_load_encrypted(rt, enc, &ks, &mo, &m) != TFCC_OK) {
    fprintf(stderr, "load %s: %s\n", enc, tfcc_crypto_last_error());
    return false;
  }
  tfcc_wcache_get_stats(m->wcache, st);
  CHECKF(m->wcache_path == NULL, "%s: an encrypted model's updates must not use a plain cache",
         enc);
  const bool ok = lc_run_outputs(m, out, OUT_CAP, ob, NULL);
  tfcc_model_release(m);
  return ok;
}

typedef struct model_case {
  const char *file;
  const char *dir;    /* NULL (../shared/models), or a folder of the source tree holding file */
  bool refusals_only; /* test_refusals only, byte by byte (a small model: cheap loads) */
  char path[512], enc[600], enc2[600]; /* plain; encrypted under g_key, under g_key2 */
  uint8_t *ref;                        /* output without a cache */
  size_t ref_bytes;
} model_case;

/* A load of mc through cache must give the reference bits; refused: the cache must have been
 * refused with exactly one warning and rewritten (else taken whole, silently). */
static void load_check(tfcc_runtime *rt, const model_case *mc, const char *enc, const uint8_t *key,
                       const char *cache, bool refused, const char *what, size_t at) {
  static uint8_t out[OUT_CAP];
  size_t ob = 0;
  tfcc_wcache_stats st;
  memset(&st, 0, sizeof st);
  const int before = g_warnings;
  const bool ok = run_enc(rt, enc, key, cache, out, &ob, &st);
  CHECKF(ok && ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0, "%s: %s (%zu): output differs",
         mc->file, what, at);
  if (refused)
    CHECKF(g_warnings - before == 1 && st.written > 0 && st.hits == 0,
           "%s: %s (%zu): %d warnings, %u written, %u hits (want 1, rewritten, none)", mc->file,
           what, at, g_warnings - before, st.written, st.hits);
  else
    CHECKF(g_warnings == before && st.hits > 0 && st.misses == 0 && st.written == 0,
           "%s: %s (%zu): %d warnings, %u hits %u misses %u written", mc->file, what, at,
           g_warnings - before, st.hits, st.misses, st.written);
}

/* The cache key as specified, by hand: HKDF-SHA-256 with no salt (RFC 5869): PRK =
 * HMAC(zeros, key), OKM = HMAC(PRK, info || 0x01), info = label || key id. */
static void hkdf_by_hand(const uint8_t key[32], const char *key_id, uint8_t out[32]) {
  uint8_t zeros[32] = {0}, prk[32], info[128];
  unsigned n = 0;
  HMAC(EVP_sha256(), zeros, 32, key, 32, prk, &n);
  size_t il = 0;
  memcpy(info, "tfcc weights cache", 18), il = 18;
  memcpy(info + il, key_id, strlen(key_id)), il += strlen(key_id);
  info[il++] = 1;
  HMAC(EVP_sha256(), prk, 32, info, il, out, &n);
}

/* The model container's binding: its nonce (header bytes 24..36) and its tag (last 16). */
static bool model_bind(const char *enc, uint8_t bind[28]) {
  size_t n = 0;
  uint8_t *f = tfcc_test_read_file(enc, &n);
  bool ok = f && n >= 96;
  if (ok) memcpy(bind, f + 24, 12), memcpy(bind + 12, f + n - 16, 16);
  free(f);
  return ok;
}

/* AES-256-GCM by hand over the container layout of tfcc_crypto.h, with the binding as more
 * associated data after the header: encrypt (plain -> file) or decrypt (file -> *plain). */
static bool gcm(bool enc, const uint8_t key[32], const uint8_t bind[28], const uint8_t *in,
                size_t n, uint8_t *out, uint8_t hdr[80], uint8_t tag[16]) {
  EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
  int l = 0;
  bool ok = x && EVP_CipherInit_ex(x, EVP_aes_256_gcm(), NULL, NULL, NULL, enc) == 1 &&
            EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1 &&
            EVP_CipherInit_ex(x, NULL, NULL, key, hdr + 24, enc) == 1 &&
            EVP_CipherUpdate(x, NULL, &l, hdr, 80) == 1 &&
            EVP_CipherUpdate(x, NULL, &l, bind, 28) == 1 &&
            EVP_CipherUpdate(x, out, &l, in, (int)n) == 1;
  if (ok && !enc) ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_TAG, 16, tag) == 1;
  ok = ok && EVP_CipherFinal_ex(x, out + n, &l) == 1;
  if (ok && enc) ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
  EVP_CIPHER_CTX_free(x);
  return ok;
}

/* The plaintext of the encrypted cache file at path, decrypted by hand (NULL: refused). */
static uint8_t *decrypt_by_hand(const char *path, const uint8_t key[32], const uint8_t bind[28],
                                size_t *n) {
  size_t fn = 0;
  uint8_t *f = tfcc_test_read_file(path, &fn);
  uint8_t *out = NULL;
  uint64_t pn = 0;
  if (f && fn >= 96) memcpy(&pn, f + 16, 8);
  if (f && fn >= 96 && pn == fn - 96 && (out = malloc(pn + 16)) != NULL &&
      !gcm(false, key, bind, f + 80, (size_t)pn, out, f, f + fn - 16)) {
    free(out);
    out = NULL;
  }
  *n = (size_t)pn;
  free(f);
  return out;
}

/* Writes plain[0..n) to path as the encrypted cache, by hand, reusing hdr80's key id and key
 * check (a fresh nonce and size). */
static bool encrypt_by_hand(const char *path, const uint8_t key[32], const uint8_t bind[28],
                            const uint8_t *plain, size_t n, const uint8_t hdr80[80]) {
  uint8_t *f = malloc(n + 96 + 16);
  if (!f) return false;
  memcpy(f, hdr80, 80);
  const uint64_t pn = n;
  memcpy(f + 16, &pn, 8);
  for (int i = 0; i < 12; i++) f[24 + i] ^= (uint8_t)(0x5a + i); /* another nonce */
  bool ok = gcm(true, key, bind, plain, n, f + 80, f, f + 80 + n) && lc_write_file(path, f, n + 96);
  free(f);
  return ok;
}

/* No temporary file left in g_dir. */
static int temp_files(void) {
  DIR *d = opendir(g_dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".tmp.") != NULL;
  if (d) closedir(d);
  return n;
}

/* Cold and warm loads at cap isa: the reference bits, the second load packs nothing. */
static void test_cap(const model_case *mc, const char *isa) {
  tfcc_runtime *rt = lc_runtime(isa, log_fn);
  if (!rt) return; /* a cap above the CPU */
  char cache[700];
  snprintf(cache, sizeof cache, "%s/%s.%s.wce", g_dir, mc->file, isa);
  unlink(cache);
  static uint8_t out[OUT_CAP];
  size_t ob = 0;
  tfcc_wcache_stats st;
  const int before = g_warnings;
  CHECK(run_enc(rt, mc->enc, g_key, cache, out, &ob, &st));
  CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0, "%s at %s: cold output differs",
         mc->file, isa);
  CHECKF(st.written > 0 && g_warnings == before, "%s at %s: cold: %u written, %d warnings",
         mc->file, isa, st.written, g_warnings - before);
  load_check(rt, mc, mc->enc, g_key, cache, false, isa, 0);
  load_check(rt, mc, mc->enc, g_key, cache, false, isa, 1); /* unchanged by a warm load */
  tfcc_runtime_destroy(rt);
}

/* The file: a container under the cache key, not the model key; inside, a weights cache. */
static void test_format(const model_case *mc) {
  char cache[700];
  snprintf(cache, sizeof cache, "%s/%s.avx2.wce", g_dir, mc->file);
  if (access(cache, R_OK) != 0) snprintf(cache, sizeof cache, "%s/%s.generic.wce", g_dir, mc->file);
  uint8_t ck[32], bind[28];
  hkdf_by_hand(g_key, KEY_ID, ck);
  CHECK(model_bind(mc->enc, bind));
  tfcc_key_source kc = {.kind = TFCC_KEY_FROM_BYTES, .bytes = ck};
  tfcc_key_source km = {.kind = TFCC_KEY_FROM_BYTES, .bytes = g_key};
  size_t n = 0;
  uint8_t *p = decrypt_by_hand(cache, ck, bind, &n);
  CHECKF(p != NULL, "%s: not decrypted by hand", cache);
  CHECK(p && n > sizeof(tfcc_wc_header) && memcmp(p, TFCC_WC_MAGIC, 8) == 0);
  /* bound to the model: without the binding, or with another model file's, it fails */
  {
    uint8_t other[28];
    memcpy(other, bind, 28);
    other[27] ^= 1;
    size_t n2 = 0;
    uint8_t *q = decrypt_by_hand(cache, ck, other, &n2);
    CHECK(q == NULL);
    free(q);
    void *r = NULL;
    CHECK(tfcc_crypto_decrypt_file(cache, &kc, &r, &n2) == TFCC_ERR_INTEGRITY);
  }
  tfcc_wc_header h;
  tfcc_err err = {0};
  CHECKF(p && tfcc_wc_parse(p, n, NULL, &h, &err) == TFCC_OK && h.n_blocks > 0, "%s", err.msg);
  /* no block's bytes in the clear in the file */
  size_t fn = 0;
  uint8_t *f = tfcc_test_read_file(cache, &fn);
  CHECK(f && fn == n + 96);
  for (uint32_t i = 0; p && f && i < h.n_blocks; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(p, i, &e);
    if (e.bytes >= 64)
      CHECKF(memmem(f, fn, (uint8_t *)p + e.offset + e.bytes / 2 - 16, 32) == NULL,
             "%s: block %u in the clear", cache, i);
  }
  free(f);
  free(p);
  void *r = NULL;
  CHECK(tfcc_crypto_decrypt_file(cache, &km, &r, &n) == TFCC_ERR_INTEGRITY);
  CHECK(strstr(tfcc_crypto_last_error(), "wrong key") != NULL);
  /* nor is the model a cache: the model under the cache key is a wrong key */
  CHECK(tfcc_crypto_decrypt_file(mc->enc, &kc, &r, &n) == TFCC_ERR_INTEGRITY);
}

/* Refusals: each rewritten with one warning, the output right. */
/* At the CPU's best level (the kernels of every cap are test_cap's; the hundreds of loads here
 * test the cache reader, and under ASan the portable GEMM made this test take minutes), the
 * foreign-cap case at a lower one. mc->ref: the output at the best level. */
static void test_refusals(const model_case *mc, const model_case *other, bool dense) {
  const char *lower = tfcc_isa_dispatch_level(TFCC_ISA_NO_CAP) > TFCC_ISA_SSE4 ? "sse4" : "generic";
  tfcc_runtime *rt = lc_runtime(NULL, log_fn), *ra = lc_runtime(lower, log_fn);
  if (!rt) return;
  char cache[700], good[720];
  snprintf(cache, sizeof cache, "%s/%s.bad.wce", g_dir, mc->file);
  snprintf(good, sizeof good, "%s.good", cache);
  unlink(cache);
  {
    static uint8_t out[OUT_CAP];
    size_t ob = 0;
    tfcc_wcache_stats st;
    CHECK(run_enc(rt, mc->enc, g_key, cache, out, &ob, &st) && st.written > 0);
  }
  size_t gn = 0;
  uint8_t *g = tfcc_test_read_file(cache, &gn);
  CHECK(g && gn > 96 && lc_write_file(good, g, gn));
  if (!g) return;
  /* another ISA cap (foreign) */
  if (ra) { /* against the lower level's own output */
    model_case ma = *mc;
    tfcc_wcache_stats st;
    ma.ref = malloc(OUT_CAP);
    CHECK(ma.ref && run_enc(ra, mc->enc, g_key, NULL, ma.ref, &ma.ref_bytes, &st));
    load_check(ra, &ma, mc->enc, g_key, cache, true,
               "made at the best level, loaded at a lower one", 0);
    load_check(ra, &ma, mc->enc, g_key, cache, false, "rewritten at the lower level", 0);
    free(ma.ref);
    tfcc_runtime_destroy(ra);
  }
  /* another key (same model, same key id) */
  CHECK(lc_write_file(cache, g, gn));
  load_check(rt, mc, mc->enc2, g_key2, cache, true, "made under another key", 0);
  load_check(rt, mc, mc->enc2, g_key2, cache, false, "rewritten under the other key", 0);
  /* another model's cache under the same key */
  if (other && other->ref) { /* at the cap of other's reference */
    tfcc_runtime *rb = lc_runtime(NULL, log_fn);
    CHECK(lc_write_file(cache, g, gn));
    if (rb) load_check(rb, other, other->enc, g_key, cache, true, "another model's cache", 0);
    tfcc_runtime_destroy(rb);
  }
  /* another container version, another algorithm */
  for (int at = 8; at <= 10; at += 2) {
    g[at] ^= 2;
    CHECK(lc_write_file(cache, g, gn));
    load_check(rt, mc, mc->enc, g_key, cache, true, "container version / algorithm", (size_t)at);
    g[at] ^= 2;
  }
  /* another layout version inside, validly encrypted under the cache key */
  {
    uint8_t ck[32], bind[28];
    hkdf_by_hand(g_key, KEY_ID, ck);
    CHECK(model_bind(mc->enc, bind));
    size_t n = 0;
    uint8_t *p = decrypt_by_hand(good, ck, bind, &n);
    CHECK(p != NULL);
    if (p) {
      /* re-encrypted as is: taken (the by-hand format is the real one) */
      CHECK(encrypt_by_hand(cache, ck, bind, p, n, g));
      load_check(rt, mc, mc->enc, g_key, cache, false, "encrypted by hand", 0);
      uint32_t v = TFCC_WC_VERSION + 1;
      memcpy(p + 8, &v, 4);
      CHECK(encrypt_by_hand(cache, ck, bind, p, n, g));
      load_check(rt, mc, mc->enc, g_key, cache, true, "layout version", 0);
      free(p);
    }
  }
  /* a flipped bit: every header byte, the tag, a sample of the ciphertext (the container's
   * checks do not depend on the model: the small model's loads are cheap, the header and tag
   * byte by byte there, every 7th on the others) */
  const size_t edge = dense ? 1 : 7;
  for (size_t i = 0; i < gn; i += (i < 96 || i + 32 >= gn ? edge : gn / 97 + 1)) {
    g[i] ^= (uint8_t)(1u << (i % 8));
    CHECK(lc_write_file(cache, g, gn));
    load_check(rt, mc, mc->enc, g_key, cache, true, "flipped byte", i);
    g[i] ^= (uint8_t)(1u << (i % 8));
  }
  /* every truncation length of the header and the ends, a sample between */
  for (size_t len = 0; len < gn; len += (len < 130 || len + 40 >= gn ? edge : gn / 61 + 1)) {
    CHECK(lc_write_file(cache, g, len));
    load_check(rt, mc, mc->enc, g_key, cache, true, "truncated to", len);
  }
  /* trailing bytes */
  {
    uint8_t *l = malloc(gn + 1);
    memcpy(l, g, gn);
    l[gn] = 0;
    CHECK(lc_write_file(cache, l, gn + 1));
    load_check(rt, mc, mc->enc, g_key, cache, true, "one byte appended", gn + 1);
    free(l);
  }
  /* and the intact file is still taken */
  CHECK(lc_write_file(cache, g, gn));
  load_check(rt, mc, mc->enc, g_key, cache, false, "intact again", 0);
  /* weights_cache_verify: a cache written by a trusted load has no SHA-256 of the model (the
   * binding makes it redundant): refused once, rewritten with it, then taken */
  g_verify = 1;
  load_check(rt, mc, mc->enc, g_key, cache, true, "verify, no SHA-256 in the header", 0);
  load_check(rt, mc, mc->enc, g_key, cache, false, "verify, rewritten with it", 0);
  g_verify = 0;
  load_check(rt, mc, mc->enc, g_key, cache, false, "without verify again", 0);
  CHECK(temp_files() == 0);
  free(g);
  unlink(good);
  tfcc_runtime_destroy(rt);
}

/* The default (env TFCC_ENC_CACHE_FLOAT unset): the float packings stay out of an encrypted
 * cache (packed at every load, cheaper than decrypting them); the output is the same, and a
 * file written holds no float block. */
static void test_no_float(const model_case *mc) {
  unsetenv("TFCC_ENC_CACHE_FLOAT");
  tfcc_runtime *rt = lc_runtime(NULL, log_fn);
  char cache[700];
  snprintf(cache, sizeof cache, "%s/%s.nofloat.wce", g_dir, mc->file);
  unlink(cache);
  static uint8_t out[OUT_CAP];
  for (int k = 0; rt && k < 3; k++) {
    size_t ob = 0;
    tfcc_wcache_stats st;
    const int before = g_warnings;
    CHECK(run_enc(rt, mc->enc, g_key, cache, out, &ob, &st));
    CHECKF(ob == mc->ref_bytes && memcmp(out, mc->ref, ob) == 0 && g_warnings == before,
           "%s: load %d without float blocks: output differs or warned", mc->file, k);
    if (k > 0) CHECKF(st.written == 0, "%s: load %d rewrote the cache", mc->file, k);
  }
  uint8_t ck[32], bind[28];
  hkdf_by_hand(g_key, KEY_ID, ck);
  CHECK(model_bind(mc->enc, bind));
  size_t n = 0;
  uint8_t *p = access(cache, R_OK) == 0 ? decrypt_by_hand(cache, ck, bind, &n) : NULL;
  tfcc_wc_header h;
  tfcc_err err = {0};
  for (uint32_t i = 0; p && tfcc_wc_parse(p, n, NULL, &h, &err) == TFCC_OK && i < h.n_blocks; i++) {
    tfcc_wc_entry e;
    tfcc_wc_entry_at(p, i, &e);
    CHECKF(e.block != 1 && e.block != 3 && e.block != 4, "%s: float block %u (node %d) cached",
           mc->file, e.block, e.node);
  }
  free(p);
  tfcc_runtime_destroy(rt);
  setenv("TFCC_ENC_CACHE_FLOAT", "1", 1);
}

/* Processes writing one encrypted cache at once: afterwards it is whole and taken. */
static void test_race(const model_case *mc) {
  char cache[700];
  snprintf(cache, sizeof cache, "%s/%s.race.wce", g_dir, mc->file);
  for (int round = 0; round < 3; round++) {
    unlink(cache);
    pid_t kids[4];
    for (int k = 0; k < 4; k++) {
      kids[k] = fork();
      if (kids[k] == 0) {
        tfcc_runtime *rt = lc_runtime(NULL, log_fn);
        static uint8_t out[OUT_CAP];
        size_t ob = 0;
        tfcc_wcache_stats st;
        bool ok = rt && run_enc(rt, mc->enc, g_key, cache, out, &ob, &st) && ob == mc->ref_bytes &&
                  memcmp(out, mc->ref, ob) == 0;
        _exit(ok ? 0 : 1);
      }
    }
    for (int k = 0; k < 4; k++) {
      int status = 0;
      CHECK(kids[k] > 0 && waitpid(kids[k], &status, 0) == kids[k] && WIFEXITED(status) &&
            WEXITSTATUS(status) == 0);
    }
    tfcc_runtime *rt = lc_runtime(NULL, log_fn);
    if (rt) load_check(rt, mc, mc->enc, g_key, cache, false, "after a race", (size_t)round);
    tfcc_runtime_destroy(rt);
    CHECK(temp_files() == 0);
  }
}

int main(void) {
  const char *shared = tfcc_test_shared_dir();
  if (!shared) return TFCC_TEST_SKIP;
  snprintf(g_dir, sizeof g_dir, "/tmp/tfcc_enc_wcache_XXXXXX");
  if (!mkdtemp(g_dir)) return 1;
  /* every block kind in the encrypted cache (the float packings too), but in test_no_float */
  setenv("TFCC_ENC_CACHE_FLOAT", "1", 1);
  for (int i = 0; i < 32; i++) g_key[i] = (uint8_t)(i * 29 + 3), g_key2[i] = (uint8_t)(i * 7 + 1);
  tfcc_key_source k1 = {.kind = TFCC_KEY_FROM_BYTES, .bytes = g_key};
  tfcc_key_source k2 = {.kind = TFCC_KEY_FROM_BYTES, .bytes = g_key2};
  /* q8 GEMM (int8); float GEMM + GEMV + the fused expand/depthwise filter (as the plain cache's
   * test, lifecycle.test_weights_cache); the container's refusals byte by byte on a small
   * float TRANSPOSE_CONV (its loads are cheap) */
  model_case cases[] = {{.file = "mobilenet_v1_025_128_quant.tflite"},
                        {.file = "hand_landmark_lite.tflite"},
                        {.file = "transpose_conv_f32_xnnpack_order_n16_k1x16_s8.tflite",
                         .dir = "tests/ops/conformance",
                         .refusals_only = true}};
  const size_t nc = sizeof cases / sizeof cases[0];
  const char *caps[] = {"generic", "sse4", "avx2", "avx512"};
  for (size_t c = 0; c < nc; c++) {
    model_case *mc = &cases[c];
    if (mc->dir)
      snprintf(mc->path, sizeof mc->path, "%s/%s/%s", tfcc_test_source_dir(), mc->dir, mc->file);
    else
      snprintf(mc->path, sizeof mc->path, "%s/models/%s", shared, mc->file);
    if (access(mc->path, R_OK) != 0) {
      fprintf(stderr, "SKIP: %s absent\n", mc->path);
      tfcc_test_skipped = 1;
      continue;
    }
    snprintf(mc->enc, sizeof mc->enc, "%s/%s.tfcce", g_dir, mc->file);
    snprintf(mc->enc2, sizeof mc->enc2, "%s/%s.2.tfcce", g_dir, mc->file);
    CHECK(tfcc_crypto_encrypt_file(mc->path, mc->enc, &k1, KEY_ID) == TFCC_OK);
    CHECK(tfcc_crypto_encrypt_file(mc->path, mc->enc2, &k2, KEY_ID) == TFCC_OK);
    /* the reference: a load without a cache */
    tfcc_runtime *rt = lc_runtime(NULL, log_fn);
    mc->ref = malloc(OUT_CAP);
    tfcc_wcache_stats st;
    CHECK(rt && run_enc(rt, mc->enc, g_key, NULL, mc->ref, &mc->ref_bytes, &st) && st.written == 0);
    tfcc_runtime_destroy(rt);
  }
  for (size_t c = 0; c < nc; c++) {
    model_case *mc = &cases[c];
    if (!mc->ref) continue;
    if (mc->refusals_only) {
      test_refusals(mc, &cases[0], true);
      continue;
    }
    /* references per cap: the cap's output without a cache */
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
      tfcc_runtime *rt = lc_runtime(caps[i], log_fn);
      if (!rt) continue;
      tfcc_wcache_stats st;
      CHECK(run_enc(rt, mc->enc, g_key, NULL, mc->ref, &mc->ref_bytes, &st));
      tfcc_runtime_destroy(rt);
      test_cap(mc, caps[i]);
    }
    tfcc_runtime *rt = lc_runtime(NULL, log_fn);
    tfcc_wcache_stats st;
    CHECK(rt && run_enc(rt, mc->enc, g_key, NULL, mc->ref, &mc->ref_bytes, &st));
    tfcc_runtime_destroy(rt);
    test_format(mc);
    test_refusals(mc, c == 0 ? &cases[1] : &cases[0], false);
    test_race(mc);
    test_no_float(mc);
  }
  for (size_t c = 0; c < nc; c++) free(cases[c].ref);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
  return tfcc_test_finish("lifecycle.crypto_cache");
}
#endif
