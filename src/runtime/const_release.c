/* Releasing constant bytes no operator reads any more (contract in const_release.h). */
#include "runtime/const_release.h"

#include "base/grow.h"
#include "base/kernel_copy.h"
#include "base/private_map.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define KEEP (1 << 20) /* reader count of something read after the load: never released */
/* Constants from this size on are released as soon as consumed (during the load). */
#define BIG_BYTES ((size_t)2 << 20)
#define HUGE_BYTES ((uintptr_t)2 << 20)
/* A range the load read (resident) is given back only from this size up: each MADV_DONTNEED
 * is a TLB shootdown (an interrupt to every other CPU the process ran on; tens of us on a
 * paravirtualised VM), and a warm load with a weights cache reads smaller holes anyway
 * (model.c): MobileNetV2 f32's warm load made 13 such calls for 170 KiB, about 1 ms. A load
 * that copied the whole file (no weights cache, or one being written) gives back every whole
 * page instead: ResNet-50 int8's biases and small filters, 12 more calls, 0.12 MiB, no load time
 * measured (0.5 ms for all 62 calls of the load, bench/README.md). */
#define MIN_RESIDENT_RELEASE ((size_t)32 << 10)
/* A constant under this size read at load does not keep the huge pages it lies in whole. */
#define SMALL_READ ((size_t)32 << 10)
/* nor does one of this size or more */
#define HOLD_MAX ((size_t)1 << 20)

static void release_waiting(tfcc_const_release *r);

static const void *cr_get(tfcc_packed_store *s, int32_t node, uint32_t block, size_t bytes) {
  tfcc_const_release *r = (tfcc_const_release *)s;
  if (r->preparing && node > r->progress && !r->sealed) { /* the nodes before it are prepared */
    r->progress = node;
    release_waiting(r);
  }
  return r->inner ? r->inner->get(r->inner, node, block, bytes) : NULL;
}

static void cr_put(tfcc_packed_store *s, int32_t node, uint32_t block, const void *data,
                   size_t bytes) {
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
    if ((const void *)r->e[mid].data < d)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < r->n && (const void *)r->e[lo].data == d ? &r->e[lo] : NULL;
}

/* Trap mode: remembers a PROT_NONE range to make accessible again before the memory is freed. */
static bool note_trapped(tfcc_const_release *r, void *p, size_t len) {
  tfcc_cr_range *t = tfcc_grow(r->trapped, &r->cap_trapped, r->n_trapped, sizeof *t, 64);
  if (!t) return false;
  r->trapped = t;
  r->trapped[r->n_trapped].p = p;
  r->trapped[r->n_trapped].len = len;
  r->n_trapped++;
  return true;
}

static void note_released(tfcc_const_release *r, void *p, size_t len) {
  tfcc_cr_range *rel = tfcc_grow(r->rel, &r->cap_rel, r->n_rel, sizeof *rel, 64);
  if (!rel) {
    r->rel_lost = true;
    return;
  }
  r->rel = rel;
  r->rel[r->n_rel].p = p;
  r->rel[r->n_rel].len = len;
  r->rel[r->n_rel].copied = r->releasing_copied;
  r->n_rel++;
}

/* Gives back [a, b) (page aligned, a < b), counted and remembered. */
static void release_range(tfcc_const_release *r, uintptr_t a, uintptr_t b) {
  void *p = (void *)a;
  const size_t len = (size_t)(b - a);
  if (r->trap) {
    if (!note_trapped(r, p, len)) return; /* could not remember it: keep the bytes */
    if (mprotect(p, len, PROT_NONE) == 0) {
      tfcc_kernel_copy_split(p, (uint8_t *)p + len);
      r->released_bytes += len;
      note_released(r, p, len);
    } else {
      r->n_trapped--;
    }
  } else if (r->untouched && r->untouched(r->untouched_user, a, b)) {
    r->released_bytes += len; /* never resident */
    note_released(r, p, len);
  } else if (len < MIN_RESIDENT_RELEASE && (r->untouched || r->eager) && !r->wipe) {
    return; /* kept: cheaper than the shootdown */
  } else {
    if (r->wipe) explicit_bzero(p, len); /* plaintext never goes back to the kernel unwiped */
    if (madvise(p, len, MADV_DONTNEED) != 0) return;
    tfcc_kernel_copy_split(p, (uint8_t *)p + len);
    r->released_bytes += len;
    note_released(r, p, len);
  }
}

