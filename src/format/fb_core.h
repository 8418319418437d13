/* Shared core of the FlatBuffer readers (private to src/format).
 *
 * FlatBuffer layout, as the readers rely on it (all little-endian):
 *   buffer[0..4)   uoffset of the root table
 *   table at T     int32 soffset; the vtable is at T - soffset
 *   vtable at V    uint16 vtable size (bytes, header included), uint16 table inline size,
 *                  then one uint16 per field: the field's offset from T (0 = absent)
 *   offset field   uint32 at P; the target (table, vector, string) is at P + value
 *   vector at X    uint32 count, then count elements
 *   string at X    uint32 length, bytes, a NUL byte
 * uoffsets are unsigned and non-zero, so following them always moves forward in the buffer:
 * no chain of them can loop. Every read below checks its bytes lie inside [0, len). */
#ifndef TFCC_FORMAT_FB_CORE_H
#define TFCC_FORMAT_FB_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "format/fb.h"

/* Largest buffer a FlatBuffer can address (soffsets and uoffsets are 32-bit, and FlatBuffers
 * keeps them below 2^31). Bytes past it (a large model's external buffers) are reachable only
 * through explicit 64-bit offset/size fields. */
#define TFCC_FB_MAX_LEN ((size_t)0x7fffffff)

static inline uint16_t tfcc_fb_ld16(const uint8_t *p) {
  return (uint16_t)((uint16_t)p[0] | (uint16_t)p[1] << 8);
}
static inline uint32_t tfcc_fb_ld32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t tfcc_fb_ld64(const uint8_t *p) {
  return (uint64_t)tfcc_fb_ld32(p) | (uint64_t)tfcc_fb_ld32(p + 4) << 32;
}

/* true if [at, at + n) lies inside a buffer of len bytes (overflow-safe). */
static inline bool tfcc_fb_in(size_t len, size_t at, size_t n) {
  return at <= len && n <= len - at;
}

typedef enum tfcc_fb_res { TFCC_FB_ABSENT = 0, TFCC_FB_OK = 1, TFCC_FB_BAD = 2 } tfcc_fb_res;

/* Decoded table header. */
typedef struct tfcc_fb_header {
  size_t vtable;  /* vtable position */
  uint16_t vsize; /* vtable bytes */
  uint16_t tsize; /* table inline bytes */
} tfcc_fb_header;

/* Appends a formatted reason to why (if not NULL). */
#define TFCC_FB_WHY(why, n, ...) \
  do { \
    if (why) snprintf((why), (n), __VA_ARGS__); \
  } while (0)

/* Checks the table header at pos: soffset inside the buffer, vtable inside it, vtable size
 * even and >= 4, inline table inside the buffer and >= 4 bytes. */
static inline tfcc_fb_res tfcc_fb_header_at(const uint8_t *buf, size_t len, size_t pos,
                                            tfcc_fb_header *h, char *why, size_t n) {
  if (!tfcc_fb_in(len, pos, 4)) {
    TFCC_FB_WHY(why, n, "table at offset %zu past end (size %zu)", pos, len);
    return TFCC_FB_BAD;
  }
  int64_t vt = (int64_t)pos - (int64_t)(int32_t)tfcc_fb_ld32(buf + pos);
  if (vt < 0 || !tfcc_fb_in(len, (size_t)vt, 4)) {
    TFCC_FB_WHY(why, n, "table at offset %zu: vtable offset %lld outside the file (size %zu)", pos,
                (long long)vt, len);
    return TFCC_FB_BAD;
  }
  h->vtable = (size_t)vt;
  h->vsize = tfcc_fb_ld16(buf + h->vtable);
  h->tsize = tfcc_fb_ld16(buf + h->vtable + 2);
  if (h->vsize < 4 || (h->vsize & 1) || !tfcc_fb_in(len, h->vtable, h->vsize)) {
    TFCC_FB_WHY(why, n, "table at offset %zu: vtable at %zu has invalid size %u (file size %zu)",
                pos, h->vtable, (unsigned)h->vsize, len);
    return TFCC_FB_BAD;
  }
  if (h->tsize < 4 || !tfcc_fb_in(len, pos, h->tsize)) {
    TFCC_FB_WHY(why, n, "table at offset %zu: inline size %u runs past end (size %zu)", pos,
                (unsigned)h->tsize, len);
    return TFCC_FB_BAD;
  }
  return TFCC_FB_OK;
}

