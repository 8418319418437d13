/* Minimal streaming JSON writer (for `tfcc inspect --json`). Commas and indentation are
 * handled by the writer; strings are escaped per RFC 8259; non-finite numbers become null. */
#ifndef TFCC_TOOLS_JSON_H
#define TFCC_TOOLS_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct json_writer {
  FILE *f;
  int depth;
  int count[JSON_MAX_DEPTH];   /* values written at each depth */
  int inline_[JSON_MAX_DEPTH]; /* container at this depth is written on one line */
  int after_key;
} json_writer;

void json_init(json_writer *w, FILE *f);
void json_begin_object(json_writer *w);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w);
void json_end_array(json_writer *w);
/* An array written on one line ("[1, 224, 224, 3]"), for short lists of numbers. */
void json_begin_array_inline(json_writer *w);
/* An object written on one line (e.g. one trace event per line). */
void json_begin_object_inline(json_writer *w);
void json_key(json_writer *w, const char *key);
void json_string(json_writer *w, const char *s);
void json_int(json_writer *w, int64_t v);
void json_double(json_writer *w, double v);
void json_bool(json_writer *w, int v);
void json_null(json_writer *w);
/* Writes s as a JSON string literal (with quotes). */
void json_write_escaped(FILE *f, const char *s);

#endif
