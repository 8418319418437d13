/* Datatype names, shape checks, and the JSON <-> tensor element codec. */
#include "srv_tensor.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void srv_request_init(srv_request *r, int n_out) {
  memset(r, 0, sizeof *r);
  for (int i = 0; i < n_out && i < SRV_MAX_IO; i++) r->want[i] = 1;
}

void srv_request_free(srv_request *r) {
  for (int i = 0; i < SRV_MAX_IO; i++) {
    free(r->in[i].owned);
    r->in[i].owned = NULL;
  }
}

static const struct {
  tfcc_dtype t;
  const char *name;
} k_types[] = {{TFCC_BOOL, "BOOL"},   {TFCC_UINT8, "UINT8"},     {TFCC_UINT16, "UINT16"},
               {TFCC_UINT32, "UINT32"}, {TFCC_UINT64, "UINT64"}, {TFCC_INT8, "INT8"},
               {TFCC_INT16, "INT16"}, {TFCC_INT32, "INT32"},     {TFCC_INT64, "INT64"},
               {TFCC_FLOAT16, "FP16"}, {TFCC_FLOAT32, "FP32"},   {TFCC_FLOAT64, "FP64"},
               {TFCC_BFLOAT16, "BF16"},
               /* KServe v2 has no 2 / 4-bit or float8 datatype: these travel as the Python
                * binding holds them, one value per byte (int2 / int4 as INT8, uint4 as UINT8,
                * float8 as UINT8 raw bytes), range-checked to the narrow type. After the
                * entries above, so that parsing "INT8" / "UINT8" finds int8 / uint8. */
               {TFCC_INT4, "INT8"}, {TFCC_INT2, "INT8"}, {TFCC_UINT4, "UINT8"},
               {TFCC_FLOAT8_E4M3FN, "UINT8"}, {TFCC_FLOAT8_E5M2, "UINT8"}};
#define N_TYPES (sizeof k_types / sizeof k_types[0])

tfcc_dtype srv_wire_dtype(tfcc_dtype t) {
  switch (t) {
    case TFCC_INT4:
    case TFCC_INT2: return TFCC_INT8;
    case TFCC_UINT4:
    case TFCC_FLOAT8_E4M3FN:
    case TFCC_FLOAT8_E5M2: return TFCC_UINT8;
    default: return t;
  }
}

/* "INT8" for int8; "INT8 (int4 values)" for the types carried in a wider one. */
static void range_name(tfcc_dtype t, char *out, size_t n) {
  if (srv_wire_dtype(t) == t)
    snprintf(out, n, "%s", srv_v2_dtype(t));
  else
    snprintf(out, n, "%s (%s %s)", srv_v2_dtype(t), tfcc_dtype_name(t),
             t == TFCC_FLOAT8_E4M3FN || t == TFCC_FLOAT8_E5M2 ? "raw bytes" : "values");
}

const char *srv_v2_dtype(tfcc_dtype t) {
  for (size_t i = 0; i < N_TYPES; i++)
    if (k_types[i].t == t) return k_types[i].name;
  return NULL;
}

int srv_v2_parse_dtype(const char *s, tfcc_dtype *t) {
  for (size_t i = 0; i < N_TYPES; i++)
    if (!strcmp(k_types[i].name, s)) {
      *t = k_types[i].t;
      return 0;
    }
  return -1;
}

size_t srv_elements(int32_t rank, const int32_t *dims) {
  size_t c = 1;
  for (int32_t i = 0; i < rank; i++) c *= (size_t)(dims[i] < 0 ? 0 : dims[i]);
  return c;
}

static void shape_str(int32_t rank, const int32_t *dims, char *out, size_t n) {
  size_t k = (size_t)snprintf(out, n, "[");
  for (int32_t i = 0; i < rank && k < n; i++) k += (size_t)snprintf(out + k, n - k, "%s%d", i ? "," : "", (int)dims[i]);
  if (k < n) snprintf(out + k, n - k, "]");
}

