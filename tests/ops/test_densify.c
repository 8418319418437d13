/* DENSIFY: CSR level, block-sparse (block_map) level, and malformed metadata; the dense data
 * as a block of the weights cache (cache57: written once, then taken without reading the sparse
 * values). */
#include "shape_test_util.h"

static char msg[1024];

/* A weights-cache store holding one block (ops/packed_store.h), counting its calls. */
typedef struct one_store {
  tfcc_packed_store base;
  void *blk;
  size_t bytes;
  int32_t node;
  uint32_t id;
  int gets, hits, puts;
} one_store;

static const void *one_get(tfcc_packed_store *s, int32_t node, uint32_t block, size_t bytes) {
  one_store *o = (one_store *)s;
  o->gets++;
  if (!o->blk || o->node != node || o->id != block || o->bytes != bytes) return NULL;
  o->hits++;
  return o->blk;
}

static void one_put(tfcc_packed_store *s, int32_t node, uint32_t block, const void *data,
                    size_t bytes) {
  one_store *o = (one_store *)s;
  o->puts++;
  free(o->blk);
  o->blk = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
  if (o->blk) memcpy(o->blk, data, bytes);
  o->bytes = bytes, o->node = node, o->id = block;
}

static one_store *g_store; /* run_densify's init context's store (NULL: none) */

static tfcc_sparse_index idx32(const int32_t *v, uint32_t n) {
  tfcc_sparse_index s = {TFCC_SPARSE_IDX_I32, n, (const uint8_t *)v};
  return s;
}

/* Runs init + prepare + eval on sparse tensor t; returns status. */
static tfcc_status run_densify(tfcc_ir_tensor *t, tfcc_tensor *out) {
  tfcc_ir_tensor tensors[2];
  tensors[0] = *t;
  memset(&tensors[1], 0, sizeof(tensors[1]));
  int32_t ins[1] = {0}, outs[1] = {1};
  tfcc_ir_node node;
  memset(&node, 0, sizeof(node));
  node.builtin = TFCC_OP_DENSIFY;
  node.n_inputs = 1;
  node.n_outputs = 1;
  node.inputs = ins;
  node.outputs = outs;
  tfcc_ir_subgraph sg;
  memset(&sg, 0, sizeof(sg));
  sg.n_tensors = 2;
  sg.tensors = tensors;
  tfcc_err err = {0};
  tfcc_init_ctx ic = {.sg = &sg,
                      .node = &node,
                      .node_index = 3,
                      .store = g_store ? &g_store->base : NULL,
                      .err = &err,
                      .ks = tfcc_kernel_set_for(TFCC_ISA_GENERIC)};
  const tfcc_op_def *op = tfcc_op_lookup(TFCC_OP_DENSIFY);
  tfcc_status st = op->init(&ic);
  snprintf(msg, sizeof msg, "%s", err.msg);
  if (st) return st;
  tfcc_tensor in = st_tensor(t->dtype, t->rank, t->dims, NULL);
  tfcc_tensor *inp[] = {&in}, *outp[] = {out};
  tfcc_op_ctx ctx = {.node = &node,
                     .params = ic.params,
                     .in = inp,
                     .n_in = 1,
                     .out = outp,
                     .n_out = 1,
                     .err = &err,
                     .ks = tfcc_kernel_set_for(TFCC_ISA_GENERIC)};
  st = op->prepare(&ctx);
  if (st == TFCC_OK) {
    out->bytes = (size_t)tfcc_tensor_elements(out) * tfcc_dtype_size(out->dtype);
    out->data = malloc(out->bytes);
    st = op->eval(&ctx);
  }
  snprintf(msg, sizeof msg, "%s", err.msg);
  free(ic.params);
  st_free(&in);
  return st;
}

static void test_csr(void) {
  /* Dense [3,4] float:  row0: 0 1.5 0 0 | row1: 0 0 0 0 | row2: 2 0 0 3 */
  float vals[3] = {1.5f, 2.0f, 3.0f};
  int32_t order[2] = {0, 1};
  int32_t seg[4] = {0, 1, 1, 3}, ind[3] = {1, 0, 3};
  tfcc_dim_meta dm[2];
  memset(dm, 0, sizeof dm);
  dm[0].format = 0;
  dm[0].dense_size = 3;
  dm[1].format = 1;
  dm[1].segments = idx32(seg, 4);
  dm[1].indices = idx32(ind, 3);
  tfcc_sparsity sp = {2, order, 0, NULL, 2, dm};
  tfcc_ir_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = TFCC_FLOAT32;
  t.rank = 2;
  t.dims[0] = 3;
  t.dims[1] = 4;
  t.data = vals;
  t.data_bytes = sizeof vals;
  t.sparsity = &sp;
  tfcc_tensor o = st_output(TFCC_FLOAT32);
  CHECKF(run_densify(&t, &o) == TFCC_OK, "%s", msg);
  float want[12] = {0, 1.5f, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3};
  CHECK(o.rank == 2 && o.dims[1] == 4 && memcmp(o.data, want, sizeof want) == 0);
  st_free(&o);
  /* Index out of range is rejected at init. */
  ind[2] = 4;
  CHECK(run_densify(&t, &o) == TFCC_ERR_INVALID_MODEL);
  ind[2] = 3;
  /* Too few values for the metadata. */
  t.data_bytes = 2 * sizeof(float);
  CHECK(run_densify(&t, &o) == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(msg, "values") != NULL, "%s", msg);
}

