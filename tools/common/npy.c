/* NumPy .npy reader/writer. Format reference: numpy/lib/format.py (NEP 1):
 *   "\x93NUMPY" major minor, header length (uint16 LE for v1, uint32 LE for v2/v3),
 *   then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...), }
 *   padded with spaces and ended by '\n', then the raw data. v3 only allows utf-8 in the
 *   header, which changes nothing for the ASCII keys we accept. */
#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int npy_fail(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

typedef struct npy_type {
  tfcc_dtype dtype;
  char kind; /* 'f' 'i' 'u' 'b' */
  int size;
} npy_type;

static const npy_type k_types[] = {
    {TFCC_FLOAT32, 'f', 4}, {TFCC_FLOAT16, 'f', 2}, {TFCC_FLOAT64, 'f', 8}, {TFCC_INT8, 'i', 1},
    {TFCC_UINT8, 'u', 1},   {TFCC_INT16, 'i', 2},   {TFCC_UINT16, 'u', 2},  {TFCC_INT32, 'i', 4},
    {TFCC_UINT32, 'u', 4},  {TFCC_INT64, 'i', 8},   {TFCC_UINT64, 'u', 8},  {TFCC_BOOL, 'b', 1},
};
#define NPY_TYPE_COUNT (sizeof k_types / sizeof k_types[0])

const char *npy_descr(tfcc_dtype dtype) {
  switch (dtype) {
    case TFCC_FLOAT32: return "<f4";
    case TFCC_FLOAT16: return "<f2";
    case TFCC_FLOAT64: return "<f8";
    case TFCC_INT8:
    case TFCC_INT4: /* types: int4 / int2 one value per byte, sign-extended */
    case TFCC_INT2: return "|i1";
    case TFCC_UINT8:
    case TFCC_UINT4:         /* types: one value per byte */
    case TFCC_FLOAT8_E4M3FN: /* types: float8 as its raw bytes */
    case TFCC_FLOAT8_E5M2: return "|u1";
    case TFCC_INT16: return "<i2";
    case TFCC_UINT16: return "<u2";
    case TFCC_INT32: return "<i4";
    case TFCC_UINT32: return "<u4";
    case TFCC_INT64: return "<i8";
    case TFCC_UINT64: return "<u8";
    case TFCC_BOOL: return "|b1";
    default: return NULL;
  }
}

static int host_is_little_endian(void) {
  const uint16_t probe = 1;
  unsigned char b;
  memcpy(&b, &probe, 1);
  return b == 1;
}

char *npy_shape_str(int32_t rank, const int32_t *dims, char *buf, size_t size) {
  size_t used = 0;
  if (!size) return buf;
  buf[0] = '\0';
  used += (size_t)snprintf(buf, size, "[");
  for (int32_t i = 0; i < rank && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%d", i ? "," : "", (int)dims[i]);
  if (used < size) snprintf(buf + used, size - used, "]");
  return buf;
}

/* ------------------------------------------------------------ header dict parser */

typedef struct cursor {
  const char *p;
  const char *end;
} cursor;

static void skip_ws(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

/* Reads a '...' or "..." literal (no escapes: none of the values we accept have any). */
static int read_string(cursor *c, char *out, size_t out_size) {
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return -1;
  char q = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || n + 1 >= out_size) return -1;
    out[n++] = *c->p++;
  }
  if (c->p >= c->end) return -1;
  c->p++;
  out[n] = '\0';
  return 0;
}

static int read_word(cursor *c, const char *word) {
  size_t n = strlen(word);
  skip_ws(c);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) return -1;
  c->p += n;
  return 0;
}

static int parse_descr(const char *descr, const npy_type **type, char *err, size_t n) {
  size_t len = strlen(descr);
  if (len < 3 || (descr[0] != '<' && descr[0] != '>' && descr[0] != '|' && descr[0] != '='))
    return npy_fail(err, n, "unsupported dtype '%s'", descr);
  char kind = descr[1];
  if (kind == '?') kind = 'b';
  char *endp = NULL;
  long size = strtol(descr + 2, &endp, 10);
  if (!endp || *endp != '\0') return npy_fail(err, n, "unsupported dtype '%s'", descr);
  for (size_t i = 0; i < NPY_TYPE_COUNT; i++) {
    if (k_types[i].kind != kind || k_types[i].size != size) continue;
    if (size > 1) {
      int big = descr[0] == '>' || (descr[0] == '=' && !host_is_little_endian());
      if (big)
        return npy_fail(err, n, "big-endian data ('%s') is not supported; save it as '<%c%ld'",
                        descr, kind, size);
    }
    *type = &k_types[i];
    return 0;
  }
  return npy_fail(err, n, "unsupported dtype '%s' (supported: f2 f4 f8 i1 u1 i2 u2 i4 u4 i8 u8 b1)",
                  descr);
}

