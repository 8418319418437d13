/* FlexBuffer reader; the layout it relies on is in flexbuf.h. */
#include "format/flexbuf.h"

#include <string.h>

static bool in_buf(size_t len, size_t at, size_t n) { return at <= len && n <= len - at; }

static bool valid_width(size_t w) { return w == 1 || w == 2 || w == 4 || w == 8; }

static uint64_t ld_uint(const uint8_t *p, size_t w) {
  uint64_t v = 0;
  for (size_t i = 0; i < w; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static int64_t ld_int(const uint8_t *p, size_t w) {
  uint64_t u = ld_uint(p, w);
  if (w < 8 && (u >> (8 * w - 1)) & 1) u |= ~(uint64_t)0 << (8 * w); /* sign-extend */
  int64_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}

const char *tfcc_flex_type_name(uint8_t type) {
  switch (type) {
    case TFCC_FLEX_NULL: return "null";
    case TFCC_FLEX_INT: return "int";
    case TFCC_FLEX_UINT: return "uint";
    case TFCC_FLEX_FLOAT: return "float";
    case TFCC_FLEX_KEY: return "key";
    case TFCC_FLEX_STRING: return "string";
    case TFCC_FLEX_INDIRECT_INT: return "indirect int";
    case TFCC_FLEX_INDIRECT_UINT: return "indirect uint";
    case TFCC_FLEX_INDIRECT_FLOAT: return "indirect float";
    case TFCC_FLEX_MAP: return "map";
    case TFCC_FLEX_VECTOR: return "vector";
    case TFCC_FLEX_BOOL: return "bool";
    default: return (type >= 11 && type <= 25) || type == 36 ? "typed vector" : "unknown";
  }
}

static void set_packed(tfcc_flex_ref *r, uint8_t packed) {
  r->type = (uint8_t)(packed >> 2);
  r->data_width = (uint8_t)(1u << (packed & 3u));
}

tfcc_status tfcc_flex_root(const uint8_t *buf, size_t len, tfcc_flex_ref *root, tfcc_err *err) {
  memset(root, 0, sizeof *root);
  if (!buf || len < 3)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "flexbuffer of %zu bytes is too short "
                        "(at least 3: value, type, width)",
                        buf ? len : 0);
  const size_t w = buf[len - 1];
  if (!valid_width(w) || len < 2 + w)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "flexbuffer root width %zu invalid for %zu "
                        "bytes",
                        w, len);
  root->buf = buf;
  root->len = len;
  root->slot = len - 2 - w;
  root->slot_width = (uint8_t)w;
  set_packed(root, buf[len - 2]);
  return TFCC_OK;
}

/* Position of the data an offset-typed value points to. */
static tfcc_status target_of(const tfcc_flex_ref *r, size_t *at, tfcc_err *err) {
  const uint64_t off = ld_uint(r->buf + r->slot, r->slot_width);
  if (off > r->slot)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "flexbuffer: offset %llu at byte %zu points "
                        "before the buffer",
                        (unsigned long long)off, r->slot);
  *at = r->slot - (size_t)off;
  return TFCC_OK;
}

tfcc_status tfcc_flex_map_get(const tfcc_flex_ref *map, const char *key, tfcc_flex_ref *value,
                              bool *found, tfcc_err *err) {
  *found = false;
  if (map->type != TFCC_FLEX_MAP)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "flexbuffer: expected a map, found %s",
                        tfcc_flex_type_name(map->type));
  const uint8_t *b = map->buf;
  const size_t len = map->len, w = map->data_width;
  size_t x = 0;
  tfcc_status st = target_of(map, &x, err);
  if (st) return st;
  if (x < 3 * w)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "flexbuffer: map at byte %zu has no room "
                        "for its header",
                        x);
  const uint64_t n = ld_uint(b + x - w, w);
  const uint64_t kw = ld_uint(b + x - 2 * w, w);
  const size_t kpos = x - 3 * w;
  const uint64_t koff = ld_uint(b + kpos, w);
  if (n > len || !in_buf(len, x, (size_t)n * w + (size_t)n))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "flexbuffer: map of %llu entries at byte %zu "
                        "runs past the end (%zu bytes)",
                        (unsigned long long)n, x, len);
  if (!valid_width((size_t)kw) || koff > kpos)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "flexbuffer: map at byte %zu: keys vector "
                        "width %llu / offset %llu invalid",
                        x, (unsigned long long)kw, (unsigned long long)koff);
  const size_t kx = kpos - (size_t)koff;
  if (kx < kw || !in_buf(len, kx, (size_t)n * (size_t)kw) || ld_uint(b + kx - kw, (size_t)kw) != n)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "flexbuffer: map at byte %zu: keys vector "
                        "does not hold %llu keys inside the buffer",
                        x, (unsigned long long)n);
  const size_t klen = strlen(key);
  for (size_t i = 0; i < (size_t)n; i++) {
    const size_t kslot = kx + i * (size_t)kw;
    const uint64_t off = ld_uint(b + kslot, (size_t)kw);
    if (off > kslot)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "flexbuffer: map key %zu points before "
                          "the buffer",
                          i);
    const size_t ks = kslot - (size_t)off;
    /* the key must be NUL-terminated inside the buffer */
    const uint8_t *nul = memchr(b + ks, 0, len - ks);
    if (!nul)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "flexbuffer: map key %zu at byte %zu is "
                          "not NUL-terminated",
                          i, ks);
    if ((size_t)(nul - (b + ks)) != klen || memcmp(b + ks, key, klen) != 0) continue;
    value->buf = b;
    value->len = len;
    value->slot = x + i * w;
    value->slot_width = (uint8_t)w;
    set_packed(value, b[x + (size_t)n * w + i]);
    *found = true;
    return TFCC_OK;
  }
  return TFCC_OK;
}

