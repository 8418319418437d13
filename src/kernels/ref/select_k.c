/* TOPK_V2 and UNIQUE (see select_k.h). */
#include "kernels/ref/select_k.h"

#include <stdbool.h>
#include <string.h>

static void put_idx(void *idx, int idx_size, int64_t at, int64_t v) {
  if (idx_size == 8)
    ((int64_t *)idx)[at] = v;
  else
    ((int32_t *)idx)[at] = (int32_t)v;
}

/* M(T) for dtype's element type T (float32, uint8, int8, int16, int32, else int64). */
#define SELECT_K_TYPES(M) \
  do { \
    switch (dtype) { \
      case TFCC_FLOAT32: M(float); break; \
      case TFCC_UINT8: M(uint8_t); break; \
      case TFCC_INT8: M(int8_t); break; \
      case TFCC_INT16: M(int16_t); break; \
      case TFCC_INT32: M(int32_t); break; \
      default: M(int64_t); break; \
    } \
  } while (0)

/* One row by insertion, O(n k): a later equal value never passes an earlier one. Kept for float
 * rows holding a NaN (no order: its placement is this loop's, as before) of small n k. */
#define TOPK_INSERT(T) \
  do { \
    int64_t have = 0; \
    for (int64_t i = 0; i < n; i++) { \
      if (have == k && !(row[i] > vr[k - 1])) continue; \
      int64_t p = have < k ? have++ : k - 1; \
      while (p > 0 && row[i] > vr[p - 1]) { \
        vr[p] = vr[p - 1]; \
        pos[p] = pos[p - 1]; \
        p--; \
      } \
      vr[p] = row[i]; \
      pos[p] = i; \
    } \
  } while (0)

/* One row in O(n log k): a heap of the k best positions so far, the worst at its root (worse:
 * smaller value, or equal value and later position), then sorted best first. The same result
 * as the insertion wherever the values are ordered (no NaN). */
#define TOPK_WORSE(a, b) (row[a] < row[b] || (!(row[b] < row[a]) && (a) > (b)))
#define TOPK_SIFT_DOWN(r0, end) \
  do { \
    for (int64_t at = (r0);;) { \
      int64_t c = 2 * at + 1; \
      if (c >= (end)) break; \
      if (c + 1 < (end) && TOPK_WORSE(pos[c + 1], pos[c])) c++; \
      if (!TOPK_WORSE(pos[c], pos[at])) break; \
      const int64_t t = pos[at]; \
      pos[at] = pos[c]; \
      pos[c] = t; \
      at = c; \
    } \
  } while (0)
#define TOPK_HEAP(T) \
  do { \
    for (int64_t i = 0; i < k; i++) { /* the first k, then made a heap */ \
      pos[i] = i; \
    } \
    for (int64_t h = k / 2; h-- > 0;) TOPK_SIFT_DOWN(h, k); \
    for (int64_t i = k; i < n; i++) \
      if (row[i] > row[pos[0]]) { /* an equal later value is worse */ \
        pos[0] = i; \
        TOPK_SIFT_DOWN(0, k); \
      } \
    for (int64_t end = k - 1; end > 0; end--) { /* the worst to the back */ \
      const int64_t t = pos[0]; \
      pos[0] = pos[end]; \
      pos[end] = t; \
      TOPK_SIFT_DOWN(0, end); \
    } \
    for (int64_t j = 0; j < k; j++) vr[j] = row[pos[j]]; \
  } while (0)

#define TOPK(T) \
  do { \
    const T *x = in; \
    T *v = values; \
    for (int64_t r = 0; r < rows; r++) { \
      const T *row = x + r * n; \
      T *vr = v + r * k; \
      bool nan = false; \
      for (int64_t i = 0; i < n && dtype == TFCC_FLOAT32; i++) nan |= row[i] != row[i]; \
      if (nan && n * k <= TOPK_INSERT_MAX) \
        TOPK_INSERT(T); \
      else \
        TOPK_HEAP(T); \
      for (int64_t j = 0; j < k; j++) put_idx(idx, idx_size, r *k + j, pos[j]); \
    } \
  } while (0)

