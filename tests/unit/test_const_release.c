/* Releasing consumed constants during the load (runtime/const_release.h), counted in
 * released_bytes: a constant still to be read keeps the huge pages it shares with consumed
 * ones whole only from 32 KiB to 1 MiB (a shape vector read by a last node, or a large filter
 * packed later, no longer holds its consumed neighbours until then), and a load that copied
 * the whole file gives back the whole pages of consumed constants under 32 KiB at the seal,
 * while a warm load (ranges it never read) keeps them as before. The ranges the reader copied
 * into the graph (quantization vectors) are given back when the prepare pass begins, as runs
 * across gaps of zero padding, and marked so that a warm load still reads them. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/private_map.h"
#include "runtime/const_release.h"
#include "test_harness.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

enum { T_FILTER, T_SHAPE, T_MID, T_LARGE, T_SMALL, N_T };

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
    tfcc_const_release_deferred(&r);       /* after the seal */
    CHECK(r.n_deferred == 0 && a[0] == 0); /* given back: private anonymous pages read zero */
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

int main(void) {
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
  /* a warm load keeps a resident range under 32 KiB (its madvise is not worth it) */
  CHECKF(warm[0] == cold[0] && warm[1] == cold[1], "%zu %zu", warm[0], warm[1]);
  CHECKF(warm[2] + 12 * KIB <= cold[2], "%zu %zu", warm[2], cold[2]);
  (void)munmap(region, size);
  return tfcc_test_finish("const_release");
}