/* A number as stored: is_float tells which of d / i holds it. */
typedef struct flex_num {
  bool is_float;
  double d;
  int64_t i;
} flex_num;

/* Reads a scalar into *n (zeroed first). */
static tfcc_status scalar(const tfcc_flex_ref *r, const char *what, flex_num *n, tfcc_err *err) {
  *n = (flex_num){0};
  size_t at = r->slot, w = r->slot_width;
  uint8_t t = r->type;
  if (t == TFCC_FLEX_INDIRECT_INT || t == TFCC_FLEX_INDIRECT_UINT ||
      t == TFCC_FLEX_INDIRECT_FLOAT) {
    tfcc_status st = target_of(r, &at, err);
    if (st) return st;
    w = r->data_width;
    if (!in_buf(r->len, at, w))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "%s: indirect value at byte %zu past the "
                          "end",
                          what, at);
    t = (uint8_t)(t - TFCC_FLEX_INDIRECT_INT + TFCC_FLEX_INT);
  }
  n->is_float = false;
  switch (t) {
    case TFCC_FLEX_INT: n->i = ld_int(r->buf + at, w); return TFCC_OK;
    case TFCC_FLEX_UINT: {
      const uint64_t u = ld_uint(r->buf + at, w);
      if (u > (uint64_t)INT64_MAX)
        return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s: %llu out of range", what,
                            (unsigned long long)u);
      n->i = (int64_t)u;
      return TFCC_OK;
    }
    case TFCC_FLEX_BOOL: n->i = ld_uint(r->buf + at, w) != 0; return TFCC_OK;
    case TFCC_FLEX_FLOAT:
      n->is_float = true;
      if (w == 4) {
        const uint32_t u = (uint32_t)ld_uint(r->buf + at, 4);
        float f;
        memcpy(&f, &u, 4);
        n->d = f;
      } else if (w == 8) {
        const uint64_t u = ld_uint(r->buf + at, 8);
        memcpy(&n->d, &u, 8);
      } else {
        return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s: float of %zu bytes (4 or 8)", what,
                            w);
      }
      return TFCC_OK;
    default:
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s is a %s, expected a number", what,
                          tfcc_flex_type_name(r->type));
  }
}

tfcc_status tfcc_flex_as_double(const tfcc_flex_ref *r, const char *what, double *v,
                                tfcc_err *err) {
  flex_num n;
  tfcc_status st = scalar(r, what, &n, err);
  if (st) return st;
  *v = n.is_float ? n.d : (double)n.i;
  return TFCC_OK;
}

tfcc_status tfcc_flex_as_int64(const tfcc_flex_ref *r, const char *what, int64_t *v,
                               tfcc_err *err) {
  flex_num n;
  tfcc_status st = scalar(r, what, &n, err);
  if (st) return st;
  if (n.is_float) {
    if (!(n.d > -9.2e18 && n.d < 9.2e18))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s: %g is not an integer in range", what,
                          n.d);
    n.i = (int64_t)n.d;
  }
  *v = n.i;
  return TFCC_OK;
}

tfcc_status tfcc_flex_as_string(const tfcc_flex_ref *r, const char *what, const char **s, size_t *n,
                                tfcc_err *err) {
  if (r->type != TFCC_FLEX_STRING && r->type != TFCC_FLEX_KEY)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s is a %s, expected a string", what,
                        tfcc_flex_type_name(r->type));
  size_t at = 0;
  tfcc_status st = target_of(r, &at, err);
  if (st) return st;
  const uint8_t *b = r->buf;
  size_t len = 0;
  if (r->type == TFCC_FLEX_STRING) {
    /* the byte count precedes the bytes, in the value's own width */
    const size_t w = r->data_width;
    if (at < w)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s: string size before the buffer", what);
    const uint64_t sz = ld_uint(b + at - w, w);
    if (!in_buf(r->len, at, (size_t)sz + 1) || sz >= r->len || b[at + (size_t)sz] != 0)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "%s: string of %llu bytes at byte %zu runs past the end or has no NUL",
                          what, (unsigned long long)sz, at);
    len = (size_t)sz;
  } else {
    const uint8_t *nul = at < r->len ? memchr(b + at, 0, r->len - at) : NULL;
    if (!nul) return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s: key has no NUL", what);
    len = (size_t)(nul - (b + at));
  }
  *s = (const char *)(b + at);
  *n = len;
  return TFCC_OK;
}
