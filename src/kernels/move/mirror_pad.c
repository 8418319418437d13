/* MIRROR_PAD block copies (contract in mirror_pad.h). */
#include "kernels/move/mirror_pad.h"

#include <string.h>

#include "kernels/ref/pad.h"

typedef struct mp {
  int32_t rank;
  const int32_t *in_dims;
  const int32_t *out_dims;
  const int64_t *before;
  int64_t offset;    /* 1 REFLECT, 0 SYMMETRIC */
  size_t unit;       /* bytes of one element of the merged innermost dimension */
  size_t in_row[16]; /* bytes of one index of dimension d: input, output */
  size_t out_row[16];
} mp;

static void fill(const mp *m, int32_t d, const uint8_t *in, uint8_t *out) {
  const int64_t n = m->in_dims[d], b = m->before[d], total = m->out_dims[d];
  const size_t orow = m->out_row[d];
  if (d == m->rank - 1) {
    const size_t u = m->unit;
    for (int64_t o = 0; o < b; o++)
      memcpy(out + (size_t)o * u, in + (size_t)tfcc_mirror_index(o, b, n, m->offset) * u, u);
    memcpy(out + (size_t)b * u, in, (size_t)n * u);
    for (int64_t o = b + n; o < total; o++)
      memcpy(out + (size_t)o * u, in + (size_t)tfcc_mirror_index(o, b, n, m->offset) * u, u);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    fill(m, d + 1, in + (size_t)i * m->in_row[d], out + (size_t)(b + i) * orow);
  for (int64_t o = 0; o < total; o++) {
    if (o == b) o = b + n; /* the middle is done */
    if (o >= total) break;
    memcpy(out + (size_t)o * orow, out + (size_t)(b + tfcc_mirror_index(o, b, n, m->offset)) * orow,
           orow);
  }
}

void tfcc_move_mirror_pad(const void *in, int32_t rank, const int32_t *in_dims,
                          const int64_t *before, const int32_t *out_dims, bool symmetric, size_t es,
                          void *out) {
  int64_t total = 1;
  for (int32_t d = 0; d < rank; d++) total *= out_dims[d];
  if (total == 0) return;
  mp m = {.in_dims = in_dims,
          .out_dims = out_dims,
          .before = before,
          .offset = symmetric ? 0 : 1,
          .unit = es};
  /* Trailing dimensions without padding: part of the unit. */
  int32_t r = rank;
  while (r > 0 && out_dims[r - 1] == in_dims[r - 1]) {
    m.unit *= (size_t)in_dims[r - 1];
    r--;
  }
  if (r == 0) {
    memcpy(out, in, m.unit);
    return;
  }
  m.rank = r;
  size_t ib = m.unit, ob = m.unit;
  for (int32_t d = r - 1; d >= 0; d--) {
    m.in_row[d] = ib;
    m.out_row[d] = ob;
    ib *= (size_t)in_dims[d];
    ob *= (size_t)out_dims[d];
  }
  fill(&m, 0, (const uint8_t *)in, (uint8_t *)out);
}
