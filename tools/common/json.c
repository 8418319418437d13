#include "json.h"

#include <inttypes.h>
#include <math.h>

void json_init(json_writer *w, FILE *f) {
  w->f = f;
  w->depth = 0;
  w->count[0] = 0;
  w->inline_[0] = 0;
  w->after_key = 0;
}

static void indent(json_writer *w) {
  fputc('\n', w->f);
  for (int i = 0; i < w->depth; i++) fputs("  ", w->f);
}

/* Separator and indentation before a value (or key) at the current depth. */
static void before_value(json_writer *w) {
  if (w->after_key) {
    w->after_key = 0;
    return;
  }
  if (w->depth > 0) {
    if (w->count[w->depth]) fputs(w->inline_[w->depth] ? ", " : ",", w->f);
    if (!w->inline_[w->depth]) indent(w);
  }
  w->count[w->depth]++;
}

void json_write_escaped(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    switch (*p) {
      case '"': fputs("\\\"", f); break;
      case '\\': fputs("\\\\", f); break;
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      case '\b': fputs("\\b", f); break;
      case '\f': fputs("\\f", f); break;
      default:
        if (*p < 0x20 || *p == 0x7f)
          fprintf(f, "\\u%04x", *p);
        else
          fputc(*p, f);
    }
  }
  fputc('"', f);
}

static void open_container(json_writer *w, char c, int one_line) {
  before_value(w);
  fputc(c, w->f);
  if (w->depth + 1 < JSON_MAX_DEPTH) w->depth++;
  w->count[w->depth] = 0;
  w->inline_[w->depth] = one_line || w->inline_[w->depth - 1];
}

static void close_container(json_writer *w, char c) {
  int had = w->count[w->depth], one_line = w->inline_[w->depth];
  if (w->depth > 0) w->depth--;
  if (had && !one_line) indent(w);
  fputc(c, w->f);
  if (w->depth == 0) fputc('\n', w->f);
}

void json_begin_object(json_writer *w) { open_container(w, '{', 0); }
void json_end_object(json_writer *w) { close_container(w, '}'); }
void json_begin_array(json_writer *w) { open_container(w, '[', 0); }
void json_begin_array_inline(json_writer *w) { open_container(w, '[', 1); }
void json_begin_object_inline(json_writer *w) { open_container(w, '{', 1); }
void json_end_array(json_writer *w) { close_container(w, ']'); }

void json_key(json_writer *w, const char *key) {
  before_value(w);
  json_write_escaped(w->f, key);
  fputs(": ", w->f);
  w->after_key = 1;
}

void json_string(json_writer *w, const char *s) {
  before_value(w);
  json_write_escaped(w->f, s);
}

void json_int(json_writer *w, int64_t v) {
  before_value(w);
  fprintf(w->f, "%" PRId64, v);
}

void json_double(json_writer *w, double v) {
  before_value(w);
  if (isfinite(v))
    fprintf(w->f, "%.9g", v);
  else
    fputs("null", w->f);
}

void json_bool(json_writer *w, int v) {
  before_value(w);
  fputs(v ? "true" : "false", w->f);
}

void json_null(json_writer *w) {
  before_value(w);
  fputs("null", w->f);
}
