/* Unit tests of the bounds-checked FlatBuffer accessors (fb.c) and the strict reads
 * (fb_verify.c): defaults for absent fields, every malformed offset reads as absent (lenient)
 * or fails with a message (strict), and no read ever leaves the buffer (run under ASan). */
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "format/fb.h"
#include "format/fb_verify.h"
#include "test_harness.h"

static void put32(uint8_t *b, size_t at, uint32_t v) {
  for (int k = 0; k < 4; k++) b[at + (size_t)k] = (uint8_t)(v >> (8 * k));
}
static void put16(uint8_t *b, size_t at, uint16_t v) {
  b[at] = (uint8_t)v;
  b[at + 1] = (uint8_t)(v >> 8);
}

static void test_scalars(void) {
  uint8_t st[1024];
  static const int32_t vec[] = {3, -1, 7};
  tfb_field f[] = {
      {.field = 0, .kind = TFB_U8, .i = 200},
      {.field = 1, .kind = TFB_I16, .i = -12345},
      {.field = 2, .kind = TFB_I32, .i = -7},
      {.field = 3, .kind = TFB_F32, .f = 1.5f},
      {.field = 4, .kind = TFB_I64, .i = -5000000000LL},
      {.field = 5, .kind = TFB_VEC_I32, .vec = vec, .vec_len = 3},
      {.field = 7, .kind = TFB_STRING, .str = "relu6"},
  };
  tfcc_fb_table t = tfb_build(st, sizeof st, f, 7);
  CHECK(tfcc_fb_table_present(&t));
  CHECK(tfcc_fb_u8(&t, 0, 1) == 200);
  CHECK(tfcc_fb_i8(&t, 0, 1) == (int8_t)200);
  CHECK(tfcc_fb_bool(&t, 0, false));
  CHECK(tfcc_fb_i16(&t, 1, 0) == -12345);
  CHECK(tfcc_fb_i32(&t, 2, 0) == -7);
  CHECK(tfcc_fb_u32(&t, 2, 0) == (uint32_t)-7);
  CHECK(tfcc_fb_f32(&t, 3, 0) == 1.5f);
  CHECK(tfcc_fb_i64(&t, 4, 0) == -5000000000LL);
  CHECK(tfcc_fb_u64(&t, 4, 0) == (uint64_t)-5000000000LL);
  /* Absent fields: defaults (6 is a hole in the vtable, 8 and 1000 are past it, -1 invalid). */
  CHECK(!tfcc_fb_has(&t, 6));
  CHECK(tfcc_fb_i32(&t, 6, 42) == 42);
  CHECK(tfcc_fb_i32(&t, 8, 43) == 43);
  CHECK(tfcc_fb_i32(&t, 1000, 44) == 44);
  CHECK(tfcc_fb_i32(&t, -1, 45) == 45);
  CHECK(tfcc_fb_has(&t, 2));
  tfcc_fb_vec v;
  CHECK(tfcc_fb_vec_field(&t, 5, 4, &v));
  CHECK(v.count == 3);
  CHECK(tfcc_fb_vec_i32(&v, 0) == 3 && tfcc_fb_vec_i32(&v, 1) == -1 && tfcc_fb_vec_i32(&v, 2) == 7);
  CHECK(!tfcc_fb_vec_field(&t, 6, 4, &v));
  /* A 3-element vector of 4-byte ints cannot be read as 8-byte elements past the buffer
   * end... it can if bytes remain; but elem size 0 is rejected. */
  CHECK(!tfcc_fb_vec_field(&t, 5, 0, &v));
  uint32_t len = 0;
  const char *s = tfcc_fb_string_field(&t, 7, &len);
  CHECK(s && len == 5 && strcmp(s, "relu6") == 0);
  CHECK(tfcc_fb_string_field(&t, 6, &len) == NULL);
  /* A table read through a non-table field gives an absent table, not a crash. */
  tfcc_fb_table sub = tfcc_fb_table_field(&t, 2);
  (void)sub;
  tfcc_fb_table none = {0};
  CHECK(!tfcc_fb_table_present(&none));
  CHECK(tfcc_fb_i32(&none, 0, 9) == 9);
  CHECK(tfcc_fb_i32(NULL, 0, 9) == 9);
  CHECK(!tfcc_fb_has(NULL, 0));
  CHECK(tfcc_fb_string_field(&none, 0, &len) == NULL);
  CHECK(!tfcc_fb_vec_field(&none, 0, 4, &v));
}

/* Every truncation of a valid table: accessors never read out of bounds (ASan checks the
 * copies, which have exactly `len` bytes) and give either the right value or the default. */
