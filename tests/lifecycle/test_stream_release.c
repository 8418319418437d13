/* A large float filter's source is given back while it is packed, before the next node packs
 * (issue 18 point 2, bench/README.md "load56"): a model's copy of its file holding two filters
 * of 9.4 MB and 4.7 MB (ResNet-18's 3x3x512x512 and 3x3x256x512 shapes) and one 4.7 MB filter
 * that two nodes read, packed as CONV_2D packs them at load (tfcc_f32_fast_pack_consuming with
 * the model's const_release store), in the release trap's mode (given back pages made
 * inaccessible: a later read faults). Checked: when a filter's packing returns, before its node
 * says consumed and before the next node asks for its block, the whole huge pages of its source
 * are given back already; the packings are the bytes tfcc_f32_pack makes from a copy of the
 * source; a filter with a second reader is not given back before both consumed it; the seal
 * gives back nothing twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/private_map.h"
#include "cpu/cpu_info.h"
#include "ops/f32_fast.h"
#include "ops/packed_store.h"
#include "runtime/const_release.h"
#include "test_harness.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

enum { T_A, T_B, T_SHARED, N_T };

/* Whole 2 MiB pages inside [p, p + bytes). */
static size_t whole_huge(const void *p, size_t bytes) {
  const uintptr_t a = ((uintptr_t)p + 2 * MIB - 1) & ~(uintptr_t)(2 * MIB - 1);
  const uintptr_t b = ((uintptr_t)p + bytes) & ~(uintptr_t)(2 * MIB - 1);
  return b > a ? (size_t)(b - a) : 0;
}

/* Packs constant t (n x k floats) as node `node` does and checks its bytes against a packing of
 * copy (the caller then says consumed for it, as CONV_2D does right after). */
static void pack_node(tfcc_const_release *r, tfcc_isa isa, int32_t node, tfcc_packed_owner *owner,
                      const tfcc_ir_tensor *t, int32_t n, int32_t k, const float *copy) {
  tfcc_f32_fast f;
  tfcc_f32_fast_init(&f);
  f.key = (tfcc_packed_key){&r->store, node, TFCC_BLOCK_F32_GEMM};
  const tfcc_f32_packed *pk =
      tfcc_f32_fast_pack_consuming(&f, isa, NULL, n, k, t->data, (size_t)k, 1, NULL, owner);
  CHECK(pk != NULL);
  tfcc_f32_packed ref;
  CHECK(tfcc_f32_pack(tfcc_f32_gemm_select(isa), n, k, copy, (size_t)k, 1, NULL, &ref));
  if (pk && ref.w) {
    const size_t nr = (size_t)ref.k->nr, used = ((size_t)n + nr - 1) / nr * nr * (1 + (size_t)k);
    CHECKF(memcmp(pk->w, ref.w, used * sizeof(float)) == 0, "node %d packing", (int)node);
  }
  tfcc_f32_packed_free(&ref);
  tfcc_f32_fast_free(&f);
}

/* Whole pages inside [p, p + bytes). */
static size_t whole_pages(const void *p, size_t bytes) {
  const uintptr_t pg = tfcc_page_size();
  const uintptr_t a = ((uintptr_t)p + pg - 1) & ~(pg - 1);
  const uintptr_t b = ((uintptr_t)p + bytes) & ~(pg - 1);
  return b > a ? (size_t)(b - a) : 0;
}

