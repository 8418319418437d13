/* Builds one FlatBuffer table in memory for operator tests (an op's builtin options).
 * Fields are numbered from 0 in schema order, as the reader's accessors take them. */
#ifndef TFCC_TEST_FB_BUILDER_H
#define TFCC_TEST_FB_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "format/fb.h"

typedef enum {
  TFB_U8 = 1, /* also bool, int8 (value in .i) */
  TFB_I16 = 2,
  TFB_I32 = 4,
  TFB_F32 = 5, /* value in .f */
  TFB_I64 = 8,
  TFB_VEC_I32 = 9, /* .vec / .vec_len */
  TFB_STRING = 10  /* .str */
} tfb_kind;

typedef struct tfb_field {
  int field;
  tfb_kind kind;
  int64_t i;
  float f;
  const int32_t *vec;
  int vec_len;
  const char *str;
} tfb_field;

/* Writes a table with the given fields into storage (cap bytes; 1024 is plenty for options)
 * and returns a view of it. buf == NULL in the result if it does not fit. */
tfcc_fb_table tfb_build(uint8_t *storage, size_t cap, const tfb_field *fields, int n);

#endif