/* Gives back [a, b) of graph memory (page aligned, a < b): counted, not in rel (not the
 * model's bytes, which rel lists for the weights cache and the reads of a file with holes). */
static void release_graph_range(tfcc_const_release *r, uintptr_t a, uintptr_t b) {
  void *p = (void *)a;
  const size_t len = (size_t)(b - a);
  if (r->trap) {
    if (!note_trapped(r, p, len)) return; /* could not remember it: keep the bytes */
    if (mprotect(p, len, PROT_NONE) == 0)
      r->released_bytes += len;
    else
      r->n_trapped--;
    return;
  }
  if (r->wipe) explicit_bzero(p, len); /* a decrypted model's weights, as its bytes */
  if (madvise(p, len, MADV_DONTNEED) == 0) r->released_bytes += len;
}

/* Whether x, a constant some operator has still to pack or read at load, keeps the huge pages
 * it shares with released constants whole until it is read. One of HOLD_MAX or more does not:
 * its packing reading at most 2 MiB of it through 4 KiB pages costs little, while holding its
 * neighbours' released bytes until then put them on top of its own double (source and packing)
 * at the peak of the load (MobileNetV2 f32: 1.3 MiB held while its 4.9 MiB classifier was
 * packed; ResNet-50 int8: 1.0 MiB while its 2000 KiB classifier was; bench/README.md). Nor
 * does one under SMALL_READ: reading a few 4 KiB pages costs a few TLB misses, and a shape
 * vector or bias read by the last nodes held the first huge page of ResNet-50 int8's constants
 * (1.3 MiB of consumed filters) through the whole prepare pass. */
static bool keeps_huge_pages(const tfcc_cr_entry *x) {
  return x->readers > 0 && x->readers < KEEP && x->bytes < HOLD_MAX && x->bytes >= SMALL_READ;
}

/* Whether a constant that some operator has still to pack or read at load, and that keeps its
 * huge pages whole, has bytes in the huge page at hp (entries are sorted and disjoint; i is an
 * entry near it). */
static bool huge_page_busy(const tfcc_const_release *r, size_t i, uintptr_t hp) {
  for (size_t j = i + 1; j-- > 0;) {
    const tfcc_cr_entry *x = &r->e[j];
    if ((uintptr_t)x->data + x->bytes <= hp) break;
    if ((uintptr_t)x->data < hp + HUGE_BYTES && keeps_huge_pages(x)) return true;
  }
  for (size_t j = i + 1; j < r->n; j++) {
    const tfcc_cr_entry *x = &r->e[j];
    if ((uintptr_t)x->data >= hp + HUGE_BYTES) break;
    if ((uintptr_t)x->data + x->bytes > hp && keeps_huge_pages(x)) return true;
  }
  return false;
}

/* During the load: entry i's ends (the 4 KiB pages outside its whole huge pages), each once
 * no constant still to be read at load shares its huge page (splitting a huge page makes the
 * packing that still reads it go through 4 KiB pages). */
static void release_ends(tfcc_const_release *r, size_t i) {
  tfcc_cr_entry *e = &r->e[i];
  if (!e->huge_done || e->freed) return;
  const uintptr_t pg = r->page;
  const uintptr_t a = ((uintptr_t)e->data + pg - 1) & ~(pg - 1);
  const uintptr_t b = ((uintptr_t)e->data + e->bytes) & ~(pg - 1);
  const uintptr_t la = a, lb = e->huge_a < b ? e->huge_a : b; /* [la, lb): left end */
  const uintptr_t ra = e->huge_b > a ? e->huge_b : a, rb = b; /* [ra, rb): right end */
  if (!e->left_done && (la >= lb || !huge_page_busy(r, i, e->huge_a - HUGE_BYTES))) {
    if (la < lb) release_range(r, la, lb);
    e->left_done = true;
  }
  if (!e->right_done && (ra >= rb || !huge_page_busy(r, i, e->huge_b))) {
    if (ra < rb) release_range(r, ra, rb);
    e->right_done = true;
  }
}

static void release_entry(tfcc_const_release *r, size_t i, bool huge_only);

