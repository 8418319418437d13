/* Request framing checks of RFC 9112 (independent of libmicrohttpd, so the fuzzer drives them):
 * one Content-Length value, not both Transfer-Encoding and Content-Length, only "chunked",
 * no control characters (bare CR) in header names or values, exactly one Host in HTTP/1.1,
 * no %00 or control characters in the request target. */
#ifndef TFCC_SERVER_SRV_HTTP_CHECK_H
#define TFCC_SERVER_SRV_HTTP_CHECK_H

#include <stddef.h>

typedef struct srv_http_check {
  int n_content_length, n_transfer_encoding, n_host;
  char content_length[48], transfer_encoding[48];
  int status; /* first problem found (400), 0 so far */
  char err[256];
} srv_http_check;

void srv_http_check_init(srv_http_check *c);
/* One header line as received (key and value with their lengths). */
void srv_http_check_header(srv_http_check *c, const char *key, size_t key_len, const char *value,
                           size_t value_len);
/* After every header: 0, or 400 / 501 with err naming the cause. */
int srv_http_check_finish(srv_http_check *c, const char *http_version, char *err, size_t n);
/* The request target as received (before percent-decoding): 0 or 400 with err. */
int srv_http_check_target(const char *raw_target, char *err, size_t n);

#endif
