/* Releasing consumed constants during the load (runtime/const_release.h), counted in
 * released_bytes: a constant still to be read keeps the huge pages it shares with consumed
 * ones whole only from 32 KiB to 1 MiB (a shape vector read by a last node, or a large filter
 * packed later, no longer holds its consumed neighbours until then), and a load that copied
 * the whole file gives back the whole pages of consumed constants under 32 KiB at the seal,
 * while a warm load (ranges it never read) keeps them as before. The ranges the reader copied
 * into the graph (quantization vectors) are given back when the prepare pass begins, as runs
 * across gaps of zero padding, and marked so that a warm load still reads them. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/private_map.h"
#include "runtime/const_release.h"
#include "test_harness.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

enum { T_FILTER, T_SHAPE, T_MID, T_LARGE, T_SMALL, N_T };

/* Whether the page at p was given back: private anonymous memory then reads zero, and under
 * TFCC_DEBUG_RELEASE_TRAP=1 (trap) it is inaccessible, which a read would fault on: a write(2)
 * from it to a pipe fails with EFAULT instead (fuzz63: the test read it and crashed). */
static bool given_back(const void *p, bool trap) {
  if (!trap) return *(const volatile uint8_t *)p == 0;
  int fd[2];
  if (pipe(fd) != 0) return false;
  const bool fault = write(fd[1], p, 1) < 0 && errno == EFAULT;
  close(fd[0]);
  close(fd[1]);
  return fault;
}

static bool never_touched(void *user, uintptr_t a, uintptr_t b) {
  (void)user, (void)a, (void)b;
  return false; /* every range was read: resident */
}

/* One pass of a load over region: node i reads tensor i. Returns released_bytes at the
 * checkpoints: after node 0 consumed its filter [0], after node 2 consumed its mid-size
 * constant [1], after the seal [2]. */
static void load(uint8_t *region, size_t size, bool warm, size_t out[3]) {
  static const size_t off[N_T] = {64 * KIB, MIB + 128 * KIB, 2 * MIB + 64 * KIB,
                                  2 * MIB + 64 * KIB + 640 * KIB, 4 * MIB + 512 * KIB};
  static const size_t bytes[N_T] = {MIB, 16, 600 * KIB, 1536 * KIB, 16 * KIB};
  tfcc_ir_tensor t[N_T];
  tfcc_ir_node nd[N_T];
  int32_t in[N_T];
  memset(t, 0, sizeof t);
  memset(nd, 0, sizeof nd);
  /* node k reads tensor reads[k]: the shape vector last */
  static const int32_t reads[N_T] = {T_FILTER, T_MID, T_LARGE, T_SMALL, T_SHAPE};
  for (int i = 0; i < N_T; i++) {
    t[i].data = region + off[i];
    t[i].data_bytes = bytes[i];
    in[i] = reads[i];
    nd[i].n_inputs = 1;
    nd[i].inputs = &in[i];
  }
  tfcc_ir_subgraph sg = {.n_tensors = N_T, .tensors = t, .n_nodes = N_T, .nodes = nd};
  tfcc_graph g = {.n_subgraphs = 1, .subgraphs = &sg};
  tfcc_const_release r;
  CHECK(tfcc_const_release_init(&r, &g, region, size, false, NULL));
  r.untouched = warm ? never_touched : NULL;
  tfcc_const_release_prepare(&r);
  tfcc_packed_store *s = &r.store;
  int owner[N_T];
  (void)s->get(s, 0, 1, 0);
  s->consumed(s, &owner[0], t[T_FILTER].data); /* node 4 still reads the shape vector */
  (void)s->get(s, 1, 1, 0);
  out[0] = r.released_bytes;
  s->consumed(s, &owner[1], t[T_MID].data); /* node 2 still reads the large constant */
  (void)s->get(s, 2, 1, 0);
  out[1] = r.released_bytes;
  s->consumed(s, &owner[2], t[T_LARGE].data);
  (void)s->get(s, 3, 1, 0);
  s->consumed(s, &owner[3], t[T_SMALL].data);
  (void)s->get(s, 4, 1, 0);
  tfcc_const_release_seal(&r);
  out[2] = r.released_bytes;
  tfcc_const_release_free(&r);
}