/* [a, b) of entry e but its prefix already given back (page aligned, a < b or empty). */
static void release_skip(tfcc_const_release *r, const tfcc_cr_entry *e, uintptr_t a, uintptr_t b) {
  const uintptr_t ha = e->pre_a, hb = e->pre_b;
  if (ha >= hb || hb <= a || ha >= b) {
    if (a < b) release_range(r, a, b);
    return;
  }
  if (a < ha) release_range(r, a, ha);
  if (hb < b) release_range(r, hb, b);
}

/* Whether a constant still to be read at load (not consumed by every reader; in the prepare
 * pass, also read by a node not prepared yet or by another subgraph) has bytes in the huge
 * page at hp (i: an entry near it). Operators read their constants at init and at the first
 * prepare; once the prepare pass, which runs in node order, has passed r->progress, the
 * constants only earlier nodes read (biases, depthwise filters) are read no more during the
 * load. A wrong guess (a node prepared out of order) only makes a read go through 4 KiB pages:
 * slower, never wrong. */
static bool huge_page_read_later(const tfcc_const_release *r, size_t i, uintptr_t hp) {
  for (size_t j = i + 1; j-- > 0;) {
    const tfcc_cr_entry *x = &r->e[j];
    if ((uintptr_t)x->data + x->bytes <= hp) break;
    if ((uintptr_t)x->data < hp + HUGE_BYTES && keeps_huge_pages(x) &&
        (!r->preparing || x->last_node >= r->progress))
      return true;
  }
  for (size_t j = i + 1; j < r->n; j++) {
    const tfcc_cr_entry *x = &r->e[j];
    if ((uintptr_t)x->data >= hp + HUGE_BYTES) break;
    if ((uintptr_t)x->data + x->bytes > hp && keeps_huge_pages(x) &&
        (!r->preparing || x->last_node >= r->progress))
      return true;
  }
  return false;
}

/* The last huge page huge_page_read_later answered for within one release_waiting call
 * (readers do not change during it). */
typedef struct hp_memo {
  uintptr_t hp;
  bool valid, later;
} hp_memo;

/* During the load: consumed entry j of 32 KiB to 2 MiB (smaller ones are kept until the seal,
 * as a range under MIN_RESIDENT_RELEASE would be), once no constant still to be read at load
 * shares a huge page with it (releasing its pages splits those huge pages, and packing that
 * still reads them would go through 4 KiB pages): the copy of the file shrinks as the packing
 * moves through it, instead of only when the load ends. */
static void release_small(tfcc_const_release *r, size_t j, hp_memo *memo) {
  tfcc_cr_entry *x = &r->e[j];
  if (!x->released || x->freed || x->huge_done || x->copied || x->bytes >= BIG_BYTES ||
      x->bytes < MIN_RESIDENT_RELEASE)
    return;
  const uintptr_t end = (uintptr_t)x->data + x->bytes;
  for (uintptr_t hp = (uintptr_t)x->data & ~(HUGE_BYTES - 1); hp < end; hp += HUGE_BYTES) {
    if (memo && memo->valid && memo->hp == hp) {
      if (memo->later) return;
      continue;
    }
    const bool later = huge_page_read_later(r, j, hp);
    if (memo) *memo = (hp_memo){hp, true, later};
    if (later) return;
  }
  release_entry(r, j, false);
}

/* Every consumed constant still waiting for its huge pages (the prepare pass moved on). */
static void release_waiting(tfcc_const_release *r) {
  if (r->eager || r->wipe) return;
  hp_memo memo = {0, false, false};
  for (size_t j = 0; j < r->n; j++) release_small(r, j, &memo);
}

/* The whole pages inside entry i's own bytes (entries are disjoint: no other constant, table
 * or metadata byte shares them). huge_only (during the load): its whole 2 MiB pages, and its
 * ends where that splits no huge page still to be read; the rest at the seal. */
