#include "crypto/container.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rd(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}
static void wr(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

tfcc_status tfcc_enc_header_parse(const uint8_t raw[TFCC_ENC_HEADER_BYTES], uint64_t total,
                                  tfcc_enc_header *h, char *msg, size_t msg_len) {
  memset(h, 0, sizeof *h);
  if (memcmp(raw, TFCC_ENC_MAGIC, 8) != 0) {
    snprintf(msg, msg_len, "not a tfcc encrypted model (bad magic)");
    return TFCC_ERR_INVALID_MODEL;
  }
  h->version = (uint16_t)rd(raw + 8, 2);
  h->algorithm = (uint16_t)rd(raw + 10, 2);
  uint32_t hb = (uint32_t)rd(raw + 12, 4);
  if (h->version != TFCC_ENC_VERSION) {
    snprintf(msg, msg_len, "encrypted model version %u, this tfcc reads version %d", h->version,
             TFCC_ENC_VERSION);
    return TFCC_ERR_UNSUPPORTED;
  }
  if (h->algorithm != TFCC_ENC_ALG_AES256GCM) {
    snprintf(msg, msg_len, "encryption algorithm %u is unknown (1 = AES-256-GCM)", h->algorithm);
    return TFCC_ERR_UNSUPPORTED;
  }
  if (hb != TFCC_ENC_HEADER_BYTES) {
    snprintf(msg, msg_len, "header size %u, expected %d", hb, TFCC_ENC_HEADER_BYTES);
    return TFCC_ERR_INVALID_MODEL;
  }
  h->plaintext_bytes = rd(raw + 16, 8);
  memcpy(h->nonce, raw + 24, TFCC_ENC_NONCE_BYTES);
  unsigned idl = raw[36];
  if (idl > TFCC_KEY_ID_MAX || raw[37] || raw[38] || raw[39]) {
    snprintf(msg, msg_len, "key id length %u exceeds %d", idl, TFCC_KEY_ID_MAX);
    return TFCC_ERR_INVALID_MODEL;
  }
  for (unsigned i = 0; i < TFCC_KEY_ID_MAX; i++) {
    uint8_t c = raw[40 + i];
    if ((i < idl && (c < 0x20 || c > 0x7e)) || (i >= idl && c)) {
      snprintf(msg, msg_len, "key id holds invalid bytes");
      return TFCC_ERR_INVALID_MODEL;
    }
  }
  memcpy(h->key_id, raw + 40, idl);
  memcpy(h->key_check, raw + 72, TFCC_ENC_CHECK_BYTES);
  if (h->plaintext_bytes > ((uint64_t)1 << 40)) {
    snprintf(msg, msg_len, "plaintext size %llu is implausible",
             (unsigned long long)h->plaintext_bytes);
    return TFCC_ERR_INVALID_MODEL;
  }
  uint64_t need = TFCC_ENC_HEADER_BYTES + h->plaintext_bytes + TFCC_ENC_TAG_BYTES;
  if (total && total != need) {
    snprintf(msg, msg_len, "file is %llu bytes, header says %llu (%s)", (unsigned long long)total,
             (unsigned long long)need, total < need ? "truncated" : "trailing bytes");
    return TFCC_ERR_INTEGRITY;
  }
  return TFCC_OK;
}

void tfcc_enc_header_write(const tfcc_enc_header *h, uint8_t raw[TFCC_ENC_HEADER_BYTES]) {
  memset(raw, 0, TFCC_ENC_HEADER_BYTES);
  memcpy(raw, TFCC_ENC_MAGIC, 8);
  wr(raw + 8, h->version, 2);
  wr(raw + 10, h->algorithm, 2);
  wr(raw + 12, TFCC_ENC_HEADER_BYTES, 4);
  wr(raw + 16, h->plaintext_bytes, 8);
  memcpy(raw + 24, h->nonce, TFCC_ENC_NONCE_BYTES);
  size_t idl = strlen(h->key_id);
  raw[36] = (uint8_t)idl;
  memcpy(raw + 40, h->key_id, idl);
  memcpy(raw + 72, h->key_check, TFCC_ENC_CHECK_BYTES);
}

/* 64 hex digits (surrounding whitespace allowed) -> 32 bytes. */
static int parse_hex_key(const char *s, size_t n, uint8_t key[TFCC_KEY_BYTES]) {
  while (n && isspace((unsigned char)s[n - 1])) n--;
  while (n && isspace((unsigned char)*s)) s++, n--;
  if (n != 2 * TFCC_KEY_BYTES) return -1;
  for (int i = 0; i < TFCC_KEY_BYTES; i++) {
    int v = 0;
    for (int k = 0; k < 2; k++) {
      char c = s[2 * i + k];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    key[i] = (uint8_t)v;
  }
  return 0;
}

tfcc_status tfcc_key_get(const tfcc_key_source *src, const char *key_id,
                         uint8_t key[TFCC_KEY_BYTES], char *msg, size_t msg_len) {
  if (!src) {
    snprintf(msg, msg_len, "no key source given");
    return TFCC_ERR_INVALID_ARG;
  }
  switch (src->kind) {
    case TFCC_KEY_FROM_BYTES:
      if (!src->bytes) break;
      memcpy(key, src->bytes, TFCC_KEY_BYTES);
      return TFCC_OK;
    case TFCC_KEY_FROM_ENV: {
      const char *v = src->env ? getenv(src->env) : NULL;
      if (!v) {
        snprintf(msg, msg_len, "key: environment variable %s is not set",
                 src->env ? src->env : "(null)");
        return TFCC_ERR_NOT_FOUND;
      }
      if (parse_hex_key(v, strlen(v), key) != 0) {
        snprintf(msg, msg_len, "key: environment variable %s must hold 64 hex digits", src->env);
        return TFCC_ERR_INVALID_ARG;
      }
      return TFCC_OK;
    }
    case TFCC_KEY_FROM_FILE: {
      FILE *f = src->path ? fopen(src->path, "rb") : NULL;
      if (!f) {
        snprintf(msg, msg_len, "key file %s: %s", src->path ? src->path : "(null)",
                 strerror(errno));
        return TFCC_ERR_IO;
      }
      char buf[160];
      size_t n = fread(buf, 1, sizeof buf, f);
      fclose(f);
      tfcc_status st = TFCC_OK;
      if (n == TFCC_KEY_BYTES && parse_hex_key(buf, n, key) != 0)
        memcpy(key, buf, TFCC_KEY_BYTES);
      else if (parse_hex_key(buf, n, key) != 0) {
        snprintf(msg, msg_len, "key file %s: must hold 32 raw bytes or 64 hex digits (%zu bytes)",
                 src->path, n);
        st = TFCC_ERR_INVALID_ARG;
      }
      memset(buf, 0, sizeof buf);
      return st;
    }
    case TFCC_KEY_FROM_CALLBACK:
      if (!src->fn) break;
      if (src->fn(src->user, key_id ? key_id : "", key) != TFCC_OK) {
        snprintf(msg, msg_len, "key callback found no key for key id '%s'", key_id ? key_id : "");
        return TFCC_ERR_NOT_FOUND;
      }
      return TFCC_OK;
  }
  snprintf(msg, msg_len, "key source is incomplete (kind %d)", (int)src->kind);
  return TFCC_ERR_INVALID_ARG;
}
