/* Builds one FlatBuffer table in memory for operator tests;
 * the contract is in fb_test_builder.h. */
#include "fb_test_builder.h"

#include <string.h>

static void put(uint8_t *b, size_t at, uint64_t v, int n) {
  for (int k = 0; k < n; k++) b[at + (size_t)k] = (uint8_t)(v >> (8 * k));
}

tfcc_fb_table tfb_build(uint8_t *storage, size_t cap, const tfb_field *fields, int n) {
  tfcc_fb_table none = {0};
  int max_field = -1;
  for (int k = 0; k < n; k++)
    if (fields[k].field > max_field) max_field = fields[k].field;
  size_t nslots = (size_t)(max_field + 1);
  size_t vt = 4, vt_size = 4 + 2 * nslots;
  size_t tbl = (vt + vt_size + 7) & ~(size_t)7;
  size_t tbl_size = 8 + 8 * (size_t)n;
  size_t tail = tbl + tbl_size;
  if (tail > cap) return none;
  memset(storage, 0, cap);
  put(storage, 0, tbl, 4);
  put(storage, vt, vt_size, 2);
  put(storage, vt + 2, tbl_size, 2);
  put(storage, tbl, (uint64_t)(uint32_t)(int32_t)(tbl - vt), 4);
  for (int k = 0; k < n; k++) {
    size_t at = tbl + 8 + 8 * (size_t)k;
    put(storage, vt + 4 + 2 * (size_t)fields[k].field, at - tbl, 2);
    const tfb_field *f = &fields[k];
    switch (f->kind) {
      case TFB_U8: put(storage, at, (uint64_t)f->i, 1); break;
      case TFB_I16: put(storage, at, (uint64_t)f->i, 2); break;
      case TFB_I32: put(storage, at, (uint64_t)f->i, 4); break;
      case TFB_I64: put(storage, at, (uint64_t)f->i, 8); break;
      case TFB_F32: {
        uint32_t u;
        memcpy(&u, &f->f, 4);
        put(storage, at, u, 4);
        break;
      }
      case TFB_VEC_I32:
      case TFB_STRING: {
        tail = (tail + 3) & ~(size_t)3;
        size_t count = f->kind == TFB_STRING ? strlen(f->str) : (size_t)f->vec_len;
        size_t need = 4 + (f->kind == TFB_STRING ? count + 1 : 4 * count);
        if (tail + need > cap) return none;
        put(storage, at, tail - at, 4);
        put(storage, tail, count, 4);
        if (f->kind == TFB_STRING)
          memcpy(storage + tail + 4, f->str, count);
        else
          for (size_t e = 0; e < count; e++) put(storage, tail + 4 + 4 * e, (uint32_t)f->vec[e], 4);
        tail += need;
        break;
      }
    }
  }
  tfcc_fb_table t = {storage, tail, (uint32_t)tbl};
  return t;
}