static void release_entry(tfcc_const_release *r, size_t i, bool huge_only) {
  tfcc_cr_entry *e = &r->e[i];
  if (e->freed) return;
  if (e->graph_owned) { /* its own pages, in graph memory: all at once, none of the file's */
    e->freed = true;
    const uintptr_t pg = r->page;
    const uintptr_t a = ((uintptr_t)e->data + pg - 1) & ~(pg - 1);
    const uintptr_t b = ((uintptr_t)e->data + e->bytes) & ~(pg - 1);
    if (a < b) release_graph_range(r, a, b);
    return;
  }
  /* an owned buffer (a decrypted model): whole huge pages only. Its plaintext lies in huge
   * pages; releasing 4 KiB pieces splits them, and with the wipe that doubled an encrypted
   * load's time on this VM (bench/README.md) */
  const uintptr_t pg = r->wipe || huge_only ? HUGE_BYTES : r->page;
  const uintptr_t a = ((uintptr_t)e->data + pg - 1) & ~(pg - 1);
  const uintptr_t b = ((uintptr_t)e->data + e->bytes) & ~(pg - 1);
  if (huge_only) {
    release_skip(r, e, a, b);
    /* no whole huge page: both ends meet at b, the huge page boundary inside it, if any */
    e->huge_a = a < b ? a : b;
    e->huge_b = b;
    e->huge_done = true;
    if (!r->wipe) release_ends(r, i);
    return;
  }
  e->freed = true;
  if (e->huge_done) { /* its middle is gone: what is left of the ends */
    if (!e->left_done && a < e->huge_a) release_range(r, a, e->huge_a < b ? e->huge_a : b);
    if (!e->right_done && e->huge_b < b) release_range(r, e->huge_b > a ? e->huge_b : a, b);
    return;
  }
  release_skip(r, e, a, b);
}

static void cr_consumed(tfcc_packed_store *s, const void *owner, const void *data) {
  tfcc_const_release *r = (tfcc_const_release *)s;
  if (r->sealed || !r->e) return;
  tfcc_cr_entry *e = find(r, data);
  if (!e || e->readers <= 0 || e->readers >= KEEP) return;
  for (size_t i = 0; i < r->n_seen; i++)
    if (r->seen[i].owner == owner && r->seen[i].data == data) return;
  tfcc_cr_seen *seen = tfcc_grow(r->seen, &r->cap_seen, r->n_seen, sizeof *seen, 64);
  if (!seen) return; /* keep the bytes */
  r->seen = seen;
  r->seen[r->n_seen].owner = owner;
  r->seen[r->n_seen].data = data;
  r->n_seen++;
  if (--e->readers == 0) {
    e->released = true;
    const size_t i = (size_t)(e - r->e);
    if (r->eager || e->graph_owned) {
      release_entry(r, i, false);
    } else if (e->bytes >= BIG_BYTES) {
      release_entry(r, i, true);
    }
    /* ends of large constants, and small constants, that waited for this one to be read */
    if (!r->eager && !r->wipe) {
      const uintptr_t lo = (uintptr_t)e->data, hi = lo + e->bytes;
      release_small(r, i, NULL);
      for (size_t j = i; j-- > 0 && (uintptr_t)r->e[j].data + r->e[j].bytes + HUGE_BYTES > lo;) {
        release_ends(r, j);
        release_small(r, j, NULL);
      }
      for (size_t j = i + 1; j < r->n && (uintptr_t)r->e[j].data < hi + HUGE_BYTES; j++) {
        release_ends(r, j);
        release_small(r, j, NULL);
      }
    }
  }
}

/* A constant of 2 MiB or more whose only reader left is owner, packing it in source order: the
 * whole huge pages of data[0, bytes) are given back now (contract in ops/packed_store.h). Only
 * whole huge pages: the rest of the constant, still to be packed, is read from unsplit huge
 * pages (in place, not through the kernel's copy: base/kernel_copy.h). */