/* Position of field `field` (size bytes inline) of the table t. */
static inline tfcc_fb_res tfcc_fb_field_at(const tfcc_fb_table *t, int field, size_t size,
                                           size_t *at, char *why, size_t n) {
  if (!t || !t->buf) return TFCC_FB_ABSENT;
  tfcc_fb_header h;
  tfcc_fb_res r = tfcc_fb_header_at(t->buf, t->len, t->pos, &h, why, n);
  if (r != TFCC_FB_OK) return r;
  if (field < 0) return TFCC_FB_ABSENT;
  size_t slot = 4 + 2 * (size_t)field;
  if (slot + 2 > h.vsize) return TFCC_FB_ABSENT; /* field newer than the writer's schema */
  uint16_t off = tfcc_fb_ld16(t->buf + h.vtable + slot);
  if (off == 0) return TFCC_FB_ABSENT;
  if (off < 4 || (size_t)off + size > h.tsize) {
    TFCC_FB_WHY(why, n, "field %d at inline offset %u (%zu bytes) outside the table's %u bytes",
                field, (unsigned)off, size, (unsigned)h.tsize);
    return TFCC_FB_BAD;
  }
  *at = (size_t)t->pos + off;
  return TFCC_FB_OK;
}

/* Follows the uoffset stored at `at` (a field or a vector element) to its target. */
static inline tfcc_fb_res tfcc_fb_follow(const uint8_t *buf, size_t len, size_t at, size_t *target,
                                         char *why, size_t n) {
  if (!tfcc_fb_in(len, at, 4)) {
    TFCC_FB_WHY(why, n, "offset at %zu past end (size %zu)", at, len);
    return TFCC_FB_BAD;
  }
  uint32_t o = tfcc_fb_ld32(buf + at);
  if (o == 0) {
    TFCC_FB_WHY(why, n, "offset at %zu is 0 (points to itself)", at);
    return TFCC_FB_BAD;
  }
  if (o > TFCC_FB_MAX_LEN || (size_t)o >= len - at) {
    TFCC_FB_WHY(why, n, "offset %u at %zu points past end (size %zu)", o, at, len);
    return TFCC_FB_BAD;
  }
  *target = at + o;
  return TFCC_FB_OK;
}

/* Vector at pos whose count (elements of elem bytes) the caller read already (the uint32 at
 * pos, e.g. through a file descriptor): the same checks as tfcc_fb_vector_at, and the count's
 * bytes are not read. */
static inline tfcc_fb_res tfcc_fb_vector_counted(const uint8_t *buf, size_t len, size_t pos,
                                                 size_t elem, uint32_t count, tfcc_fb_vec *v,
                                                 char *why, size_t n) {
  if (!tfcc_fb_in(len, pos, 4)) {
    TFCC_FB_WHY(why, n, "vector at %zu past end (size %zu)", pos, len);
    return TFCC_FB_BAD;
  }
  size_t room = len - pos - 4;
  if (elem == 0 || (size_t)count > room / elem) {
    TFCC_FB_WHY(why, n, "vector at %zu claims %u elements of %zu bytes, only %zu bytes left", pos,
                count, elem, room);
    return TFCC_FB_BAD;
  }
  v->data = buf + pos + 4;
  v->count = count;
  return TFCC_FB_OK;
}

/* Vector (count elements of elem bytes) at pos. */
static inline tfcc_fb_res tfcc_fb_vector_at(const uint8_t *buf, size_t len, size_t pos, size_t elem,
                                            tfcc_fb_vec *v, char *why, size_t n) {
  if (!tfcc_fb_in(len, pos, 4)) {
    TFCC_FB_WHY(why, n, "vector at %zu past end (size %zu)", pos, len);
    return TFCC_FB_BAD;
  }
  return tfcc_fb_vector_counted(buf, len, pos, elem, tfcc_fb_ld32(buf + pos), v, why, n);
}

/* String at pos: length, bytes and the terminating NUL inside the buffer. */
static inline tfcc_fb_res tfcc_fb_string_at(const uint8_t *buf, size_t len, size_t pos,
                                            const char **s, uint32_t *slen, char *why, size_t n) {
  if (!tfcc_fb_in(len, pos, 4)) {
    TFCC_FB_WHY(why, n, "string at %zu past end (size %zu)", pos, len);
    return TFCC_FB_BAD;
  }
  uint32_t l = tfcc_fb_ld32(buf + pos);
  if (!tfcc_fb_in(len, pos + 4, (size_t)l + 1)) {
    TFCC_FB_WHY(why, n, "string at %zu of length %u runs past end (size %zu)", pos, l, len);
    return TFCC_FB_BAD;
  }
  if (buf[pos + 4 + l] != 0) {
    TFCC_FB_WHY(why, n, "string at %zu of length %u is not NUL-terminated", pos, l);
    return TFCC_FB_BAD;
  }
  *s = (const char *)(buf + pos + 4);
  *slen = l;
  return TFCC_FB_OK;
}

#endif
