/* Growable byte buffer used to build HTTP response bodies (JSON text plus binary tensors). */
#ifndef TFCC_SERVER_SRV_BUF_H
#define TFCC_SERVER_SRV_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct srv_buf {
  char *data;
  size_t len, cap;
  int oom; /* an allocation failed: contents are incomplete */
} srv_buf;

void srv_buf_init(srv_buf *b);
void srv_buf_free(srv_buf *b);
/* Ensures room for n more bytes; returns 0 or -1 (oom set). */
int srv_buf_reserve(srv_buf *b, size_t n);
void srv_buf_put(srv_buf *b, const void *p, size_t n);
void srv_buf_str(srv_buf *b, const char *s);
void srv_buf_printf(srv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string literal (quotes included, RFC 8259 escapes). */
void srv_buf_json_str(srv_buf *b, const char *s);
/* Detaches the bytes (caller frees); NUL-terminated; *len set. NULL on oom. */
char *srv_buf_take(srv_buf *b, size_t *len);

#endif