static bool cr_consumed_prefix(tfcc_packed_store *s, const void *owner, const void *data,
                               size_t bytes) {
  tfcc_const_release *r = (tfcc_const_release *)s;
  if (r->sealed || !r->e) return false;
  tfcc_cr_entry *e = find(r, data);
  if (!e || e->readers != 1 || e->released || e->copied || e->graph_owned || e->bytes < BIG_BYTES)
    return false;
  for (size_t i = 0; i < r->n_seen; i++) /* owner said consumed: the reader left is another */
    if (r->seen[i].owner == owner && r->seen[i].data == data) return false;
  if (bytes > e->bytes) bytes = e->bytes;
  const uintptr_t a = ((uintptr_t)e->data + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
  const uintptr_t b = ((uintptr_t)e->data + bytes) & ~(HUGE_BYTES - 1);
  if (e->pre_a == 0) e->pre_a = e->pre_b = a;
  if (b > e->pre_b) {
    release_range(r, e->pre_b, b);
    e->pre_b = b;
  }
  return true;
}

/* Adds one reader of tensor t (if it is a constant in the region). */
static void count(tfcc_const_release *r, const tfcc_ir_subgraph *sg, int32_t t, bool keep,
                  int32_t node) {
  if (t < 0 || t >= sg->n_tensors) return;
  const tfcc_ir_tensor *x = &sg->tensors[t];
  const uint8_t *d = x->data;
  if (!d) return;
  tfcc_cr_entry *e = find(r, d); /* a constant in the region, or graph_owned */
  if (!e) return;
  e->readers += keep ? KEEP : 1; /* keep: a reader that never says consumed */
  if (node > e->last_node) e->last_node = node;
}

/* An entry for [d, d + bytes): in the region, or graph memory (graph_owned). */
static void add_entry(tfcc_const_release *r, const uint8_t *d, size_t bytes, int32_t readers,
                      bool copied, bool graph_owned) {
  if (!d || (!graph_owned && (d < r->lo || d >= r->hi || bytes > (size_t)(r->hi - d)))) return;
  r->e[r->n].data = d;
  r->e[r->n].bytes = bytes;
  r->e[r->n].readers = readers;
  r->e[r->n].last_node = -1;
  r->e[r->n].copied = copied;
  r->e[r->n].graph_owned = graph_owned;
  r->n++;
}

bool tfcc_const_release_init(tfcc_const_release *r, const tfcc_graph *g, const void *region,
                             size_t region_size, bool wipe, tfcc_packed_store *inner) {
  memset(r, 0, sizeof *r);
  r->progress = -1;
  r->store.get = cr_get;
  r->store.put = cr_put;
  r->store.consumed = cr_consumed;
  r->store.consumed_prefix = cr_consumed_prefix;
  r->inner = inner;
  r->wipe = wipe;
  r->page = tfcc_page_size();
  const char *trap = getenv("TFCC_DEBUG_RELEASE_TRAP");
  r->trap = trap && strcmp(trap, "1") == 0;
  if (!region) region_size = 0;
  r->lo = region;
  r->hi = region ? r->lo + region_size : NULL;
  bool any_owned = false; /* the reader's dense copies of sparse weights */
  for (int32_t s = 0; s < g->n_subgraphs && !any_owned; s++)
    for (int32_t t = 0; t < g->subgraphs[s].n_tensors && !any_owned; t++)
      any_owned = g->subgraphs[s].tensors[t].from_sparse && g->subgraphs[s].tensors[t].data;
  if (!region_size && !any_owned) return true;
  size_t n = (size_t)(g->n_metadata > 0 ? g->n_metadata : 0);
  for (int32_t s = 0; s < g->n_subgraphs; s++) n += (size_t)g->subgraphs[s].n_tensors;
  for (const tfcc_ir_copied *k = g->copied; k; k = k->next) n++;
  if (!n) return true;
  r->e = calloc(n, sizeof *r->e);
  if (!r->e) return false;
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t t = 0; t < sg->n_tensors; t++)
      add_entry(r, sg->tensors[t].data, sg->tensors[t].data_bytes, 0, false,
                sg->tensors[t].from_sparse);
  }
  for (int32_t i = 0; i < g->n_metadata; i++) /* read after the load (introspection) */
    add_entry(r, g->metadata[i].data, g->metadata[i].size, KEEP, false, false);
  for (const tfcc_ir_copied *k = g->copied; k; k = k->next)
    add_entry(r, k->data, k->bytes, 0, true, false);
  qsort(r->e, r->n, sizeof *r->e, cmp_entry);
  size_t k = 0; /* one entry per data pointer (tensors may share a buffer) */
  for (size_t i = 0; i < r->n; i++) {
    if (k && r->e[k - 1].data == r->e[i].data) {
      if (r->e[i].bytes > r->e[k - 1].bytes) r->e[k - 1].bytes = r->e[i].bytes;
      r->e[k - 1].readers += r->e[i].readers;
      if (r->e[i].last_node > r->e[k - 1].last_node) r->e[k - 1].last_node = r->e[i].last_node;
      r->e[k - 1].copied = r->e[k - 1].copied && r->e[i].copied; /* also a constant: not */
      r->e[k - 1].graph_owned = r->e[k - 1].graph_owned || r->e[i].graph_owned;
      continue;
    }
    r->e[k++] = r->e[i];
  }
  r->n = k;
  /* Overlapping constants (not made by a converter, but a file may say so) keep their bytes,
   * so that the pages of one released constant never hold bytes of another. */
  const uint8_t *max_end = NULL;
  for (size_t i = 0; i < r->n; i++) {
    tfcc_cr_entry *x = &r->e[i];
    if (max_end && x->data < max_end) {
      x->readers += KEEP;
      for (size_t j = 0; j < i; j++)
        if (r->e[j].data + r->e[j].bytes > x->data) r->e[j].readers += KEEP;
    }
    if (!max_end || x->data + x->bytes > max_end) max_end = x->data + x->bytes;
  }
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t i = 0; i < sg->n_nodes; i++) {
      const tfcc_ir_node *nd = &sg->nodes[i];
      if (nd->removed) continue;
      const int32_t at = s == 0 ? i : INT32_MAX; /* other subgraphs are initialised after it */
      for (int32_t j = 0; j < nd->n_inputs; j++) count(r, sg, nd->inputs[j], false, at);
      for (int32_t j = 0; j < nd->n_intermediates; j++)
        count(r, sg, nd->intermediates[j], true, -1);
      for (int32_t j = 0; j < nd->n_outputs; j++) count(r, sg, nd->outputs[j], true, -1);
    }
    for (int32_t j = 0; j < sg->n_inputs; j++) count(r, sg, sg->inputs[j], true, -1);
    for (int32_t j = 0; j < sg->n_outputs; j++) count(r, sg, sg->outputs[j], true, -1);
    for (int32_t t = 0; t < sg->n_tensors; t++)
      if (sg->tensors[t].is_variable || sg->tensors[t].sparsity) count(r, sg, t, true, -1);
  }
  for (int32_t k2 = 0; k2 < g->n_signatures; k2++) {
    const tfcc_ir_signature *sig = &g->signatures[k2];
    if (sig->subgraph < 0 || sig->subgraph >= g->n_subgraphs) continue;
    const tfcc_ir_subgraph *sg = &g->subgraphs[sig->subgraph];
    for (int32_t j = 0; j < sig->n_inputs; j++) count(r, sg, sig->input_tensors[j], true, -1);
    for (int32_t j = 0; j < sig->n_outputs; j++) count(r, sg, sig->output_tensors[j], true, -1);
  }
  for (size_t i = 0; i < r->n; i++) /* copied into the graph: consumed by the read */
    if (r->e[i].copied) r->e[i].released = r->e[i].readers == 0;
  return true;
}