static int parse_shape(cursor *c, npy_array *a, char *err, size_t n) {
  skip_ws(c);
  if (c->p >= c->end || *c->p != '(') return npy_fail(err, n, "bad header: 'shape' is not a tuple");
  c->p++;
  a->rank = 0;
  for (;;) {
    skip_ws(c);
    if (c->p < c->end && *c->p == ')') {
      c->p++;
      return 0;
    }
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
      return npy_fail(err, n, "bad header: 'shape' holds something other than integers");
    int64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      v = v * 10 + (*c->p - '0');
      if (v > INT32_MAX) return npy_fail(err, n, "dimension too large in 'shape'");
      c->p++;
    }
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 long */
    if (a->rank >= TFCC_MAX_DIMS)
      return npy_fail(err, n, "rank above %d is not supported", TFCC_MAX_DIMS);
    a->dims[a->rank++] = (int32_t)v;
    skip_ws(c);
    if (c->p < c->end && *c->p == ',') {
      c->p++;
      continue;
    }
    if (c->p < c->end && *c->p == ')') {
      c->p++;
      return 0;
    }
    return npy_fail(err, n, "bad header: malformed 'shape' tuple");
  }
}

static int parse_header(const char *text, size_t len, npy_array *a, const npy_type **type,
                        char *err, size_t n) {
  cursor c = {text, text + len};
  int have_descr = 0, have_order = 0, have_shape = 0, fortran = 0;
  char key[32], descr[32];
  skip_ws(&c);
  if (c.p >= c.end || *c.p != '{') return npy_fail(err, n, "bad header: not a dict");
  c.p++;
  for (;;) {
    skip_ws(&c);
    if (c.p < c.end && *c.p == '}') {
      c.p++;
      break;
    }
    if (read_string(&c, key, sizeof key) != 0)
      return npy_fail(err, n, "bad header: expected a key");
    skip_ws(&c);
    if (c.p >= c.end || *c.p != ':')
      return npy_fail(err, n, "bad header: expected ':' after '%s'", key);
    c.p++;
    if (strcmp(key, "descr") == 0) {
      if (read_string(&c, descr, sizeof descr) != 0)
        return npy_fail(err, n, "structured or unsupported 'descr' (only simple numeric dtypes)");
      if (parse_descr(descr, type, err, n) != 0) return -1;
      have_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (read_word(&c, "True") == 0)
        fortran = 1;
      else if (read_word(&c, "False") == 0)
        fortran = 0;
      else
        return npy_fail(err, n, "bad header: 'fortran_order' is not True/False");
      have_order = 1;
    } else if (strcmp(key, "shape") == 0) {
      if (parse_shape(&c, a, err, n) != 0) return -1;
      have_shape = 1;
    } else {
      return npy_fail(err, n, "bad header: unknown key '%s'", key);
    }
    skip_ws(&c);
    if (c.p < c.end && *c.p == ',') {
      c.p++;
      continue;
    }
    if (c.p < c.end && *c.p == '}') {
      c.p++;
      break;
    }
    return npy_fail(err, n, "bad header: expected ',' or '}'");
  }
  skip_ws(&c);
  if (c.p != c.end) return npy_fail(err, n, "bad header: trailing characters after the dict");
  if (!have_descr || !have_order || !have_shape)
    return npy_fail(err, n, "bad header: missing '%s'",
                    !have_descr   ? "descr"
                    : !have_order ? "fortran_order"
                                  : "shape");
  if (fortran) {
    int big_dims = 0;
    for (int32_t i = 0; i < a->rank; i++) big_dims += a->dims[i] > 1;
    /* Fortran and C order coincide when at most one dimension exceeds 1. */
    if (big_dims > 1)
      return npy_fail(err, n,
                      "Fortran-order data is not supported; save with numpy.ascontiguousarray");
  }
  return 0;
}

/* ------------------------------------------------------------ reader */

