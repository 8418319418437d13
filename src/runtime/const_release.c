/* Releasing constant bytes no operator reads any more (contract in const_release.h). */
#include "runtime/const_release.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const void *cr_get(tfcc_packed_store *s, int32_t node, uint32_t block, size_t bytes) {
  tfcc_const_release *r = (tfcc_const_release *)s;
  return r->inner ? r->inner->get(r->inner, node, block, bytes) : NULL;
}

static void cr_put(tfcc_packed_store *s, int32_t node, uint32_t block, const void *data, size_t bytes) {
  tfcc_const_release *r = (tfcc_const_release *)s;
  if (r->inner) r->inner->put(r->inner, node, block, data, bytes);
}

static int cmp_entry(const void *a, const void *b) {
  const uint8_t *x = ((const tfcc_cr_entry *)a)->data, *y = ((const tfcc_cr_entry *)b)->data;
  return x < y ? -1 : x > y;
}

/* The entry whose data is exactly d, or NULL. */
static tfcc_cr_entry *find(tfcc_const_release *r, const void *d) {
  size_t lo = 0, hi = r->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((const void *)r->e[mid].data < d) lo = mid + 1;
    else hi = mid;
  }
  return lo < r->n && (const void *)r->e[lo].data == d ? &r->e[lo] : NULL;
}

static void release_range(tfcc_const_release *r, const uint8_t *a, const uint8_t *b) {
  if (a >= b) return;
  void *p = (void *)(uintptr_t)a;
  const size_t len = (size_t)(b - a);
  if (r->trap ? mprotect(p, len, PROT_NONE) == 0 : madvise(p, len, MADV_DONTNEED) == 0)
    r->released_bytes += len;
}

#define HUGE_BYTES ((uintptr_t)2 << 20)
/* Adjacent constants in the file lie this close (a flatbuffer vector's length and alignment
 * padding between them); metadata buffers are entries with readers, so never in a run. */
#define RUN_GAP 64
/* Constants from this size on are released at page granularity as soon as consumed. */
#define BIG_BYTES ((size_t)2 << 20)

/* Whole `unit` pages inside [lo, hi) that no entry with readers overlaps. */
static void release_span(tfcc_const_release *r, const uint8_t *lo, const uint8_t *hi, uintptr_t unit) {
  const uintptr_t pg = r->page;
  const uint8_t *a = (const uint8_t *)(((uintptr_t)lo + unit - 1) & ~(unit - 1));
  const uint8_t *b = (const uint8_t *)((uintptr_t)hi & ~(unit - 1));
  if (a >= b) return;
  /* entries are sorted by start; a live one overlapping [a, b) cuts the range */
  for (size_t i = 0; i < r->n && a < b; i++) {
    const tfcc_cr_entry *x = &r->e[i];
    if (x->released || x->data >= b) continue;
    const uint8_t *xe = x->data + x->bytes;
    if (xe <= a) continue;
    const uint8_t *cut_lo = (const uint8_t *)((uintptr_t)x->data & ~(pg - 1));
    const uint8_t *cut_hi = (const uint8_t *)(((uintptr_t)xe + pg - 1) & ~(pg - 1));
    release_range(r, a, cut_lo < b ? cut_lo : b);
    a = cut_hi > a ? cut_hi : a;
  }
  release_range(r, a, b);
}

/* The run of released entries around index i (neighbours closer than RUN_GAP), released in
 * whole `unit` pages. */
static void release_run(tfcc_const_release *r, size_t i, uintptr_t unit) {
  size_t lo = i, hi = i;
  while (lo > 0 && r->e[lo - 1].released && r->e[lo - 1].data + r->e[lo - 1].bytes + RUN_GAP >= r->e[lo].data) lo--;
  while (hi + 1 < r->n && r->e[hi + 1].released && r->e[hi].data + r->e[hi].bytes + RUN_GAP >= r->e[hi + 1].data) hi++;
  release_span(r, r->e[lo].data, r->e[hi].data + r->e[hi].bytes, unit);
}

static void cr_consumed(tfcc_packed_store *s, const void *owner, const void *data) {
  tfcc_const_release *r = (tfcc_const_release *)s;
  if (r->sealed || !r->e) return;
  tfcc_cr_entry *e = find(r, data);
  if (!e || e->readers <= 0) return;
  for (size_t i = 0; i < r->n_seen; i++)
    if (r->seen[i].owner == owner && r->seen[i].data == data) return;
  if (r->n_seen == r->cap_seen) {
    size_t cap = r->cap_seen ? 2 * r->cap_seen : 64;
    tfcc_cr_seen *ns = realloc(r->seen, cap * sizeof *ns);
    if (!ns) return; /* keep the bytes */
    r->seen = ns;
    r->cap_seen = cap;
  }
  r->seen[r->n_seen].owner = owner;
  r->seen[r->n_seen].data = data;
  r->n_seen++;
  if (--e->readers == 0) {
    e->released = true;
    /* a large constant: its small pages now (it splits at most the two huge pages at its
     * ends); else whole huge pages of the run it completes */
    if (e->bytes >= BIG_BYTES) release_span(r, e->data, e->data + e->bytes, r->page);
    else release_run(r, (size_t)(e - r->e), HUGE_BYTES);
  }
}

/* Adds one reader of tensor t (if it is a constant in the region). */
static void count(tfcc_const_release *r, const tfcc_ir_subgraph *sg, int32_t t, bool keep) {
  if (t < 0 || t >= sg->n_tensors) return;
  const tfcc_ir_tensor *x = &sg->tensors[t];
  const uint8_t *d = x->data;
  if (!d || d < r->lo || d >= r->hi) return;
  tfcc_cr_entry *e = find(r, d);
  if (!e) return;
  e->readers += keep ? 1 << 20 : 1; /* keep: a reader that never says consumed */
  if (x->data_bytes > e->bytes) e->bytes = x->data_bytes;
}

