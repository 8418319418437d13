#include "plan/arena_plan.h"

#include <stdlib.h>

static size_t round_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

typedef struct {
  int32_t idx;
  size_t size;
  uint64_t key; /* sort key (larger first) */
} order_item;

static int by_key_desc(const void *a, const void *b) {
  const order_item *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? 1 : -1;
  if (x->size != y->size) return x->size < y->size ? 1 : -1;
  return x->idx - y->idx; /* stable: earlier buffers first */
}

/* Placement orders tried; the smallest arena wins. Greedy best-fit is a heuristic, and which
 * order packs tightest depends on the graph (chains favour size order, wide graphs favour
 * area). */
enum {
  ORDER_SIZE,
  ORDER_AREA,
  ORDER_FIRST_USE,
  ORDER_LIFETIME,
  ORDER_SIZE_THEN_FIRST,
  ORDER_LAST_FIRST_USE, /* reverse execution order: the buffers first used last placed first */
  ORDER_FIRST_END,      /* the buffers that die first placed first */
  ORDER_SCRATCH_LAST,   /* by size, the one-node buffers (operators' scratch) after the rest */
  ORDER_COUNT
};

enum { REPAIR_TRIES = 32 };

static uint64_t order_key(const tfcc_plan_buffer *b, size_t size, int order, int32_t last_node) {
  switch (order) {
    case ORDER_AREA: return (uint64_t)size * (uint64_t)(b->last - b->first + 1);
    case ORDER_FIRST_USE: return (uint64_t)(last_node - b->first);
    case ORDER_LIFETIME: return ((uint64_t)(b->last - b->first) << 40) | (size >> 8);
    case ORDER_SIZE_THEN_FIRST:
      return ((uint64_t)(size >> 12) << 20) | (uint64_t)(last_node - b->first);
    /* The two below: chains where the size order stacks a short-lived buffer above two long
       neighbours (int8 MobileNetV2 with its expand + depthwise pairs fused: 1.146 x the lower
       bound by size, 1.000 in reverse execution order; MoveNet int8 1.199 -> 1.083). */
    case ORDER_LAST_FIRST_USE: return (uint64_t)b->first;
    case ORDER_FIRST_END: return (uint64_t)(last_node - b->last);
    /* A scratch buffer lives one node and fits any gap there; by size it went first and took
       the bottom of the arena where a longer tensor of the next nodes then did not fit
       (ResNet-50 f32: a 2.0 MiB CONV_2D scratch under the 1.5 MiB tensors of its block, 1.111
       x the lower bound by every other order, 1.000 this way). */
    case ORDER_SCRATCH_LAST: return ((uint64_t)(b->first != b->last) << 63) | size;
    default: return size;
  }
}

static int by_offset(const void *a, const void *b) {
  const tfcc_plan_buffer *const *x = a, *const *y = b;
  if ((*x)->offset != (*y)->offset) return (*x)->offset < (*y)->offset ? -1 : 1;
  return 0;
}

static int32_t order_items(const tfcc_plan_buffer *bufs, int32_t n, size_t align, int ord,
                           order_item *items);
static size_t place(tfcc_plan_buffer *bufs, int32_t n, size_t align, const order_item *items,
                    int32_t m, tfcc_plan_buffer **placed, tfcc_plan_buffer **live);