int npy_parse(const void *buf, size_t size, npy_array *out, char *err, size_t n) {
  const unsigned char *b = (const unsigned char *)buf;
  memset(out, 0, sizeof *out);
  if (size < 10 || memcmp(b, "\x93NUMPY", 6) != 0)
    return npy_fail(err, n, "not a .npy file (bad magic)");
  unsigned major = b[6];
  size_t hlen, start;
  if (major == 1) {
    hlen = (size_t)b[8] | (size_t)b[9] << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) return npy_fail(err, n, "truncated .npy header");
    hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    start = 12;
  } else {
    return npy_fail(err, n, "unsupported .npy format version %u.%u", major, (unsigned)b[7]);
  }
  if (hlen > size - start)
    return npy_fail(err, n, "truncated .npy header (%zu bytes announced)", hlen);
  npy_array a;
  memset(&a, 0, sizeof a);
  const npy_type *type = NULL;
  if (parse_header((const char *)b + start, hlen, &a, &type, err, n) != 0) return -1;
  a.dtype = type->dtype;
  size_t count = 1;
  for (int32_t i = 0; i < a.rank; i++) {
    if (a.dims[i] != 0 && count > SIZE_MAX / 16 / (size_t)a.dims[i])
      return npy_fail(err, n, "array too large");
    count *= (size_t)a.dims[i];
  }
  a.count = count;
  a.bytes = count * (size_t)type->size;
  size_t have = size - start - hlen;
  char shape[128];
  if (have != a.bytes)
    return npy_fail(err, n, "file holds %zu data bytes, header says %s %s (%zu bytes)", have,
                    tfcc_dtype_name(a.dtype), npy_shape_str(a.rank, a.dims, shape, sizeof shape),
                    a.bytes);
  a.data = malloc(a.bytes ? a.bytes : 1);
  if (!a.data) return npy_fail(err, n, "out of memory (%zu bytes)", a.bytes);
  if (a.bytes) memcpy(a.data, b + start + hlen, a.bytes);
  *out = a;
  return 0;
}

static void *read_whole_file(const char *path, size_t *size, char *err, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    npy_fail(err, n, "%s: %s", path, strerror(errno));
    return NULL;
  }
  void *buf = NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    npy_fail(err, n, "%s: cannot determine size (not a regular file?)", path);
  } else if (!(buf = malloc((size_t)len + 1))) {
    npy_fail(err, n, "%s: out of memory", path);
  } else if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
    npy_fail(err, n, "%s: read error", path);
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) *size = (size_t)len;
  return buf;
}

int npy_read_file(const char *path, npy_array *out, char *err, size_t n) {
  size_t size = 0;
  memset(out, 0, sizeof *out);
  void *buf = read_whole_file(path, &size, err, n);
  if (!buf) return -1;
  char inner[256];
  int rc = npy_parse(buf, size, out, inner, sizeof inner);
  free(buf);
  if (rc != 0) return npy_fail(err, n, "%s: %s", path, inner);
  return 0;
}

void npy_free(npy_array *a) {
  if (!a) return;
  free(a->data);
  memset(a, 0, sizeof *a);
}

/* ------------------------------------------------------------ writer */

size_t npy_header(tfcc_dtype dtype, int32_t rank, const int32_t *dims, char *hdr, size_t hdr_size) {
  const char *descr = npy_descr(dtype);
  if (!descr || rank < 0 || rank > TFCC_MAX_DIMS) return 0;
  char dict[512];
  size_t len = (size_t)snprintf(dict, sizeof dict,
                                "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int32_t i = 0; i < rank; i++)
    len += (size_t)snprintf(dict + len, sizeof dict - len, "%s%d", i ? ", " : "", (int)dims[i]);
  len += (size_t)snprintf(dict + len, sizeof dict - len, "%s), }", rank == 1 ? "," : "");
  /* v1 header: 10 bytes of preamble; pad the dict with spaces + '\n' to a multiple of 64. */
  size_t total = 10 + len + 1;
  total = (total + 63) / 64 * 64;
  if (total > hdr_size || total - 10 > 65535) return 0;
  size_t hlen = total - 10;
  memcpy(hdr, "\x93NUMPY\x01\x00", 8);
  hdr[8] = (char)(hlen & 0xff);
  hdr[9] = (char)(hlen >> 8);
  memcpy(hdr + 10, dict, len);
  memset(hdr + 10 + len, ' ', hlen - len - 1);
  hdr[total - 1] = '\n';
  return total;
}

int npy_write_file(const char *path, tfcc_dtype dtype, int32_t rank, const int32_t *dims,
                   const void *data, char *err, size_t n) {
  char hdr[640];
  size_t hlen = npy_header(dtype, rank, dims, hdr, sizeof hdr);
  if (!hlen)
    return npy_fail(err, n, "%s: dtype %s cannot be stored in .npy", path, tfcc_dtype_name(dtype));
  size_t count = 1;
  for (int32_t i = 0; i < rank; i++) count *= (size_t)(dims[i] > 0 ? dims[i] : 0);
  size_t bytes = count * tfcc_dtype_size(dtype);
  FILE *f = fopen(path, "wb");
  if (!f) return npy_fail(err, n, "%s: %s", path, strerror(errno));
  int ok = fwrite(hdr, 1, hlen, f) == hlen && (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
  if (fclose(f) != 0) ok = 0;
  if (!ok) return npy_fail(err, n, "%s: write error", path);
  return 0;
}
