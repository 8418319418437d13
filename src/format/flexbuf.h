/* A bounds-checked reader of FlexBuffers (the schema-less format of custom operator options,
 * e.g. TFLite_Detection_PostProcess's map of max_detections, nms_iou_threshold, ...).
 *
 * Layout, as this reader relies on it (little-endian):
 *   root        the buffer's last byte is the root's byte width W, the byte before it the
 *               root's packed type; the root value is the W bytes before that
 *   packed type (type << 2) | log2(bit width of the pointed-to data)
 *   scalars     NULL, INT, UINT, FLOAT, BOOL: stored inline, at the width of their parent
 *               (the root's W, or the width of the vector / map that holds them)
 *   offsets     every other type is stored as an unsigned distance back from the slot to the
 *               data (INDIRECT_* scalars, KEY, STRING, MAP, VECTOR, typed vectors)
 *   vector      at X: element count (width w) at X - w, elements at X, X + w, ...; an untyped
 *               vector (and a map) has one packed type byte per element after the elements
 *   map         a vector of values whose header also holds, before the count, the byte width
 *               of the keys vector and the distance back to it; keys are NUL-terminated KEYs
 * Every read checks its bytes lie inside the buffer; offsets only move backwards, so lookups
 * terminate. */
#ifndef TFCC_FORMAT_FLEXBUF_H
#define TFCC_FORMAT_FLEXBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* FlexBuffer value types (flexbuffers.h Type). */
enum {
  TFCC_FLEX_NULL = 0,
  TFCC_FLEX_INT = 1,
  TFCC_FLEX_UINT = 2,
  TFCC_FLEX_FLOAT = 3,
  TFCC_FLEX_KEY = 4,
  TFCC_FLEX_STRING = 5,
  TFCC_FLEX_INDIRECT_INT = 6,
  TFCC_FLEX_INDIRECT_UINT = 7,
  TFCC_FLEX_INDIRECT_FLOAT = 8,
  TFCC_FLEX_MAP = 9,
  TFCC_FLEX_VECTOR = 10,
  TFCC_FLEX_BOOL = 26
};

/* One value: where its slot is, how wide the slot is, and its packed type. */
typedef struct tfcc_flex_ref {
  const uint8_t *buf;
  size_t len;
  size_t slot;        /* position of the value's slot */
  uint8_t slot_width; /* bytes of the slot (parent width) */
  uint8_t type;       /* TFCC_FLEX_* */
  uint8_t data_width; /* bytes of the pointed-to data (offset types) */
} tfcc_flex_ref;

/* The root value of buf[0, len). Errors name the fault ("custom options: 3 bytes, ..."). */
tfcc_status tfcc_flex_root(const uint8_t *buf, size_t len, tfcc_flex_ref *root, tfcc_err *err);

/* Value of key in a MAP. *found = false (and TFCC_OK) if the map has no such key. */
tfcc_status tfcc_flex_map_get(const tfcc_flex_ref *map, const char *key, tfcc_flex_ref *value,
                              bool *found, tfcc_err *err);

/* Numeric value of an INT, UINT, FLOAT, BOOL (or their INDIRECT forms): as a double, or as an
 * int64 (floats truncated toward zero, as flexbuffers' AsInt64). Other types: an error that
 * names `what` and the type. */
tfcc_status tfcc_flex_as_double(const tfcc_flex_ref *r, const char *what, double *v, tfcc_err *err);
tfcc_status tfcc_flex_as_int64(const tfcc_flex_ref *r, const char *what, int64_t *v, tfcc_err *err);

/* Bytes of a STRING (or KEY) value: *s points into the buffer, *n is its length (the terminating
 * NUL checked to be inside the buffer, not counted). Other types: an error naming `what`. */
tfcc_status tfcc_flex_as_string(const tfcc_flex_ref *r, const char *what, const char **s, size_t *n,
                                tfcc_err *err);

/* Name of a FlexBuffer type ("int", "map", ...; "type 17" style for others is not kept:
 * "unknown"). */
const char *tfcc_flex_type_name(uint8_t type);

#endif