static void test_truncations(void) {
  uint8_t st[1024];
  static const int32_t vec[] = {1, 2, 3, 4, 5};
  tfb_field f[] = {
      {.field = 0, .kind = TFB_I32, .i = 11},
      {.field = 1, .kind = TFB_VEC_I32, .vec = vec, .vec_len = 5},
      {.field = 2, .kind = TFB_STRING, .str = "name"},
      {.field = 3, .kind = TFB_I64, .i = 77},
  };
  tfcc_fb_table t = tfb_build(st, sizeof st, f, 4);
  CHECK(t.buf != NULL);
  for (size_t len = 0; len <= t.len; len++) {
    uint8_t *copy = malloc(len ? len : 1);
    memcpy(copy, st, len);
    tfcc_fb_table c = {copy, len, t.pos};
    int32_t a = tfcc_fb_i32(&c, 0, -1);
    CHECK(a == 11 || a == -1);
    int64_t b = tfcc_fb_i64(&c, 3, -1);
    CHECK(b == 77 || b == -1);
    tfcc_fb_vec v;
    if (tfcc_fb_vec_field(&c, 1, 4, &v)) {
      CHECK(v.count == 5);
      for (uint32_t i = 0; i < v.count; i++) CHECK(tfcc_fb_vec_i32(&v, i) == (int32_t)i + 1);
    }
    uint32_t l;
    const char *s = tfcc_fb_string_field(&c, 2, &l);
    if (s) CHECK(l == 4 && memcmp(s, "name", 5) == 0);
    tfcc_err err = {0};
    tfcc_status ok = tfcc_fbv_table(&c, &err);
    if (len < t.pos + 4) CHECK(ok == TFCC_ERR_INVALID_MODEL);
    free(copy);
  }
}

/* Hand-made malformed tables. Layout: vtable at 4, table at 16. */
static void test_malformed(void) {
  uint8_t b[64];
  tfcc_err err;
  tfcc_fb_vec v;
  uint32_t l;
  memset(b, 0, sizeof b);
  put32(b, 0, 16);           /* root */
  put16(b, 4, 8);            /* vtable: 2 fields */
  put16(b, 6, 12);           /* table size */
  put16(b, 8, 4);            /* field 0 at +4 */
  put16(b, 10, 8);           /* field 1 at +8 */
  put32(b, 16, 12);          /* soffset: vtable at 16 - 12 = 4 */
  put32(b, 20, 0);           /* field 0: uoffset 0 (self reference) */
  put32(b, 24, 0xfffffff0u); /* field 1: uoffset far past the end */
  tfcc_fb_table t = {b, sizeof b, 16};
  CHECK(tfcc_fbv_table(&t, &err) == TFCC_OK);
  CHECK(!tfcc_fb_vec_field(&t, 0, 4, &v));
  CHECK(!tfcc_fb_vec_field(&t, 1, 4, &v));
  CHECK(tfcc_fb_string_field(&t, 0, &l) == NULL);
  CHECK(!tfcc_fb_table_present(&(tfcc_fb_table){0}));
  tfcc_fb_table sub = tfcc_fb_table_field(&t, 1);
  CHECK(!tfcc_fb_table_present(&sub));
  bool present = true;
  CHECK(tfcc_fbv_vector(&t, 0, 4, &v, &present, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "points to itself") != NULL, "%s", err.msg);
  CHECK(tfcc_fbv_vector(&t, 1, 4, &v, &present, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "past end") != NULL, "%s", err.msg);

  /* Vector claiming a huge count: field 0 -> vector at 40 with count 0x40000000. */
  put32(b, 20, 20);
  put32(b, 40, 0x40000000u);
  CHECK(!tfcc_fb_vec_field(&t, 0, 4, &v));
  CHECK(tfcc_fbv_vector(&t, 0, 4, &v, NULL, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "claims 1073741824 elements") != NULL, "%s", err.msg);
  /* Count whose byte size overflows 32 bits with 8-byte elements. */
  put32(b, 40, 0xffffffffu);
  CHECK(!tfcc_fb_vec_field(&t, 0, 8, &v));
  /* Same bytes read as a string: length too long, then one without its NUL. */
  CHECK(tfcc_fb_string_field(&t, 0, &l) == NULL);
  put32(b, 40, 3);
  memcpy(b + 44, "abcd", 4);
  CHECK(tfcc_fb_string_field(&t, 0, &l) == NULL);
  const char *s;
  CHECK(tfcc_fbv_string(&t, 0, &s, &l, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "NUL") != NULL, "%s", err.msg);
  b[47] = 0;
  s = tfcc_fb_string_field(&t, 0, &l);
  CHECK(s && l == 3 && strcmp(s, "abc") == 0);

  /* Field offset outside the table's inline size. */
  put16(b, 10, 40);
  CHECK(tfcc_fb_i32(&t, 1, -3) == -3);
  CHECK(tfcc_fbv_table(&t, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "outside the table") != NULL, "%s", err.msg);
  put16(b, 10, 8);
  /* Odd vtable size, vtable below zero, vtable past the end, table size < 4. */
  put16(b, 4, 7);
  CHECK(tfcc_fb_i32(&t, 0, -3) == -3);
  CHECK(tfcc_fbv_table(&t, &err) == TFCC_ERR_INVALID_MODEL);
  put16(b, 4, 8);
  put32(b, 16, 100);
  CHECK(tfcc_fb_i32(&t, 0, -3) == -3);
  CHECK(tfcc_fbv_table(&t, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "vtable") != NULL, "%s", err.msg);
  put32(b, 16, (uint32_t)-60);
  CHECK(tfcc_fb_i32(&t, 0, -3) == -3);
  CHECK(tfcc_fbv_table(&t, &err) == TFCC_ERR_INVALID_MODEL);
  put32(b, 16, 12);
  put16(b, 6, 2);
  CHECK(tfcc_fbv_table(&t, &err) == TFCC_ERR_INVALID_MODEL);
  put16(b, 6, 12);
  CHECK(tfcc_fbv_table(&t, &err) == TFCC_OK);
  /* Table position past the end. */
  tfcc_fb_table far = {b, sizeof b, 62};
  CHECK(tfcc_fb_i32(&far, 0, 5) == 5);
  CHECK(tfcc_fbv_table(&far, &err) == TFCC_ERR_INVALID_MODEL);

  /* Root checks. */
  tfcc_fb_table root;
  CHECK(tfcc_fbv_root(b, 7, &root, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "truncated") != NULL, "%s", err.msg);
  put32(b, 0, 123456);
  CHECK(tfcc_fbv_root(b, sizeof b, &root, &err) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "root table offset 123456 past end (size 64)") != NULL, "%s", err.msg);
  put32(b, 0, 16);
  CHECK(tfcc_fbv_root(b, sizeof b, &root, &err) == TFCC_OK);
  CHECK(root.pos == 16);
}