bool tfcc_const_release_init(tfcc_const_release *r, const tfcc_graph *g, const void *region,
                             size_t region_size, tfcc_packed_store *inner) {
  memset(r, 0, sizeof *r);
  r->store.get = cr_get;
  r->store.put = cr_put;
  r->store.consumed = cr_consumed;
  r->inner = inner;
  long pg = sysconf(_SC_PAGESIZE);
  r->page = pg > 0 ? (size_t)pg : 4096;
  const char *trap = getenv("TFCC_DEBUG_RELEASE_TRAP");
  r->trap = trap && strcmp(trap, "1") == 0;
  r->lo = region;
  r->hi = r->lo + region_size;
  if (!region || !region_size) return true;
  size_t n = (size_t)(g->n_metadata > 0 ? g->n_metadata : 0);
  for (int32_t s = 0; s < g->n_subgraphs; s++) n += (size_t)g->subgraphs[s].n_tensors;
  if (!n) return true;
  r->e = calloc(n, sizeof *r->e);
  if (!r->e) return false;
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t t = 0; t < sg->n_tensors; t++) {
      const tfcc_ir_tensor *x = &sg->tensors[t];
      const uint8_t *d = x->data;
      if (!d || d < r->lo || d >= r->hi || x->data_bytes > (size_t)(r->hi - d)) continue;
      r->e[r->n].data = d;
      r->e[r->n].bytes = x->data_bytes;
      r->n++;
    }
  }
  for (int32_t i = 0; i < g->n_metadata; i++) { /* read later (watermark, introspection) */
    const uint8_t *d = g->metadata[i].data;
    if (!d || d < r->lo || d >= r->hi || g->metadata[i].size > (size_t)(r->hi - d)) continue;
    r->e[r->n].data = d;
    r->e[r->n].bytes = g->metadata[i].size;
    r->e[r->n].readers = 1 << 20;
    r->n++;
  }
  qsort(r->e, r->n, sizeof *r->e, cmp_entry);
  size_t k = 0; /* one entry per data pointer (tensors may share a buffer) */
  for (size_t i = 0; i < r->n; i++) {
    if (k && r->e[k - 1].data == r->e[i].data) {
      if (r->e[i].bytes > r->e[k - 1].bytes) r->e[k - 1].bytes = r->e[i].bytes;
      r->e[k - 1].readers += r->e[i].readers;
      continue;
    }
    r->e[k++] = r->e[i];
  }
  r->n = k;
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t i = 0; i < sg->n_nodes; i++) {
      const tfcc_ir_node *nd = &sg->nodes[i];
      if (nd->removed) continue;
      for (int32_t j = 0; j < nd->n_inputs; j++) count(r, sg, nd->inputs[j], false);
      for (int32_t j = 0; j < nd->n_intermediates; j++) count(r, sg, nd->intermediates[j], true);
      for (int32_t j = 0; j < nd->n_outputs; j++) count(r, sg, nd->outputs[j], true);
    }
    for (int32_t j = 0; j < sg->n_inputs; j++) count(r, sg, sg->inputs[j], true);
    for (int32_t j = 0; j < sg->n_outputs; j++) count(r, sg, sg->outputs[j], true);
    for (int32_t t = 0; t < sg->n_tensors; t++)
      if (sg->tensors[t].is_variable || sg->tensors[t].sparsity) count(r, sg, t, true);
  }
  for (int32_t k2 = 0; k2 < g->n_signatures; k2++) {
    const tfcc_ir_signature *sig = &g->signatures[k2];
    if (sig->subgraph < 0 || sig->subgraph >= g->n_subgraphs) continue;
    const tfcc_ir_subgraph *sg = &g->subgraphs[sig->subgraph];
    for (int32_t j = 0; j < sig->n_inputs; j++) count(r, sg, sig->input_tensors[j], true);
    for (int32_t j = 0; j < sig->n_outputs; j++) count(r, sg, sig->output_tensors[j], true);
  }
  return true;
}

void tfcc_const_release_seal(tfcc_const_release *r) {
  bool any = false;
  for (size_t i = 0; i < r->n && !any; i++) any = r->e[i].released;
  if (any && !r->sealed) {
#ifdef MADV_NOHUGEPAGE
    /* a private copy in huge pages: without this, khugepaged may collapse a released range
     * back into a whole resident huge page */
    const uintptr_t pg = r->page;
    uintptr_t lo = (uintptr_t)r->lo & ~(pg - 1), hi = ((uintptr_t)r->hi + pg - 1) & ~(pg - 1);
    (void)madvise((void *)lo, hi - lo, MADV_NOHUGEPAGE);
#endif
    /* now the small pages of every run (splitting what huge pages are left) */
    for (size_t i = 0; i < r->n; i++) {
      if (!r->e[i].released) continue;
      size_t j = i;
      while (j + 1 < r->n && r->e[j + 1].released && r->e[j].data + r->e[j].bytes + RUN_GAP >= r->e[j + 1].data) j++;
      release_span(r, r->e[i].data, r->e[j].data + r->e[j].bytes, r->page);
      i = j;
    }
  }
  r->sealed = true;
  free(r->seen);
  r->seen = NULL;
  r->n_seen = r->cap_seen = 0;
  free(r->e);
  r->e = NULL;
  r->n = 0;
}

void tfcc_const_release_free(tfcc_const_release *r) { tfcc_const_release_seal(r); }