/* n k above this with a NaN: the heap (bounded time; NaN placed as its comparisons fall) */
#define TOPK_INSERT_MAX ((int64_t)1 << 22)

void tfcc_ref_topk(tfcc_dtype dtype, const void *in, int64_t rows, int64_t n, int64_t k,
                   void *values, void *idx, int idx_size, int64_t *pos) {
  if (k <= 0) return;
  SELECT_K_TYPES(TOPK);
}

/* UNIQUE: every value's sort key (integers with the sign bit flipped, floats by their bits
 * made monotonic, -0 as 0, NaN past every number), sorted with its position by an LSD radix
 * sort (stable: within a run of equal keys the first entry is the first occurrence); O(n) for
 * a fixed dtype, passes over bytes where all keys agree skipped. */
typedef struct {
  uint64_t key;
  int64_t pos;
} uniq_entry;

#define NAN_KEY ((uint64_t)1 << 32) /* above every float's 32-bit key */

static uint64_t float_key(float v) {
  if (v != v) return NAN_KEY;
  if (v == 0) v = 0; /* -0 is 0 */
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  return b >> 31 ? (uint64_t)~b : (uint64_t)(b | 0x80000000u);
}

#define UNIQ_KEYS(T) \
  do { \
    const T *x = in; \
    for (int64_t i = 0; i < n; i++) { \
      e[i].key = dtype == TFCC_FLOAT32 ? float_key((float)x[i]) \
                                       : ((uint64_t)(int64_t)x[i] ^ sign) & mask; \
      e[i].pos = i; \
    } \
  } while (0)

size_t tfcc_ref_unique_scratch_bytes(tfcc_dtype dtype, int64_t n) {
  if (tfcc_dtype_size(dtype) <= 2) return sizeof(int32_t) << 16; /* id per possible value */
  return 2 * sizeof(uniq_entry) * (size_t)(n > 0 ? n : 1);
}

/* 8- and 16-bit values: a table of each possible value's id (-1: not seen yet) in one pass. */
#define UNIQ_SMALL(T) \
  do { \
    const T *x = in; \
    T *u = uniq; \
    for (int64_t i = 0; i < n; i++) { \
      int32_t *id = &ids[(uint16_t)x[i]]; \
      if (*id < 0) { \
        u[count] = x[i]; \
        *id = (int32_t)count++; \
      } \
      put_idx(idx, idx_size, i, *id); \
    } \
  } while (0)

/* M(T) for the 8- and 16-bit dtypes */
#define SMALL_TYPES(M) \
  do { \
    if (dtype == TFCC_UINT8) \
      M(uint8_t); \
    else if (dtype == TFCC_INT8) \
      M(int8_t); \
    else \
      M(int16_t); \
  } while (0)

static int64_t uniq_small(tfcc_dtype dtype, const void *in, int64_t n, void *uniq, void *idx,
                          int idx_size, void *scratch) {
  int32_t *ids = scratch;
  memset(ids, 0xff, sizeof(int32_t) << 16);
  int64_t count = 0;
  SMALL_TYPES(UNIQ_SMALL);
  return count;
}