/* Copied ranges A and B with 4 zero bytes between them, C after 4 non-zero bytes. defer: as a
 * load that writes a weights cache file (defer_copied): nothing given back by the prepare pass
 * nor the seal, the same runs by tfcc_const_release_deferred after them. */
static void copied_runs(uint8_t *region, size_t size, bool defer) {
  uint8_t *a = region + 5 * MIB, *b = a + 20004, *c = b + 20000 + 4;
  memset(a + 20000, 0, 4);
  tfcc_ir_copied k[3] = {{c, 20000, NULL}, {b, 20000, &k[0]}, {a, 20000, &k[1]}};
  tfcc_ir_subgraph sg = {.n_tensors = 0};
  tfcc_graph g = {.n_subgraphs = 1, .subgraphs = &sg, .copied = &k[2]};
  tfcc_const_release r;
  CHECK(tfcc_const_release_init(&r, &g, region, size, false, NULL));
  CHECK(r.released_bytes == 0);
  r.defer_copied = defer;
  memset(a, 1, 4096);
  tfcc_const_release_prepare(&r);
  if (defer) {
    tfcc_const_release_seal(&r);
    CHECKF(r.released_bytes == 0 && r.n_deferred == 2 && a[0] == 1, "%zu %zu", r.released_bytes,
           r.n_deferred);
    tfcc_const_release_deferred(&r);                   /* after the seal */
    CHECK(r.n_deferred == 0 && given_back(a, r.trap)); /* given back */
  }
  /* A + B as one run: 9 whole pages (apart, 4 + 4); C alone: its 4 inner pages */
  CHECKF(r.released_bytes == (9 + 4) * 4096, "%zu", r.released_bytes);
  size_t copied = 0;
  for (size_t i = 0; i < r.n_rel; i++) copied += r.rel[i].copied ? r.rel[i].len : 0;
  CHECKF(copied == r.released_bytes, "%zu", copied);
  tfcc_const_release_seal(&r);
  CHECK(r.released_bytes == (9 + 4) * 4096); /* nothing twice */
  tfcc_const_release_free(&r);
}

/* n nodes, node i reading tensor in[i] alone. */
static void nodes_reading(tfcc_ir_node *nd, int32_t *in, int n) {
  for (int i = 0; i < n; i++) {
    nd[i].n_inputs = 1;
    nd[i].inputs = &in[i];
  }
}

/* A large constant packed in source order by its only reader (consumed_prefix, ops/packed_store.h):
 * the whole huge pages of the prefix it names are given back at once, before it is consumed
 * (the next node's packing then finds them gone); consumed and the seal give back the rest,
 * nothing twice. A constant with another reader left, or one its reader consumed, is refused. */