int main(void) {
  const size_t size = 24 * MIB;
  uint8_t *region = tfcc_map_private(size, true);
  CHECK(region != NULL);
  if (!region) return tfcc_test_finish("stream_release");
  const int32_t K = 3 * 3 * 512, na = 512, nb = 256, ns = 256;
  const size_t off[N_T] = {64 * KIB, 64 * KIB + 10 * MIB, 64 * KIB + 15 * MIB};
  const int32_t rows[N_T] = {na, nb, ns};
  tfcc_ir_tensor t[N_T];
  memset(t, 0, sizeof t);
  float *copy[N_T] = {NULL, NULL, NULL};
  uint32_t rng = 1u;
  for (int i = 0; i < N_T; i++) {
    t[i].data = region + off[i];
    t[i].data_bytes = (size_t)rows[i] * (size_t)K * sizeof(float);
    t[i].dtype = TFCC_FLOAT32;
    float *d = (float *)(void *)(region + off[i]);
    copy[i] = malloc(t[i].data_bytes);
    CHECK(copy[i] != NULL);
    if (!copy[i]) return tfcc_test_finish("stream_release");
    for (size_t j = 0; j < t[i].data_bytes / sizeof(float); j++) {
      rng = rng * 1664525u + 1013904223u;
      d[j] = (float)(int32_t)(rng >> 20) - 2048.0f;
    }
    memcpy(copy[i], d, t[i].data_bytes);
  }
  /* node 0 reads A, node 1 B, nodes 2 and 3 the shared filter */
  int32_t in[4] = {T_A, T_B, T_SHARED, T_SHARED};
  tfcc_ir_node nd[4];
  memset(nd, 0, sizeof nd);
  for (int i = 0; i < 4; i++) {
    nd[i].n_inputs = 1;
    nd[i].inputs = &in[i];
  }
  tfcc_ir_subgraph sg = {.n_tensors = N_T, .tensors = t, .n_nodes = 4, .nodes = nd};
  tfcc_graph g = {.n_subgraphs = 1, .subgraphs = &sg};
  tfcc_const_release r;
  CHECK(tfcc_const_release_init(&r, &g, region, size, false, NULL));
  r.trap = true; /* as TFCC_DEBUG_RELEASE_TRAP=1: a read of a given back byte faults */
  tfcc_const_release_prepare(&r);
  const tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_packed_owner owner[4];
  for (int i = 0; i < 4; i++) atomic_init(&owner[i].given_back, 0);
  tfcc_packed_store *s = &r.store;
  pack_node(&r, isa, 0, &owner[0], &t[T_A], na, K, copy[T_A]);
  /* A's whole huge pages went while it was packed: before it is consumed, before node 1 */
  const size_t huge_a = whole_huge(t[T_A].data, t[T_A].data_bytes);
  CHECKF(huge_a >= 6 * MIB && r.released_bytes == huge_a, "%zu of %zu", r.released_bytes, huge_a);
  /* and its owner heard of it (a grouped CONV_2D shape must not read it: conv_grouped_check) */
  CHECKF(tfcc_packed_given_back(&owner[0]) == (size_t)na * K * sizeof(float), "%zu",
         tfcc_packed_given_back(&owner[0]));
  s->consumed(s, &owner[0], t[T_A].data); /* its 4 KiB ends, not its huge pages again */
  const size_t after_a = r.released_bytes;
  CHECKF(after_a == whole_pages(t[T_A].data, t[T_A].data_bytes), "%zu", after_a);
  /* the next node: its source's whole huge pages given back during its own packing */
  pack_node(&r, isa, 1, &owner[1], &t[T_B], nb, K, copy[T_B]);
  const size_t huge_b = whole_huge(t[T_B].data, t[T_B].data_bytes);
  CHECKF(huge_b >= 2 * MIB && r.released_bytes == after_a + huge_b, "%zu %zu", r.released_bytes,
         huge_b);
  s->consumed(s, &owner[1], t[T_B].data);
  /* two readers: neither streams it away; given back once both consumed it */
  const size_t before_shared = r.released_bytes;
  pack_node(&r, isa, 2, &owner[2], &t[T_SHARED], ns, K, copy[T_SHARED]);
  s->consumed(s, &owner[2], t[T_SHARED].data);
  CHECKF(r.released_bytes == before_shared, "%zu %zu", r.released_bytes, before_shared);
  CHECK(tfcc_packed_given_back(&owner[2]) == 0); /* nothing streamed: its owner gave none */
  pack_node(&r, isa, 3, &owner[3], &t[T_SHARED], ns, K, copy[T_SHARED]);
  s->consumed(s, &owner[3], t[T_SHARED].data);
  const size_t huge_s = whole_huge(t[T_SHARED].data, t[T_SHARED].data_bytes);
  CHECKF(r.released_bytes >= before_shared + huge_s, "%zu", r.released_bytes);
  /* the seal: every whole page of each filter, once */
  tfcc_const_release_seal(&r);
  size_t pages = 0;
  for (int i = 0; i < N_T; i++) pages += whole_pages(t[i].data, t[i].data_bytes);
  CHECKF(r.released_bytes == pages, "%zu %zu", r.released_bytes, pages);
  tfcc_const_release_free(&r);
  for (int i = 0; i < N_T; i++) free(copy[i]);
  (void)munmap(region, size);
  return tfcc_test_finish("stream_release");
}