/* Sorts the entries; returns the sorted array (scratch's first or second half). */
static uniq_entry *uniq_sort(tfcc_dtype dtype, const void *in, int64_t n, void *scratch) {
  uniq_entry *e = scratch, *t = e + n;
  /* integer keys as wide as the type (int8: one byte, one pass), the sign bit flipped */
  const int bytes = (int)tfcc_dtype_size(dtype), digits = dtype == TFCC_FLOAT32 ? 5 : bytes;
  const uint64_t mask = bytes == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * bytes)) - 1;
  const uint64_t sign = dtype == TFCC_UINT8 ? 0 : (uint64_t)1 << (8 * bytes - 1);
  SELECT_K_TYPES(UNIQ_KEYS);
  uint32_t hist[8][256];
  memset(hist, 0, sizeof hist);
  for (int64_t i = 0; i < n; i++)
    for (int d = 0; d < digits; d++) hist[d][e[i].key >> (8 * d) & 255]++;
  for (int d = 0; d < digits; d++) {
    uint32_t *h = hist[d];
    if (n == 0 || h[e[0].key >> (8 * d) & 255] == (uint32_t)n) continue; /* one byte value */
    uint32_t sum = 0;
    for (int b = 0; b < 256; b++) {
      const uint32_t c = h[b];
      h[b] = sum;
      sum += c;
    }
    for (int64_t i = 0; i < n; i++) { /* fields, not the struct: no memcpy call under ASan */
      uniq_entry *to = &t[h[e[i].key >> (8 * d) & 255]++];
      to->key = e[i].key;
      to->pos = e[i].pos;
    }
    uniq_entry *sw = e;
    e = t;
    t = sw;
  }
  return e;
}

/* Runs of equal keys (each NaN a run of its own: NaN != NaN) are the distinct values; with
 * idx, idx[p] = the first position of in[p]'s value. */
static int64_t uniq_runs(const uniq_entry *e, int64_t n, bool is_float, void *idx, int idx_size) {
  int64_t count = 0;
  for (int64_t s = 0, r; s < n; s = r) {
    for (r = s + 1; r < n && e[r].key == e[s].key && !(is_float && e[s].key == NAN_KEY); r++) {}
    count++;
    if (idx)
      for (int64_t k = s; k < r; k++) put_idx(idx, idx_size, e[k].pos, e[s].pos);
  }
  return count;
}

static int64_t get_idx(const void *idx, int idx_size, int64_t at) {
  return idx_size == 8 ? ((const int64_t *)idx)[at] : ((const int32_t *)idx)[at];
}

/* 8- and 16-bit values counted with a bitmap of those seen (8 KiB on the stack) */
#define UNIQ_SEEN(T) \
  do { \
    const T *x = in; \
    for (int64_t i = 0; i < n; i++) { \
      const uint16_t v = (uint16_t)x[i]; \
      count += !(seen[v >> 6] >> (v & 63) & 1); \
      seen[v >> 6] |= (uint64_t)1 << (v & 63); \
    } \
  } while (0)

int64_t tfcc_ref_unique_count(tfcc_dtype dtype, const void *in, int64_t n, void *scratch) {
  if (tfcc_dtype_size(dtype) <= 2) {
    uint64_t seen[1024] = {0};
    int64_t count = 0;
    SMALL_TYPES(UNIQ_SEEN);
    return count;
  }
  return uniq_runs(uniq_sort(dtype, in, n, scratch), n, dtype == TFCC_FLOAT32, NULL, 4);
}

/* First occurrences in position order get the ids 0, 1, ...; every other position takes the
 * id its first occurrence (an earlier position) already holds. */
#define UNIQ_IDS(T) \
  do { \
    const T *x = in; \
    T *u = uniq; \
    for (int64_t i = 0; i < n; i++) { \
      const int64_t f = get_idx(idx, idx_size, i); \
      if (f == i) { \
        u[count] = x[i]; \
        put_idx(idx, idx_size, i, count++); \
      } else { \
        put_idx(idx, idx_size, i, get_idx(idx, idx_size, f)); \
      } \
    } \
  } while (0)

int64_t tfcc_ref_unique(tfcc_dtype dtype, const void *in, int64_t n, void *uniq, void *idx,
                        int idx_size, void *scratch) {
  if (tfcc_dtype_size(dtype) <= 2) return uniq_small(dtype, in, n, uniq, idx, idx_size, scratch);
  uniq_runs(uniq_sort(dtype, in, n, scratch), n, dtype == TFCC_FLOAT32, idx, idx_size);
  int64_t count = 0;
  SELECT_K_TYPES(UNIQ_IDS);
  return count;
}