static void prefix_release(void) {
  const size_t size = 10 * MIB;
  uint8_t *region = tfcc_map_private(size, true);
  CHECK(region != NULL);
  if (!region) return;
  memset(region, 1, size);
  const uintptr_t huge = 2 * MIB;
  /* the region is 2 MiB aligned where the mapping gave huge pages; offsets from its first one */
  const size_t at = (size_t)((((uintptr_t)region + huge - 1) & ~(huge - 1)) - (uintptr_t)region);
  tfcc_ir_tensor t[2];
  tfcc_ir_node nd[3];
  int32_t in[3] = {0, 1, 1}; /* node 0 reads constant 0; nodes 1 and 2 read constant 1 */
  memset(t, 0, sizeof t);
  memset(nd, 0, sizeof nd);
  t[0].data = region + at + 64 * KIB; /* whole huge pages [at + 2, at + 6) MiB inside it */
  t[0].data_bytes = 6 * MIB + 512 * KIB - 64 * KIB;
  t[1].data = region + at + 7 * MIB;
  t[1].data_bytes = 2 * MIB + 64 * KIB;
  nodes_reading(nd, in, 3);
  tfcc_ir_subgraph sg = {.n_tensors = 2, .tensors = t, .n_nodes = 3, .nodes = nd};
  tfcc_graph g = {.n_subgraphs = 1, .subgraphs = &sg};
  tfcc_const_release r;
  CHECK(tfcc_const_release_init(&r, &g, region, size, false, NULL));
  tfcc_const_release_prepare(&r);
  tfcc_packed_store *s = &r.store;
  int owner[3];
  CHECK(s->consumed_prefix != NULL);
  (void)s->get(s, 0, 1, 0);
  CHECK(s->consumed_prefix(s, &owner[0], t[0].data, 0) && r.released_bytes == 0);
  CHECK(s->consumed_prefix(s, &owner[0], t[0].data, 3 * MIB) && r.released_bytes == 0);
  /* 4.5 MiB read: the huge page [at + 2, at + 4) MiB is given back, its neighbours are not */
  CHECK(s->consumed_prefix(s, &owner[0], t[0].data, 4 * MIB + 512 * KIB));
  CHECKF(r.released_bytes == 2 * MIB, "%zu", r.released_bytes);
  CHECK(given_back(region + at + 2 * MIB, r.trap) && given_back(region + at + 4 * MIB - 1, r.trap));
  CHECK(region[at + 2 * MIB - 1] == 1 && region[at + 4 * MIB] == 1); /* its neighbours kept */
  CHECK(s->consumed_prefix(s, &owner[0], t[0].data, 2 * MIB));       /* smaller: nothing again */
  CHECKF(r.released_bytes == 2 * MIB, "%zu", r.released_bytes);
  /* consumed: its other whole huge page and its ends (no neighbour to read), not the first
   * huge page again: every whole page of it once, 6.5 MiB - 64 KiB from a 64 KiB boundary */
  const size_t all0 = 6 * MIB + 512 * KIB - 64 * KIB;
  s->consumed(s, &owner[0], t[0].data);
  CHECKF(r.released_bytes == all0, "%zu", r.released_bytes);
  CHECK(!s->consumed_prefix(s, &owner[0], t[0].data, 6 * MIB)); /* consumed already */
  /* two readers: refused, nothing given back, until one of them consumed it */
  (void)s->get(s, 1, 1, 0);
  CHECK(!s->consumed_prefix(s, &owner[1], t[1].data, 0));
  CHECK(!s->consumed_prefix(s, &owner[1], t[1].data, 2 * MIB + 64 * KIB));
  CHECKF(r.released_bytes == all0, "%zu", r.released_bytes);
  s->consumed(s, &owner[1], t[1].data);
  CHECK(!s->consumed_prefix(s, &owner[1], t[1].data, 0)); /* its reader left is node 2 */
  (void)s->get(s, 2, 1, 0);
  CHECK(s->consumed_prefix(s, &owner[2], t[1].data, 0));
  CHECK(!s->consumed_prefix(s, &owner[2], region + at + 7 * MIB + 4096, 0)); /* not a constant */
  tfcc_const_release_seal(&r);
  CHECKF(r.released_bytes == all0, "%zu", r.released_bytes); /* nothing twice */
  tfcc_const_release_free(&r);
  (void)munmap(region, size);
}

/* review62: the dense copy the reader made of sparse FULLY_CONNECTED weights (graph memory,
 * from_sparse) is given back as soon as its readers said consumed, all its whole pages at
 * once, also with no region of model bytes; one that a reader keeps reading (a hybrid
 * FULLY_CONNECTED: never consumed) stays, also at the seal. Not in rel (not the file's). */