/* Vectors of tables: elements resolve, out-of-range elements are absent. */
static void test_vec_tables(void) {
  /* root table at 8 with field 0 = vector of 2 tables; each table has field 0 = int. */
  uint8_t b[128];
  memset(b, 0, sizeof b);
  put32(b, 0, 8);
  /* vtable shared by all tables at 100: size 6, table size 8, field 0 at +4 */
  put16(b, 100, 6);
  put16(b, 102, 8);
  put16(b, 104, 4);
  put32(b, 8, (uint32_t)(8 - 100)); /* root soffset → vtable at 100 */
  put32(b, 12, 20 - 12);            /* field 0: vector at 20 */
  put32(b, 20, 3);                  /* 3 elements */
  put32(b, 24, 40 - 24);
  put32(b, 28, 48 - 28);
  put32(b, 32, 0); /* element 2: self reference */
  put32(b, 40, (uint32_t)(40 - 100));
  put32(b, 44, 111);
  put32(b, 48, (uint32_t)(48 - 100));
  put32(b, 52, 222);
  tfcc_fb_table root = {b, sizeof b, 8};
  tfcc_fb_vec v;
  CHECK(tfcc_fb_vec_field(&root, 0, 4, &v) && v.count == 3);
  tfcc_fb_table e0 = tfcc_fb_vec_table(&root, &v, 0), e1 = tfcc_fb_vec_table(&root, &v, 1);
  CHECK(tfcc_fb_i32(&e0, 0, 0) == 111);
  CHECK(tfcc_fb_i32(&e1, 0, 0) == 222);
  CHECK(!tfcc_fb_table_present(&(tfcc_fb_table){0}));
  tfcc_fb_table e2 = tfcc_fb_vec_table(&root, &v, 2), e3 = tfcc_fb_vec_table(&root, &v, 3);
  CHECK(!tfcc_fb_table_present(&e2));
  CHECK(!tfcc_fb_table_present(&e3));
  tfcc_err err;
  tfcc_fb_table out;
  CHECK(tfcc_fbv_vec_table(&root, &v, 1, &out, &err) == TFCC_OK && out.pos == 48);
  CHECK(tfcc_fbv_vec_table(&root, &v, 2, &out, &err) == TFCC_ERR_INVALID_MODEL);
  CHECK(tfcc_fbv_vec_table(&root, &v, 3, &out, &err) == TFCC_ERR_INVALID_MODEL);
  /* Strict scalar reads of a verified table. */
  int32_t x;
  CHECK(tfcc_fbv_i32(&e1, 0, 5, &x, &err) == TFCC_OK && x == 222);
  CHECK(tfcc_fbv_i32(&e1, 3, 5, &x, &err) == TFCC_OK && x == 5);
  uint64_t u;
  /* 8 bytes at +4 overrun the 8-byte table: malformed. */
  CHECK(tfcc_fbv_u64(&e1, 0, 0, &u, &err) == TFCC_ERR_INVALID_MODEL);
  CHECK(tfcc_fb_u64(&e1, 0, 9) == 9);
}

int main(void) {
  test_scalars();
  test_truncations();
  test_malformed();
  test_vec_tables();
  return tfcc_test_finish("test_fb");
}