/* Whether [a, b) holds only zero bytes (a gap of alignment padding between copied ranges). */
static bool zero_gap(const uint8_t *a, const uint8_t *b) {
  if (b - a > 15) return false; /* padding is shorter; anything longer may be a table */
  for (; a < b; a++)
    if (*a) return false;
  return true;
}

/* The whole pages of each run of copied ranges (contract in const_release.h). */
static void release_copied(tfcc_const_release *r) {
  const uintptr_t pg = r->wipe ? HUGE_BYTES : r->page;
  for (size_t i = 0; i < r->n;) {
    tfcc_cr_entry *x = &r->e[i];
    if (!x->copied || !x->released || x->freed) {
      i++;
      continue;
    }
    const uint8_t *b = x->data + x->bytes;
    size_t j = i + 1;
    for (; j < r->n; j++) {
      const tfcc_cr_entry *y = &r->e[j];
      if (!y->copied || !y->released || y->freed || y->data < b || !zero_gap(b, y->data)) break;
      b = y->data + y->bytes;
    }
    const uintptr_t pa = ((uintptr_t)x->data + pg - 1) & ~(pg - 1), pb = (uintptr_t)b & ~(pg - 1);
    tfcc_cr_range *d = pa < pb && r->defer_copied
                           ? tfcc_grow(r->deferred, &r->cap_deferred, r->n_deferred, sizeof *d, 16)
                           : NULL;
    if (d) { /* given back by tfcc_const_release_deferred */
      r->deferred = d;
      d[r->n_deferred++] = (tfcc_cr_range){(void *)pa, (size_t)(pb - pa), true};
    } else if (pa < pb) { /* (no memory to defer it: now, and the cache file goes without) */
      r->releasing_copied = true;
      release_range(r, pa, pb);
      r->releasing_copied = false;
    }
    for (; i < j; i++) r->e[i].freed = true;
  }
}