static void dense_copy_release(bool with_region) {
  const size_t bytes = MIB + 3000, page = (size_t)sysconf(_SC_PAGESIZE);
  uint8_t *mem = aligned_alloc(page, 2 * MIB + 2 * page); /* two copies, as the graph's blocks */
  CHECK(mem != NULL);
  if (!mem) return;
  memset(mem, 7, 2 * MIB + 2 * page);
  uint8_t *region = with_region ? tfcc_map_private(MIB, true) : NULL;
  tfcc_ir_tensor t[2];
  tfcc_ir_node nd[3];
  int32_t in[3] = {0, 0, 1}; /* nodes 0 and 1 read copy 0; node 2 reads copy 1 */
  memset(t, 0, sizeof t);
  memset(nd, 0, sizeof nd);
  t[0].data = mem + 100; /* whole pages [page, page + MIB) inside it with 4 KiB pages */
  t[0].data_bytes = bytes;
  t[1].data = mem + MIB + 2 * page;
  t[1].data_bytes = 4 * page;
  for (int i = 0; i < 2; i++) t[i].from_sparse = true;
  nodes_reading(nd, in, 3);
  tfcc_ir_subgraph sg = {.n_tensors = 2, .tensors = t, .n_nodes = 3, .nodes = nd};
  tfcc_graph g = {.n_subgraphs = 1, .subgraphs = &sg};
  tfcc_const_release r;
  CHECK(tfcc_const_release_init(&r, &g, region, region ? MIB : 0, false, NULL));
  tfcc_const_release_prepare(&r);
  tfcc_packed_store *s = &r.store;
  int owner[3];
  s->consumed(s, &owner[0], t[0].data);
  CHECKF(r.released_bytes == 0, "one reader of two: %zu", r.released_bytes);
  CHECK(!s->consumed_prefix(s, &owner[1], t[0].data, bytes)); /* graph memory: never a prefix */
  s->consumed(s, &owner[1], t[0].data);
  /* its whole pages: from the first page boundary after mem + 100 to the last before its end */
  const uintptr_t a = ((uintptr_t)t[0].data + page - 1) & ~(page - 1);
  const uintptr_t b = ((uintptr_t)t[0].data + bytes) & ~(page - 1);
  CHECKF(r.released_bytes == (size_t)(b - a), "consumed: %zu of %zu", r.released_bytes,
         (size_t)(b - a));
  /* its whole pages given back, its ends kept */
  CHECK(given_back((const void *)a, r.trap) && given_back((const uint8_t *)b - 1, r.trap));
  CHECK(mem[100] == 7 && mem[100 + bytes - 1] == 7);
  tfcc_const_release_seal(&r); /* copy 1, never consumed, stays */
  CHECKF(r.released_bytes == (size_t)(b - a), "sealed: %zu", r.released_bytes);
  CHECK(mem[MIB + 2 * page] == 7 && mem[MIB + 6 * page - 1] == 7);
  CHECKF(r.n_rel == 0, "%zu ranges in rel", r.n_rel);
  tfcc_const_release_free(&r); /* (trap mode: accessible again before the free) */
  free(mem);
  if (region) (void)munmap(region, MIB);
}

int main(void) {
  prefix_release();
  dense_copy_release(true);
  dense_copy_release(false);
  const size_t size = 6 * MIB;
  uint8_t *region = tfcc_map_private(size, true);
  CHECK(region != NULL);
  if (!region) return tfcc_test_finish("const_release");
  memset(region, 1, size);
  size_t cold[3], warm[3];
  load(region, size, false, cold);
  /* the consumed 1 MiB filter is given back while a 16-byte shape vector in its huge page is
   * still to be read (it held the whole huge page until the last node before) */
  CHECKF(cold[0] >= MIB - 8 * KIB, "%zu", cold[0]);
  /* the consumed 600 KiB constant is given back while a 1.5 MiB one sharing its huge page is
   * still to be packed (constants under 2 MiB held it before) */
  CHECKF(cold[1] >= cold[0] + 600 * KIB - 8 * KIB, "%zu %zu", cold[0], cold[1]);
  /* at the seal of a load that read the whole file, the 16 KiB constant's whole pages too */
  CHECKF(cold[2] >= cold[1] + 1536 * KIB - 8 * KIB + 12 * KIB, "%zu %zu", cold[1], cold[2]);
  (void)munmap(region, size);
  region = tfcc_map_private(size, true);
  CHECK(region != NULL);
  if (!region) return tfcc_test_finish("const_release");
  memset(region, 1, size);
  load(region, size, true, warm);
  if (sysconf(_SC_PAGESIZE) == 4096) {
    copied_runs(region, size, false);
    copied_runs(region, size, true);
  }
  /* a warm load keeps a resident range under 32 KiB (its madvise is not worth it); under
   * TFCC_DEBUG_RELEASE_TRAP=1 every given back range is made inaccessible, those too (a read
   * of one is caught), so both loads give back the same */
  const char *trap = getenv("TFCC_DEBUG_RELEASE_TRAP");
  CHECKF(warm[0] == cold[0] && warm[1] == cold[1], "%zu %zu", warm[0], warm[1]);
  if (trap && strcmp(trap, "1") == 0)
    CHECKF(warm[2] == cold[2], "%zu %zu", warm[2], cold[2]);
  else
    CHECKF(warm[2] + 12 * KIB <= cold[2], "%zu %zu", warm[2], cold[2]);
  (void)munmap(region, size);
  return tfcc_test_finish("const_release");
}