int srv_shape_check(const srv_io *io, int32_t rank, const int32_t *dims, char *err, size_t n) {
  int ok = rank == io->rank;
  for (int32_t d = 0; ok && d < rank; d++) {
    if (dims[d] < 0) ok = 0;
    else if (io->sig[d] != -1 && dims[d] != io->dims[d]) ok = 0;
  }
  if (ok) return 0;
  char got[128], want[128];
  shape_str(rank, dims, got, sizeof got);
  shape_str(io->rank, io->sig, want, sizeof want);
  snprintf(err, n, "input '%s': shape %s does not match the model's %s", io->name, got, want);
  return -1;
}

/* float <-> IEEE half / bfloat16 (round to nearest even). */
static uint16_t f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return (uint16_t)(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return (uint16_t)sign;
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - exp);
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
  return (uint16_t)(sign | h);
}

static float f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu, x;
  if (exp == 0) {
    if (!mant) x = sign;
    else {
      float f = ldexpf((float)mant, -24);
      return sign ? -f : f;
    }
  } else if (exp == 31) x = sign | 0x7f800000u | (mant << 13);
  else x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static uint16_t f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fffu + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

static float bf16_to_f32(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

typedef struct fill_ctx {
  tfcc_dtype dtype;
  char *dst;
  size_t count, at, esize;
  const char *what;
  char *err;
  size_t n;
} fill_ctx;

/* Stores one number: is_bool (true/false, iv 0/1), is_int (a JSON integer iv) or a real x. */
static int put_number(fill_ctx *c, int is_bool, int is_int, json_int_t iv, double x) {
  if (c->at >= c->count) {
    snprintf(c->err, c->n, "%s: more than %zu elements", c->what, c->count);
    return -1;
  }
  char *d = c->dst + c->at * c->esize;
  if (is_bool) {
    x = (double)iv;
    is_int = 1;
  }
  if (c->dtype == TFCC_BOOL && !is_bool && !(is_int && (iv == 0 || iv == 1))) {
    snprintf(c->err, c->n, "%s: element %zu: BOOL wants true/false", c->what, c->at);
    return -1;
  }
  switch (c->dtype) {
    case TFCC_FLOAT32: { float f = (float)x; memcpy(d, &f, 4); break; }
    case TFCC_FLOAT64: memcpy(d, &x, 8); break;
    case TFCC_FLOAT16: { uint16_t h = f32_to_f16((float)x); memcpy(d, &h, 2); break; }
    case TFCC_BFLOAT16: { uint16_t h = f32_to_bf16((float)x); memcpy(d, &h, 2); break; }
    default: {
      if (!is_int) {
        snprintf(c->err, c->n, "%s: element %zu: %g is not an integer (datatype %s)", c->what, c->at, x,
                 srv_v2_dtype(c->dtype));
        return -1;
      }
      long long lo = 0;
      unsigned long long hi = 0;
      switch (c->dtype) {
        case TFCC_BOOL: lo = 0; hi = 1; break;
        case TFCC_UINT8: lo = 0; hi = 255; break;
        case TFCC_INT8: lo = -128; hi = 127; break;
        case TFCC_UINT16: lo = 0; hi = 65535; break;
        case TFCC_INT16: lo = -32768; hi = 32767; break;
        case TFCC_UINT32: lo = 0; hi = 4294967295ull; break;
        case TFCC_INT32: lo = INT32_MIN; hi = INT32_MAX; break;
        case TFCC_UINT64: lo = 0; hi = (unsigned long long)INT64_MAX; break;
        case TFCC_INT4: lo = -8; hi = 7; break;
        case TFCC_INT2: lo = -2; hi = 1; break;
        case TFCC_UINT4: lo = 0; hi = 15; break;
        case TFCC_FLOAT8_E4M3FN:
        case TFCC_FLOAT8_E5M2: lo = 0; hi = 255; break;
        default: lo = INT64_MIN; hi = (unsigned long long)INT64_MAX; break;
      }
      if ((long long)iv < lo || (iv > 0 && (unsigned long long)iv > hi)) {
        char rn[64];
        range_name(c->dtype, rn, sizeof rn);
        snprintf(c->err, c->n, "%s: element %zu: %lld is out of range for %s", c->what, c->at,
                 (long long)iv, rn);
        return -1;
      }
      switch (c->esize) {
        case 1: { uint8_t b = (uint8_t)iv; memcpy(d, &b, 1); break; }
        case 2: { uint16_t b = (uint16_t)iv; memcpy(d, &b, 2); break; }
        case 4: { uint32_t b = (uint32_t)iv; memcpy(d, &b, 4); break; }
        default: { int64_t b = (int64_t)iv; memcpy(d, &b, 8); break; }
      }
    }
  }
  c->at++;
  return 0;
}

static int put_value(fill_ctx *c, const json_t *v) {
  if (json_is_boolean(v)) return put_number(c, 1, 1, json_is_true(v) ? 1 : 0, 0);
  if (json_is_integer(v)) return put_number(c, 0, 1, json_integer_value(v), (double)json_integer_value(v));
  if (json_is_number(v)) return put_number(c, 0, 0, 0, json_number_value(v));
  if (c->at >= c->count) {
    snprintf(c->err, c->n, "%s: more than %zu elements", c->what, c->count);
    return -1;
  }
  if (json_is_string(v) || (json_is_object(v) && json_object_get(v, "b64"))) {
    /* string data (v2 BYTES, TF Serving {"b64": ...}) is for string tensors, which no tfcc model has */
    snprintf(c->err, c->n, "%s: element %zu is not a number but a %s; the model wants %s (string data is for "
             "string tensors, which tfcc models do not have)", c->what, c->at,
             json_is_string(v) ? "string" : "{\"b64\": ...} string", srv_v2_dtype(c->dtype));
    return -1;
  }
  snprintf(c->err, c->n, "%s: element %zu is not a number", c->what, c->at);
  return -1;
}

static int fill_rec(fill_ctx *c, const json_t *v, int depth) {
  if (!json_is_array(v)) return put_value(c, v);
  if (depth > TFCC_MAX_DIMS + 1) {
    snprintf(c->err, c->n, "%s: arrays nested deeper than %d", c->what, TFCC_MAX_DIMS + 1);
    return -1;
  }
  size_t i;
  json_t *e;
  json_array_foreach(v, i, e) if (fill_rec(c, e, depth + 1)) return -1;
  return 0;
}

int srv_json_fill(const json_t *data, tfcc_dtype dtype, void *dst, size_t count, const char *what,
                  char *err, size_t n) {
  fill_ctx c = {dtype, dst, count, 0, tfcc_dtype_size(dtype), what, err, n};
  if (!srv_v2_dtype(dtype) || c.esize == 0) {
    snprintf(err, n, "%s: datatype %s is not supported in JSON", what, tfcc_dtype_name(dtype));
    return -1;
  }
  if (fill_rec(&c, data, 0)) return -1;
  if (c.at != count) {
    snprintf(err, n, "%s: %zu elements given, the shape needs %zu", what, c.at, count);
    return -1;
  }
  return 0;
}

/* One JSON number token p[0..len) (already checked against the JSON grammar). 0, or 1 when
 * jansson would refuse it (an integer beyond 64 bits, a real that overflows) or it is long. */
static int text_number(const char *p, size_t len, int is_int, json_int_t *iv, double *x) {
  char buf[72];
  if (len >= sizeof buf) return 1;
  memcpy(buf, p, len);
  buf[len] = '\0';
  errno = 0;
  if (is_int) {
    long long v = strtoll(buf, NULL, 10);
    if (errno == ERANGE) return 1;
    *iv = (json_int_t)v;
    *x = (double)v;
    return 0;
  }
  double d = strtod(buf, NULL);
  if ((d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE) return 1;
  *x = d;
  return 0;
}

static int is_ws(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }
static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

int srv_json_fill_text(const char *p, size_t len, tfcc_dtype dtype, void *dst, size_t count, const char *what,
                       char *err, size_t n) {
  fill_ctx c = {dtype, dst, count, 0, tfcc_dtype_size(dtype), what, err, n};
  if (!srv_v2_dtype(dtype) || c.esize == 0) {
    snprintf(err, n, "%s: datatype %s is not supported in JSON", what, tfcc_dtype_name(dtype));
    return -1;
  }
  const char *e = p + len;
  int depth = 0, want_value = 1;
  for (;;) {
    while (p < e && is_ws(*p)) p++;
    if (want_value) {
      if (p == e) return 1;
      if (*p == '[') {
        if (++depth > TFCC_MAX_DIMS + 2) {
          snprintf(err, n, "%s: arrays nested deeper than %d", what, TFCC_MAX_DIMS + 1);
          return -1;
        }
        p++;
        while (p < e && is_ws(*p)) p++;
        if (p < e && *p == ']') {
          depth--;
          p++;
          want_value = 0;
        }
        continue;
      }
      if (*p == '-' || is_digit(*p)) {
        const char *s0 = p;
        int is_int = 1;
        if (*p == '-') p++;
        if (p < e && *p == '0') p++;
        else if (p < e && is_digit(*p)) while (p < e && is_digit(*p)) p++;
        else return 1;
        if (p < e && *p == '.') {
          p++;
          is_int = 0;
          if (p == e || !is_digit(*p)) return 1;
          while (p < e && is_digit(*p)) p++;
        }
        if (p < e && (*p == 'e' || *p == 'E')) {
          p++;
          is_int = 0;
          if (p < e && (*p == '+' || *p == '-')) p++;
          if (p == e || !is_digit(*p)) return 1;
          while (p < e && is_digit(*p)) p++;
        }
        json_int_t iv = 0;
        double x = 0;
        if (text_number(s0, (size_t)(p - s0), is_int, &iv, &x)) return 1;
        if (put_number(&c, 0, is_int, iv, x)) return -1;
      } else if ((size_t)(e - p) >= 4 && !memcmp(p, "true", 4)) {
        p += 4;
        if (put_number(&c, 1, 1, 1, 1)) return -1;
      } else if ((size_t)(e - p) >= 5 && !memcmp(p, "false", 5)) {
        p += 5;
        if (put_number(&c, 1, 1, 0, 0)) return -1;
      } else {
        return 1; /* a string, null, an object or a syntax error: jansson names it */
      }
      want_value = 0;
      continue;
    }
    if (p == e) {
      if (depth) return 1;
      break;
    }
    if (!depth) return 1;
    if (*p == ',') want_value = 1;
    else if (*p == ']') depth--;
    else return 1;
    p++;
  }
  if (c.at != count) {
    snprintf(err, n, "%s: %zu elements given, the shape needs %zu", what, c.at, count);
    return -1;
  }
  return 0;
}

int srv_json_shape(const json_t *v, int32_t *rank, int32_t *dims, char *err, size_t n, const char *what) {
  int32_t r = 0;
  const json_t *p = v;
  while (json_is_array(p)) {
    if (r >= TFCC_MAX_DIMS) {
      snprintf(err, n, "%s: more than %d dimensions", what, TFCC_MAX_DIMS);
      return -1;
    }
    size_t len = json_array_size(p);
    if (len > INT32_MAX) return -1;
    dims[r++] = (int32_t)len;
    if (len == 0) break;
    p = json_array_get(p, 0);
  }
  *rank = r;
  return 0;
}

/* ---------------------------------------------------------------- writing */

static void write_elem(srv_buf *b, tfcc_dtype t, const char *p) {
  char s[40];
  int k = 0;
  switch (t) {
    case TFCC_FLOAT32: { float f; memcpy(&f, p, 4); k = isfinite(f) ? snprintf(s, sizeof s, "%.9g", (double)f) : snprintf(s, sizeof s, "null"); break; }
    case TFCC_FLOAT64: { double f; memcpy(&f, p, 8); k = isfinite(f) ? snprintf(s, sizeof s, "%.17g", f) : snprintf(s, sizeof s, "null"); break; }
    case TFCC_FLOAT16: { uint16_t h; memcpy(&h, p, 2); float f = f16_to_f32(h); k = isfinite(f) ? snprintf(s, sizeof s, "%.9g", (double)f) : snprintf(s, sizeof s, "null"); break; }
    case TFCC_BFLOAT16: { uint16_t h; memcpy(&h, p, 2); float f = bf16_to_f32(h); k = isfinite(f) ? snprintf(s, sizeof s, "%.9g", (double)f) : snprintf(s, sizeof s, "null"); break; }
    case TFCC_BOOL: k = snprintf(s, sizeof s, "%s", *p ? "true" : "false"); break;
    case TFCC_UINT8: k = snprintf(s, sizeof s, "%u", (unsigned)(uint8_t)*p); break;
    case TFCC_INT8: case TFCC_INT4: case TFCC_INT2: k = snprintf(s, sizeof s, "%d", (int)(int8_t)*p); break;
    case TFCC_UINT4: case TFCC_FLOAT8_E4M3FN: case TFCC_FLOAT8_E5M2: k = snprintf(s, sizeof s, "%u", (unsigned)(uint8_t)*p); break;
    case TFCC_UINT16: { uint16_t v; memcpy(&v, p, 2); k = snprintf(s, sizeof s, "%u", (unsigned)v); break; }
    case TFCC_INT16: { int16_t v; memcpy(&v, p, 2); k = snprintf(s, sizeof s, "%d", (int)v); break; }
    case TFCC_UINT32: { uint32_t v; memcpy(&v, p, 4); k = snprintf(s, sizeof s, "%u", v); break; }
    case TFCC_INT32: { int32_t v; memcpy(&v, p, 4); k = snprintf(s, sizeof s, "%d", (int)v); break; }
    case TFCC_UINT64: { uint64_t v; memcpy(&v, p, 8); k = snprintf(s, sizeof s, "%llu", (unsigned long long)v); break; }
    case TFCC_INT64: { int64_t v; memcpy(&v, p, 8); k = snprintf(s, sizeof s, "%lld", (long long)v); break; }
    default: k = snprintf(s, sizeof s, "null"); break;
  }
  srv_buf_put(b, s, (size_t)k);
}

void srv_write_flat(srv_buf *b, tfcc_dtype dtype, const void *data, size_t count) {
  size_t es = tfcc_dtype_size(dtype);
  srv_buf_reserve(b, count * 12 + 2);
  srv_buf_put(b, "[", 1);
  for (size_t i = 0; i < count; i++) {
    if (i) srv_buf_put(b, ",", 1);
    write_elem(b, dtype, (const char *)data + i * es);
  }
  srv_buf_put(b, "]", 1);
}

static const char *nested_rec(srv_buf *b, tfcc_dtype t, const char *p, size_t es, int32_t rank, const int32_t *dims) {
  if (rank == 0) {
    write_elem(b, t, p);
    return p + es;
  }
  srv_buf_put(b, "[", 1);
  for (int32_t i = 0; i < dims[0]; i++) {
    if (i) srv_buf_put(b, ",", 1);
    p = nested_rec(b, t, p, es, rank - 1, dims + 1);
  }
  srv_buf_put(b, "]", 1);
  if (dims[0] == 0) p += 0;
  return p;
}

void srv_write_nested(srv_buf *b, tfcc_dtype dtype, const void *data, int32_t rank, const int32_t *dims) {
  nested_rec(b, dtype, data, tfcc_dtype_size(dtype), rank, dims);
}
