/* libFuzzer target: the encrypted model container parser and decryptor. Any input must give
 * either a clean error (no plaintext) or, for a valid container under the fixed key, plaintext
 * of the size the header states. Seeds: make_corpus.sh writes a valid container. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/container.h"
#include "tfcc/tfcc_crypto.h"

static const uint8_t k_key[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= TFCC_ENC_HEADER_BYTES) {
    tfcc_enc_header h;
    char msg[256];
    (void)tfcc_enc_header_parse(data, size, &h, msg, sizeof msg);
  }
  tfcc_key_source ks = {TFCC_KEY_FROM_BYTES, NULL, NULL, NULL, NULL, k_key};
  void *plain = NULL;
  size_t n = 0;
  tfcc_status st = tfcc_crypto_decrypt_buffer(data, size, &ks, &plain, &n);
  if (st == TFCC_OK) {
    if (!plain || n + TFCC_ENC_HEADER_BYTES + TFCC_ENC_TAG_BYTES != size) abort();
    tfcc_crypto_free(plain, n);
  } else if (plain || n) {
    abort();
  }
  return 0;
}
