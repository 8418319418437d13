#include "srv_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void srv_buf_init(srv_buf *b) { memset(b, 0, sizeof *b); }

void srv_buf_free(srv_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

int srv_buf_reserve(srv_buf *b, size_t n) {
  if (b->oom) return -1;
  if (b->len + n + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + n + 1) {
    if (cap > ((size_t)-1) / 2) {
      b->oom = 1;
      return -1;
    }
    cap *= 2;
  }
  char *p = realloc(b->data, cap);
  if (!p) {
    b->oom = 1;
    return -1;
  }
  b->data = p;
  b->cap = cap;
  return 0;
}

void srv_buf_put(srv_buf *b, const void *p, size_t n) {
  if (n == 0 || srv_buf_reserve(b, n) != 0) return;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void srv_buf_str(srv_buf *b, const char *s) { srv_buf_put(b, s, strlen(s)); }

void srv_buf_printf(srv_buf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    srv_buf_put(b, small, (size_t)n);
    return;
  }
  if (srv_buf_reserve(b, (size_t)n) != 0) return;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void srv_buf_json_str(srv_buf *b, const char *s) {
  srv_buf_put(b, "\"", 1);
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  for (; *p; p++) {
    unsigned char c = *p;
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      srv_buf_put(b, e, 2);
    } else if (c < 0x20) {
      char e[8];
      snprintf(e, sizeof e, "\\u%04x", c);
      srv_buf_put(b, e, 6);
    } else {
      srv_buf_put(b, p, 1);
    }
  }
  srv_buf_put(b, "\"", 1);
}

char *srv_buf_take(srv_buf *b, size_t *len) {
  if (b->oom) {
    srv_buf_free(b);
    return NULL;
  }
  if (srv_buf_reserve(b, 0) != 0) return NULL;
  b->data[b->len] = '\0';
  char *p = b->data;
  *len = b->len;
  memset(b, 0, sizeof *b);
  return p;
}
