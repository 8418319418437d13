/* RFC 9112 request framing checks the HTTP library leaves to us (libmicrohttpd 0.9.75 takes the
 * first Content-Length, lets Transfer-Encoding win over Content-Length, keeps a bare CR inside a
 * header value, accepts HTTP/1.1 without Host, and decodes %00 in the target into a NUL that
 * cuts the path short). Each case is answered 400 (501 for a transfer coding other than
 * chunked) and the connection closed: a proxy in front may have framed the body differently. */
#include "srv_http_check.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int eq_caseless(const char *a, size_t an, const char *b) {
  return an == strlen(b) && strncasecmp(a, b, an) == 0;
}

/* First control character in s[0..n) other than HTAB (allowed in field values); -1 if none. */
static long find_ctl(const char *s, size_t n, int allow_tab) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c < 0x20 && !(allow_tab && c == '\t')) || c == 0x7f) return (long)i;
  }
  return -1;
}

static const char *ctl_name(unsigned char c) {
  switch (c) {
    case '\r': return "a bare CR";
    case '\n': return "a bare LF";
    case '\0': return "a NUL";
    default: return "a control character";
  }
}

void srv_http_check_init(srv_http_check *c) { memset(c, 0, sizeof *c); }

void srv_http_check_header(srv_http_check *c, const char *key, size_t key_len, const char *value,
                           size_t value_len) {
  if (c->status) return;
  if (!value) value = "";
  long at = find_ctl(key, key_len, 0);
  if (at >= 0 || key_len == 0) {
    c->status = 400;
    snprintf(c->err, sizeof c->err, "header name '%.*s' contains %s", (int)(key_len > 64 ? 64 : key_len), key,
             key_len == 0 ? "nothing" : ctl_name((unsigned char)key[at]));
    return;
  }
  at = find_ctl(value, value_len, 1);
  if (at >= 0) {
    c->status = 400;
    snprintf(c->err, sizeof c->err, "header '%.*s' contains %s in its value", (int)(key_len > 64 ? 64 : key_len),
             key, ctl_name((unsigned char)value[at]));
    return;
  }
  if (eq_caseless(key, key_len, "Content-Length")) {
    if (c->n_content_length == 0) {
      snprintf(c->content_length, sizeof c->content_length, "%.*s", (int)(value_len > 40 ? 40 : value_len), value);
    } else if (strlen(c->content_length) != value_len || memcmp(c->content_length, value, value_len) != 0) {
      c->status = 400;
      snprintf(c->err, sizeof c->err, "two different Content-Length headers ('%s' and '%.*s')", c->content_length,
               (int)(value_len > 40 ? 40 : value_len), value);
      return;
    }
    c->n_content_length++;
  } else if (eq_caseless(key, key_len, "Transfer-Encoding")) {
    if (c->n_transfer_encoding == 0)
      snprintf(c->transfer_encoding, sizeof c->transfer_encoding, "%.*s", (int)(value_len > 40 ? 40 : value_len),
               value);
    c->n_transfer_encoding++;
  } else if (eq_caseless(key, key_len, "Host")) {
    c->n_host++;
  }
}

int srv_http_check_target(const char *raw_target, char *err, size_t n) {
  for (const char *p = raw_target; *p; p++) {
    unsigned char ch = (unsigned char)*p;
    if (ch < 0x21 || ch == 0x7f) {
      snprintf(err, n, "the request target contains %s", ch == ' ' ? "a space" : ctl_name(ch));
      return 400;
    }
    if (ch == '%' && p[1] == '0' && p[2] == '0') {
      snprintf(err, n, "the request target contains %%00 (an encoded NUL)");
      return 400;
    }
  }
  return 0;
}

int srv_http_check_finish(srv_http_check *c, const char *http_version, char *err, size_t n) {
  if (c->status) {
    snprintf(err, n, "%s", c->err);
    return c->status;
  }
  if (c->n_transfer_encoding && c->n_content_length) {
    snprintf(err, n, "both Transfer-Encoding and Content-Length given (RFC 9112 6.3: ambiguous framing)");
    return 400;
  }
  if (c->n_transfer_encoding > 1 || (c->n_transfer_encoding && strcasecmp(c->transfer_encoding, "chunked") != 0)) {
    snprintf(err, n, "Transfer-Encoding '%s'%s is not supported (only a single 'chunked')", c->transfer_encoding,
             c->n_transfer_encoding > 1 ? " given twice" : "");
    return 501;
  }
  int http11 = http_version && strcmp(http_version, "HTTP/1.0") != 0 && http_version[0];
  if (c->n_host > 1) {
    snprintf(err, n, "more than one Host header");
    return 400;
  }
  if (http11 && c->n_host == 0) {
    snprintf(err, n, "%s request without a Host header", http_version);
    return 400;
  }
  return 0;
}