static void test_block(void) {
  /* Dense [2,4] int8 with 1x2 blocks along dim 1: blocked shape [2,2];
   * row0: block1 = (5,6); row1: block0 = (7,8). */
  int8_t vals[4] = {5, 6, 7, 8};
  int32_t order[3] = {0, 1, 2}, bmap[1] = {1};
  int32_t seg[3] = {0, 1, 2}, ind[2] = {1, 0};
  tfcc_dim_meta dm[3];
  memset(dm, 0, sizeof dm);
  dm[0].format = 0;
  dm[0].dense_size = 2;
  dm[1].format = 1;
  dm[1].segments = idx32(seg, 3);
  dm[1].indices = idx32(ind, 2);
  dm[2].format = 0;
  dm[2].dense_size = 2;
  tfcc_sparsity sp = {3, order, 1, bmap, 3, dm};
  tfcc_ir_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = TFCC_INT8;
  t.rank = 2;
  t.dims[0] = 2;
  t.dims[1] = 4;
  t.data = vals;
  t.data_bytes = sizeof vals;
  t.sparsity = &sp;
  tfcc_tensor o = st_output(TFCC_INT8);
  CHECKF(run_densify(&t, &o) == TFCC_OK, "%s", msg);
  int8_t want[8] = {0, 0, 5, 6, 7, 8, 0, 0};
  CHECK(memcmp(o.data, want, sizeof want) == 0);
  st_free(&o);
  dm[2].dense_size = 3; /* block size does not divide the dimension */
  CHECK(run_densify(&t, &o) == TFCC_ERR_INVALID_MODEL);
}

/* The dense data is block TFCC_BLOCK_DENSIFY of the node: a load with a store writes it, a
 * later one takes it (the same output though the sparse values changed: not read), a block of
 * another size is not taken. */
static void test_cached(void) {
  float vals[3] = {1.5f, 2.0f, 3.0f};
  int32_t order[2] = {0, 1};
  int32_t seg[4] = {0, 1, 1, 3}, ind[3] = {1, 0, 3};
  tfcc_dim_meta dm[2];
  memset(dm, 0, sizeof dm);
  dm[0].dense_size = 3;
  dm[1].format = 1;
  dm[1].segments = idx32(seg, 4);
  dm[1].indices = idx32(ind, 3);
  tfcc_sparsity sp = {2, order, 0, NULL, 2, dm};
  tfcc_ir_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = TFCC_FLOAT32;
  t.rank = 2;
  t.dims[0] = 3;
  t.dims[1] = 4;
  t.data = vals;
  t.data_bytes = sizeof vals;
  t.sparsity = &sp;
  one_store st;
  memset(&st, 0, sizeof st);
  st.base.get = one_get;
  st.base.put = one_put;
  g_store = &st;
  const float want[12] = {0, 1.5f, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3};
  tfcc_tensor o = st_output(TFCC_FLOAT32);
  CHECKF(run_densify(&t, &o) == TFCC_OK, "%s", msg);
  CHECK(o.data && memcmp(o.data, want, sizeof want) == 0);
  st_free(&o);
  CHECKF(st.puts == 1 && st.hits == 0 && st.bytes == sizeof want && st.node == 3 &&
             st.id == TFCC_BLOCK_DENSIFY && st.blk && memcmp(st.blk, want, sizeof want) == 0,
         "cold: %d puts %d hits, %zu bytes node %d block %u", st.puts, st.hits, st.bytes,
         (int)st.node, (unsigned)st.id);
  vals[0] = 9.f; /* a warm load reads the cache's block, not the sparse values */
  o = st_output(TFCC_FLOAT32);
  CHECKF(run_densify(&t, &o) == TFCC_OK, "%s", msg);
  CHECK(st.hits == 1 && st.puts == 1 && o.data && memcmp(o.data, want, sizeof want) == 0);
  st_free(&o);
  st.bytes = 8; /* a block of another size is not taken: packed again, from the values */
  o = st_output(TFCC_FLOAT32);
  CHECKF(run_densify(&t, &o) == TFCC_OK, "%s", msg);
  const float want9[12] = {0, 9.f, 0, 0, 0, 0, 0, 0, 2, 0, 0, 3};
  CHECK(st.puts == 2 && o.data && memcmp(o.data, want9, sizeof want9) == 0);
  st_free(&o);
  g_store = NULL;
  free(st.blk);
}

int main(void) {
  test_csr();
  test_block();
  test_cached();
  return tfcc_test_finish("ops.test_densify");
}
