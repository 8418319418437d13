/* Sparse (SparsityParameters) to dense tensor expansion; the contract is in densify.h. */
#include "kernels/ref/densify.h"

#include <stdbool.h>
#include <string.h>

#define DENSIFY_MAX_LEVELS 16

typedef struct densify_state {
  const tfcc_sparsity *sp;
  int32_t rank, levels;
  const int32_t *dims;
  int32_t block_size[DENSIFY_MAX_LEVELS];
  int32_t idx[DENSIFY_MAX_LEVELS];
  const uint8_t *src;
  int64_t n_values, next;
  size_t es;
  uint8_t *dst;
  tfcc_err *err;
} densify_state;

static tfcc_status place(densify_state *s) {
  int64_t orig[TFCC_MAX_DIMS];
  int32_t i = 0;
  for (; i < s->rank; i++) orig[s->sp->traversal_order[i]] = s->idx[i];
  for (; i < s->levels; i++) {
    const int32_t b = s->sp->traversal_order[i] - s->rank;
    const int32_t d = s->sp->block_map[b];
    orig[d] = orig[d] * s->block_size[b] + s->idx[i];
  }
  int64_t flat = 0;
  for (int32_t d = 0; d < s->rank; d++) {
    if (orig[d] < 0 || orig[d] >= s->dims[d])
      return tfcc_err_set(s->err, TFCC_ERR_INVALID_MODEL,
                          "sparse tensor: index %lld out of range for dimension %d of size %d",
                          (long long)orig[d], (int)d, (int)s->dims[d]);
    flat = flat * s->dims[d] + orig[d];
  }
  if (s->next >= s->n_values)
    return tfcc_err_set(s->err, TFCC_ERR_INVALID_MODEL,
                        "sparse tensor: metadata addresses more than its %lld values",
                        (long long)s->n_values);
  memcpy(s->dst + (size_t)flat * s->es, s->src + (size_t)s->next * s->es, s->es);
  s->next++;
  return TFCC_OK;
}

static tfcc_status populate(densify_state *s, int32_t level, int64_t prev) {
  if (level == s->levels) return place(s);
  const tfcc_dim_meta *m = &s->sp->dim_meta[level];
  tfcc_status st;
  if (m->format == 0) {
    for (int32_t i = 0; i < m->dense_size; i++) {
      s->idx[level] = i;
      if ((st = populate(s, level + 1, prev * m->dense_size + i))) return st;
    }
    return TFCC_OK;
  }
  /* CSR level: children of prev are indices[segments[prev] .. segments[prev + 1]). */
  if (prev < 0 || (uint64_t)prev + 1 >= m->segments.count) return TFCC_OK;
  int64_t a = tfcc_sparse_index_get(&m->segments, (uint32_t)prev);
  int64_t b = tfcc_sparse_index_get(&m->segments, (uint32_t)prev + 1);
  if (a < 0 || b < a || (uint64_t)b > m->indices.count)
    return tfcc_err_set(s->err, TFCC_ERR_INVALID_MODEL,
                        "sparse tensor: level %d segment [%lld, %lld) outside its %u indices",
                        (int)level, (long long)a, (long long)b, (unsigned)m->indices.count);
  for (int64_t i = a; i < b; i++) {
    s->idx[level] = tfcc_sparse_index_get(&m->indices, (uint32_t)i);
    if ((st = populate(s, level + 1, i))) return st;
  }
  return TFCC_OK;
}

static size_t index_elem(tfcc_sparse_index_type t) {
  return t == TFCC_SPARSE_IDX_I32   ? 4
         : t == TFCC_SPARSE_IDX_U16 ? 2
         : t == TFCC_SPARSE_IDX_U8  ? 1
                                    : 0;
}

tfcc_status tfcc_ref_densify(const tfcc_sparsity *sp, int32_t rank, const int32_t *dims,
                             const void *src, int64_t n_values, size_t es, void *dst,
                             tfcc_err *err) {
  densify_state s;
  memset(&s, 0, sizeof(s));
  const int32_t levels = sp->n_traversal;
  const int32_t blocks = sp->n_block_map;
  if (rank < 0 || rank > TFCC_MAX_DIMS || levels != rank + blocks || levels > DENSIFY_MAX_LEVELS ||
      sp->n_dim_meta != levels)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "sparse tensor: %d traversal levels, %d block dims, %d dim metadata for "
                        "rank %d",
                        (int)levels, (int)blocks, (int)sp->n_dim_meta, (int)rank);
  int64_t total = 1;
  for (int32_t d = 0; d < rank; d++) total *= dims[d];
  memset(dst, 0, (size_t)total * es);
  /* Traversal order: a permutation whose first `rank` entries are original dimensions. */
  bool seen[DENSIFY_MAX_LEVELS] = {false};
  for (int32_t i = 0; i < levels; i++) {
    int32_t t = sp->traversal_order[i];
    if (t < 0 || t >= levels || seen[t] || (i < rank) != (t < rank))
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "sparse tensor: traversal_order[%d] = %d is invalid", (int)i, (int)t);
    seen[t] = true;
  }
  int32_t blocked[TFCC_MAX_DIMS];
  for (int32_t d = 0; d < rank; d++) blocked[d] = dims[d];
  for (int32_t b = 0; b < blocks; b++) {
    int32_t d = sp->block_map[b];
    int32_t bs = sp->dim_meta[rank + b].dense_size;
    if (d < 0 || d >= rank || bs <= 0 || blocked[d] % bs != 0)
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                          "sparse tensor: block %d (dimension %d, size %d) does not divide it",
                          (int)b, (int)d, (int)bs);
    s.block_size[b] = bs;
    blocked[d] /= bs;
  }
  for (int32_t i = 0; i < levels; i++) {
    const tfcc_dim_meta *m = &sp->dim_meta[i];
    const int32_t t = sp->traversal_order[i];
    const int32_t expect = t < rank ? blocked[t] : s.block_size[t - rank];
    if (m->format == 0) {
      if (m->dense_size != expect)
        return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                            "sparse tensor: level %d dense_size %d, expected %d", (int)i,
                            (int)m->dense_size, (int)expect);
    } else if (m->format == 1) {
      if (index_elem(m->segments.type) == 0 || index_elem(m->indices.type) == 0 ||
          (m->segments.count && !m->segments.data) || (m->indices.count && !m->indices.data))
        return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                            "sparse tensor: level %d has no segments/indices", (int)i);
    } else {
      return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "sparse tensor: level %d format %d", (int)i,
                          (int)m->format);
    }
  }
  s.sp = sp;
  s.rank = rank;
  s.levels = levels;
  s.dims = dims;
  s.src = (const uint8_t *)src;
  s.n_values = n_values;
  s.es = es;
  s.dst = (uint8_t *)dst;
  s.err = err;
  return populate(&s, 0, 0);
}
