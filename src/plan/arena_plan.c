#include "plan/arena_plan.h"

#include <stdlib.h>

static size_t round_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

typedef struct {
  int32_t idx;
  size_t size;
} order_item;

static int by_size_desc(const void *a, const void *b) {
  const order_item *x = a, *y = b;
  if (x->size != y->size) return x->size < y->size ? 1 : -1;
  return x->idx - y->idx; /* stable: earlier buffers first */
}

static int by_offset(const void *a, const void *b) {
  const tfcc_plan_buffer *const *x = a, *const *y = b;
  if ((*x)->offset != (*y)->offset) return (*x)->offset < (*y)->offset ? -1 : 1;
  return 0;
}

tfcc_status tfcc_arena_plan(tfcc_plan_buffer *bufs, int32_t n, size_t align, size_t *arena,
                            tfcc_err *err) {
  *arena = 0;
  if (n <= 0) return TFCC_OK;
  order_item *order = malloc(sizeof *order * (size_t)n);
  tfcc_plan_buffer **placed = malloc(sizeof *placed * (size_t)n);
  tfcc_plan_buffer **live = malloc(sizeof *live * (size_t)n);
  if (!order || !placed || !live) {
    free(order); free(placed); free(live);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "arena plan: out of memory for %d buffers", (int)n);
  }
  int32_t m = 0;
  for (int32_t i = 0; i < n; i++) {
    bufs[i].offset = 0;
    if (bufs[i].size) order[m++] = (order_item){i, round_up(bufs[i].size, align)};
  }
  qsort(order, (size_t)m, sizeof *order, by_size_desc);
  int32_t n_placed = 0;
  size_t total = 0;
  for (int32_t k = 0; k < m; k++) {
    tfcc_plan_buffer *b = &bufs[order[k].idx];
    size_t need = order[k].size;
    /* Buffers already placed whose lifetimes overlap b's, by offset. */
    int32_t n_live = 0;
    for (int32_t j = 0; j < n_placed; j++)
      if (placed[j]->first <= b->last && b->first <= placed[j]->last) live[n_live++] = placed[j];
    qsort(live, (size_t)n_live, sizeof *live, by_offset);
    /* Best fit: the smallest gap that holds `need`; else after the last one. */
    size_t best = SIZE_MAX, best_gap = SIZE_MAX, cursor = 0;
    for (int32_t j = 0; j < n_live; j++) {
      size_t start = live[j]->offset;
      if (start > cursor) {
        size_t gap = start - cursor;
        if (gap >= need && gap < best_gap) { best = cursor; best_gap = gap; }
      }
      size_t end = live[j]->offset + round_up(live[j]->size, align);
      if (end > cursor) cursor = end;
    }
    if (best == SIZE_MAX) best = cursor;
    b->offset = best;
    if (best + need > total) total = best + need;
    placed[n_placed++] = b;
  }
  free(order); free(placed); free(live);
  *arena = total;
  return TFCC_OK;
}

size_t tfcc_arena_lower_bound(const tfcc_plan_buffer *bufs, int32_t n, size_t align) {
  int32_t last_node = -1;
  for (int32_t i = 0; i < n; i++)
    if (bufs[i].size && bufs[i].last > last_node) last_node = bufs[i].last;
  size_t best = 0;
  for (int32_t t = 0; t <= last_node; t++) {
    size_t sum = 0;
    for (int32_t i = 0; i < n; i++)
      if (bufs[i].size && bufs[i].first <= t && t <= bufs[i].last) sum += round_up(bufs[i].size, align);
    if (sum > best) best = sum;
  }
  return best;
}