static void drop_deferred(tfcc_const_release *r) {
  free(r->deferred);
  r->deferred = NULL;
  r->n_deferred = r->cap_deferred = 0;
}

void tfcc_const_release_deferred(tfcc_const_release *r) {
  r->releasing_copied = true;
  for (size_t i = 0; i < r->n_deferred; i++)
    release_range(r, (uintptr_t)r->deferred[i].p, (uintptr_t)r->deferred[i].p + r->deferred[i].len);
  r->releasing_copied = false;
  drop_deferred(r);
}

void tfcc_const_release_prepare(tfcc_const_release *r) {
  r->preparing = true;
  r->progress = -1;
  if (!r->sealed && r->e) release_copied(r);
}

void tfcc_const_release_seal(tfcc_const_release *r) {
  if (r->sealed) return;
  bool any = false;
  for (size_t i = 0; i < r->n && !any; i++) any = r->e[i].released;
  if (any) {
#ifdef MADV_NOHUGEPAGE
    /* a private copy in huge pages: without this, khugepaged may collapse a released range
     * back into a whole resident huge page (only the region's own whole pages) */
    const uintptr_t pg = r->page;
    uintptr_t lo = ((uintptr_t)r->lo + pg - 1) & ~(pg - 1), hi = (uintptr_t)r->hi & ~(pg - 1);
    if (!r->trap && lo < hi) (void)madvise((void *)lo, hi - lo, MADV_NOHUGEPAGE);
#endif
    for (size_t i = 0; i < r->n; i++)
      if (r->e[i].released) release_entry(r, i, false);
  }
  r->sealed = true;
  free(r->seen);
  r->seen = NULL;
  r->n_seen = r->cap_seen = 0;
  free(r->e);
  r->e = NULL;
  r->n = 0;
}

void tfcc_const_release_free(tfcc_const_release *r) {
  tfcc_const_release_seal(r);
  drop_deferred(r); /* a load that failed before giving them back */
  for (size_t i = 0; i < r->n_trapped; i++)
    (void)mprotect(r->trapped[i].p, r->trapped[i].len, PROT_READ | PROT_WRITE);
  free(r->trapped);
  r->trapped = NULL;
  r->n_trapped = r->cap_trapped = 0;
  free(r->rel);
  r->rel = NULL;
  r->n_rel = r->cap_rel = 0;
}

/* Own copies of the pages of [a, b) (page aligned). */
static bool populate_write(uint8_t *a, uint8_t *b, size_t page) {
  if (a >= b) return true;
  if (madvise(a, (size_t)(b - a), MADV_POPULATE_WRITE) == 0) return true;
  if (errno != EINVAL) return false;
  for (volatile uint8_t *p = a; p < b; p += page) *p = *p; /* a write copies the page */
  return true;
}

static int cmp_range(const void *a, const void *b) {
  const uint8_t *x = ((const tfcc_cr_range *)a)->p, *y = ((const tfcc_cr_range *)b)->p;
  return x < y ? -1 : x > y;
}

bool tfcc_const_release_privatize(const tfcc_const_release *r, void *region, size_t size) {
  const size_t page = tfcc_page_size();
  uint8_t *lo = region, *hi = lo + (size + page - 1) / page * page;
  if (!r || r->rel_lost || r->n_rel == 0) return populate_write(lo, hi, page);
  tfcc_cr_range *rs = malloc(r->n_rel * sizeof *rs);
  if (!rs) return populate_write(lo, hi, page);
  memcpy(rs, r->rel, r->n_rel * sizeof *rs);
  qsort(rs, r->n_rel, sizeof *rs, cmp_range);
  bool ok = true;
  uint8_t *at = lo;
  for (size_t i = 0; ok && i < r->n_rel; i++) {
    uint8_t *p = rs[i].p;
    if (p < lo || p >= hi) continue;
    ok = populate_write(at, p > at ? p : at, page);
    if (p + rs[i].len > at) at = p + rs[i].len;
  }
  ok = ok && populate_write(at, hi, page);
  free(rs);
  return ok;
}