tfcc_status tfcc_arena_plan(tfcc_plan_buffer *bufs, int32_t n, size_t align, size_t *arena,
                            tfcc_err *err) {
  *arena = 0;
  if (n <= 0) return TFCC_OK;
  order_item *order = malloc(sizeof *order * 2 * (size_t)n), *best_order = order + n;
  tfcc_plan_buffer **placed = malloc(sizeof *placed * (size_t)n);
  tfcc_plan_buffer **live = malloc(sizeof *live * (size_t)n);
  size_t *best_off = malloc(sizeof *best_off * (size_t)n);
  if (!order || !placed || !live || !best_off) {
    free(order);
    free(placed);
    free(live);
    free(best_off);
    return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "arena plan: out of memory for %d buffers",
                        (int)n);
  }
  /* Orders in turn until one meets the lower bound (no plan is smaller): the first smallest
     wins, its offsets kept. Most graphs meet it in the first one or three (a load planned
     every order and then the best again: YOLOv8n's 252 buffers 0.61-0.70 ms CPU, now 0.13-0.24). */
  const size_t bound = tfcc_arena_lower_bound(bufs, n, align);
  size_t best = SIZE_MAX;
  int32_t m = 0;
  for (int o = 0; o < ORDER_COUNT && best > bound; o++) {
    m = order_items(bufs, n, align, o, order);
    size_t total = place(bufs, n, align, order, m, placed, live);
    if (total < best) {
      best = total;
      for (int32_t i = 0; i < n; i++) best_off[i] = bufs[i].offset;
      for (int32_t k = 0; k < m; k++) best_order[k] = order[k];
    }
  }
  /* Still over the bound: repair the best order. The buffer that reaches the top of the arena
     (the last placed one, if several) moves halfway towards the front of the order and the
     plan is redone, REPAIR_TRIES times at most; the smallest plan wins. MoveNet int8: 1.129 x
     the lower bound by the best order (ORDER_FIRST_END), 1.000 after a few tries. */
  if (best > bound) {
    for (int32_t k = 0; k < m; k++) order[k] = best_order[k];
    for (int32_t i = 0; i < n; i++) bufs[i].offset = best_off[i];
    size_t total = best;
    for (int t = 0; t < REPAIR_TRIES && best > bound; t++) {
      int32_t top = m - 1;
      while (top > 0 && bufs[order[top].idx].offset + order[top].size != total) top--;
      if (top == 0) break; /* first already: moving it changes nothing */
      order_item moved = order[top];
      for (int32_t k = top; k > top / 2; k--) order[k] = order[k - 1];
      order[top / 2] = moved;
      total = place(bufs, n, align, order, m, placed, live);
      if (total < best) {
        best = total;
        for (int32_t i = 0; i < n; i++) best_off[i] = bufs[i].offset;
      }
    }
  }
  for (int32_t i = 0; i < n; i++) bufs[i].offset = best_off[i];
  *arena = best;
  free(order);
  free(placed);
  free(live);
  free(best_off);
  return TFCC_OK;
}

/* The buffers of nonzero size in placement order `ord`; returns their count. */
static int32_t order_items(const tfcc_plan_buffer *bufs, int32_t n, size_t align, int ord,
                           order_item *order) {
  int32_t m = 0, last_node = 0;
  for (int32_t i = 0; i < n; i++)
    if (bufs[i].last > last_node) last_node = bufs[i].last;
  for (int32_t i = 0; i < n; i++) {
    if (!bufs[i].size) continue;
    size_t sz = round_up(bufs[i].size, align);
    order[m++] = (order_item){i, sz, order_key(&bufs[i], sz, ord, last_node)};
  }
  qsort(order, (size_t)m, sizeof *order, by_key_desc);
  return m;
}

/* Greedy best fit of the m buffers in `order`; returns the arena size. */
static size_t place(tfcc_plan_buffer *bufs, int32_t n, size_t align, const order_item *order,
                    int32_t m, tfcc_plan_buffer **placed, tfcc_plan_buffer **live) {
  for (int32_t i = 0; i < n; i++) bufs[i].offset = 0;
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
        if (gap >= need && gap < best_gap) {
          best = cursor;
          best_gap = gap;
        }
      }
      size_t end = live[j]->offset + round_up(live[j]->size, align);
      if (end > cursor) cursor = end;
    }
    if (best == SIZE_MAX) best = cursor;
    b->offset = best;
    if (best + need > total) total = best + need;
    placed[n_placed++] = b;
  }
  return total;
}

size_t tfcc_arena_lower_bound(const tfcc_plan_buffer *bufs, int32_t n, size_t align) {
  int32_t last_node = -1;
  for (int32_t i = 0; i < n; i++)
    if (bufs[i].size && bufs[i].last > last_node) last_node = bufs[i].last;
  size_t best = 0;
  for (int32_t t = 0; t <= last_node; t++) {
    size_t sum = 0;
    for (int32_t i = 0; i < n; i++)
      if (bufs[i].size && bufs[i].first <= t && t <= bufs[i].last)
        sum += round_up(bufs[i].size, align);
    if (sum > best) best = sum;
  }
  return best;
}
