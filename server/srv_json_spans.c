/* Finds the "data" values of a KServe v2 request (root."inputs"[k]."data") as byte spans, and
 * loads the rest of the request with jansson with each span replaced by 0: a large JSON tensor
 * then never becomes a jansson tree (~40 bytes per element), it is parsed from the text straight
 * into the input buffer (srv_json_fill_text). The scan follows the JSON structure only (strings,
 * nesting); jansson validates everything outside the spans, srv_json_fill_text the spans. */
#include "srv_json_spans.h"

#include <string.h>

typedef struct scan {
  const char *body, *p, *e;
  srv_json_span *spans;
  int n, max;
} scan;

static void ws(scan *s) {
  while (s->p < s->e && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

/* A string at s->p; its raw content in [*k0, *k1). -1 if unterminated. */
static int str(scan *s, const char **k0, const char **k1) {
  if (s->p >= s->e || *s->p != '"') return -1;
  s->p++;
  *k0 = s->p;
  while (s->p < s->e && *s->p != '"') {
    if (*s->p == '\\' && s->e - s->p < 2) return -1;
    s->p += *s->p == '\\' ? 2 : 1;
  }
  if (s->p >= s->e) return -1;
  *k1 = s->p++;
  return 0;
}

static int key_is(const char *k0, const char *k1, const char *name) {
  size_t n = strlen(name);
  return (size_t)(k1 - k0) == n && !memcmp(k0, name, n);
}

enum { ROLE_OTHER, ROLE_ROOT, ROLE_INPUTS, ROLE_INPUT };

/* Skips one value; records the span of "data" in an input object (role ROLE_INPUT, index k). */
static int value(scan *s, int depth, int role, int k) {
  if (depth > SRV_JSON_SPAN_MAX_DEPTH) return -1;
  ws(s);
  if (s->p >= s->e) return -1;
  char c = *s->p;
  if (c == '{') {
    s->p++;
    ws(s);
    if (s->p < s->e && *s->p == '}') {
      s->p++;
      return 0;
    }
    for (;;) {
      const char *k0, *k1;
      ws(s);
      if (str(s, &k0, &k1)) return -1;
      ws(s);
      if (s->p >= s->e || *s->p != ':') return -1;
      s->p++;
      int child = ROLE_OTHER;
      if (role == ROLE_ROOT && key_is(k0, k1, "inputs")) child = ROLE_INPUTS;
      if (role == ROLE_INPUT && key_is(k0, k1, "data")) {
        ws(s);
        const char *v0 = s->p;
        if (value(s, depth + 1, ROLE_OTHER, 0)) return -1;
        if (s->n < s->max) s->spans[s->n++] = (srv_json_span){(size_t)(v0 - s->body), (size_t)(s->p - v0), k};
      } else if (value(s, depth + 1, child, 0)) {
        return -1;
      }
      ws(s);
      if (s->p >= s->e) return -1;
      if (*s->p == ',') {
        s->p++;
        continue;
      }
      if (*s->p != '}') return -1;
      s->p++;
      return 0;
    }
  }
  if (c == '[') {
    s->p++;
    ws(s);
    if (s->p < s->e && *s->p == ']') {
      s->p++;
      return 0;
    }
    for (int i = 0;; i++) {
      if (value(s, depth + 1, role == ROLE_INPUTS ? ROLE_INPUT : ROLE_OTHER, i)) return -1;
      ws(s);
      if (s->p >= s->e) return -1;
      if (*s->p == ',') {
        s->p++;
        continue;
      }
      if (*s->p != ']') return -1;
      s->p++;
      return 0;
    }
  }
  if (c == '"') {
    const char *k0, *k1;
    return str(s, &k0, &k1);
  }
  /* a number, true, false, null (or junk: jansson or srv_json_fill_text reject it) */
  while (s->p < s->e && !strchr(",]} \t\r\n", *s->p)) s->p++;
  return 0;
}

int srv_json_find_spans(const char *body, size_t len, srv_json_span *spans, int max) {
  scan s = {body, body, body + len, spans, 0, max};
  if (value(&s, 0, ROLE_ROOT, 0)) return -1;
  return s.n;
}

typedef struct feed {
  const char *body;
  size_t len, at;
  const srv_json_span *spans;
  int n, next;
} feed;

/* json_load_callback source: the body with every span replaced by "0". */
static size_t feed_cb(void *buffer, size_t buflen, void *data) {
  feed *f = data;
  char *out = buffer;
  size_t k = 0;
  while (k < buflen && f->at < f->len) {
    if (f->next < f->n && f->at == f->spans[f->next].off) {
      out[k++] = '0';
      f->at += f->spans[f->next].len;
      f->next++;
      continue;
    }
    size_t stop = f->next < f->n ? f->spans[f->next].off : f->len;
    size_t take = stop - f->at;
    if (take > buflen - k) take = buflen - k;
    memcpy(out + k, f->body + f->at, take);
    k += take;
    f->at += take;
  }
  return k;
}

json_t *srv_json_load_without_spans(const char *body, size_t len, const srv_json_span *spans, int n,
                                    json_error_t *je) {
  feed f = {body, len, 0, spans, n, 0};
  return json_load_callback(feed_cb, &f, JSON_REJECT_DUPLICATES, je);
}
