/* Loader robustness: a hand-assembled tiny model (no dependency on ../shared) is loaded
 * intact, then damaged in every way we can think of: every truncation length, thousands of
 * seeded random byte flips, and hand-made hostile variants (huge counts, self-referencing
 * and out-of-range offsets, broken vtables, out-of-range indices, bad shapes, bad
 * quantization, bad sparsity, lying buffers). Every damaged file must fail cleanly with
 * TFCC_ERR_INVALID_MODEL (or load, for harmless flips) and never crash: run under
 * ASan+UBSan. Every buffer handed to the loader is a malloc of exactly its size, so any read
 * past the end is caught. Shared models, when present, get the truncation and flip tests
 * too. */
#include <stdlib.h>
#include <string.h>

#include "format/tflite_reader.h"
#include "test_harness.h"

/* ---------------------------------------------------------------- a tiny FlatBuffer builder
 * Objects are appended front to back, children after their parents, so every uoffset points
 * forward as FlatBuffers requires. Each table gets its own vtable just before it and 8-byte
 * field slots. */
typedef struct fbb {
  uint8_t b[1u << 19];
  size_t len;
} fbb;

static void put16(uint8_t *b, size_t at, uint16_t v) {
  b[at] = (uint8_t)v;
  b[at + 1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *b, size_t at, uint32_t v) {
  for (int k = 0; k < 4; k++) b[at + (size_t)k] = (uint8_t)(v >> (8 * k));
}
static void put64(uint8_t *b, size_t at, uint64_t v) {
  for (int k = 0; k < 8; k++) b[at + (size_t)k] = (uint8_t)(v >> (8 * k));
}
static uint32_t get32(const uint8_t *b, size_t at) {
  return (uint32_t)b[at] | (uint32_t)b[at + 1] << 8 | (uint32_t)b[at + 2] << 16 |
         (uint32_t)b[at + 3] << 24;
}

static size_t reserve(fbb *f, size_t n, size_t align) {
  while (f->len % align) f->b[f->len++] = 0;
  size_t at = f->len;
  if (at + n > sizeof f->b) abort(); /* test bug, not a loader failure */
  memset(f->b + at, 0, n);
  f->len += n;
  return at;
}

static size_t table(fbb *f, int nfields) {
  size_t vt = reserve(f, 4 + 2 * (size_t)nfields, 4);
  put16(f->b, vt, (uint16_t)(4 + 2 * nfields));
  put16(f->b, vt + 2, (uint16_t)(4 + 8 * nfields));
  size_t t = reserve(f, 4 + 8 * (size_t)nfields, 8);
  put32(f->b, t, (uint32_t)(t - vt));
  return t;
}

static size_t slot(fbb *f, size_t t, int field) {
  size_t vt = t - get32(f->b, t);
  put16(f->b, vt + 4 + 2 * (size_t)field, (uint16_t)(4 + 8 * field));
  return t + 4 + 8 * (size_t)field;
}

static void scalar(fbb *f, size_t t, int field, uint64_t v, int size) {
  size_t at = slot(f, t, field);
  for (int k = 0; k < size; k++) f->b[at + (size_t)k] = (uint8_t)(v >> (8 * k));
}

static void ref(fbb *f, size_t t, int field, size_t target) {
  size_t at = slot(f, t, field);
  put32(f->b, at, (uint32_t)(target - at));
}

static size_t vec(fbb *f, uint32_t count, size_t elem, const void *data) {
  size_t at = reserve(f, 4 + count * elem, 4);
  put32(f->b, at, count);
  if (data) memcpy(f->b + at + 4, data, count * elem); /* host is little-endian (x86/arm) */
  return at;
}

static size_t vec_i32(fbb *f, uint32_t count, const int32_t *v) { return vec(f, count, 4, v); }

static size_t str(fbb *f, const char *s) {
  size_t n = strlen(s);
  size_t at = reserve(f, 4 + n + 1, 4);
  put32(f->b, at, (uint32_t)n);
  memcpy(f->b + at + 4, s, n);
  return at;
}

static void vec_set(fbb *f, size_t v, uint32_t i, size_t target) {
  size_t at = v + 4 + 4 * (size_t)i;
  put32(f->b, at, (uint32_t)(target - at));
}

/* ---------------------------------------------------------------- the tiny model */
enum { NT = 8, NB = 5 };

/* Where the interesting bytes of the built model are, for the hostile variants. */
typedef struct model_pos {
  size_t root, version, opcodes, opcode[3], subgraphs, subgraph, tensors, tensor[NT], shape[NT];
  size_t quant4, quant5, sparsity6, dim0, seg0, idx0, buffers, buffer[NB], data1;
  size_t op_vec, op[3], op0_inputs, op0_outputs, op2_outputs, sub_inputs, sig_in_map, sig,
      metadata0, sig_vec;
} model_pos;

static size_t build_model(fbb *f, model_pos *p) {
  f->len = 0;
  memset(p, 0, sizeof *p);
  reserve(f, 8, 4);
  memcpy(f->b + 4, "TFL3", 4);
  p->root = table(f, 8);
  put32(f->b, 0, (uint32_t)p->root);
  scalar(f, p->root, 0, 3, 4);
  p->version = slot(f, p->root, 0);
  ref(f, p->root, 3, str(f, "tiny"));

  /* operator codes: ADD (old style), GELU (127 + builtin_code), CUSTOM "MyOp" */
  p->opcodes = vec(f, 3, 4, NULL);
  ref(f, p->root, 1, p->opcodes);
  for (int i = 0; i < 3; i++) {
    p->opcode[i] = table(f, 4);
    vec_set(f, p->opcodes, (uint32_t)i, p->opcode[i]);
  }
  scalar(f, p->opcode[0], 0, 0, 1);
  scalar(f, p->opcode[1], 0, 127, 1);
  scalar(f, p->opcode[1], 3, 150, 4);
  scalar(f, p->opcode[1], 2, 2, 4);
  scalar(f, p->opcode[2], 0, 32, 1);
  scalar(f, p->opcode[2], 3, 32, 4);
  ref(f, p->opcode[2], 1, str(f, "MyOp"));

  /* buffers: 0 empty, 1 float[4], 2 sparse values float[2], 3 int8[4], 4 metadata bytes */
  p->buffers = vec(f, NB, 4, NULL);
  ref(f, p->root, 4, p->buffers);
  for (int i = 0; i < NB; i++) {
    p->buffer[i] = table(f, 3);
    vec_set(f, p->buffers, (uint32_t)i, p->buffer[i]);
  }
  static const float k_const[4] = {1, 2, 3, 4};
  static const float k_sparse[2] = {5, 6};
  static const int8_t k_w[4] = {1, -2, 3, -4};
  p->data1 = vec(f, 16, 1, k_const);
  ref(f, p->buffer[1], 0, p->data1);
  ref(f, p->buffer[2], 0, vec(f, 8, 1, k_sparse));
  ref(f, p->buffer[3], 0, vec(f, 4, 1, k_w));
  ref(f, p->buffer[4], 0, vec(f, 4, 1, "meta"));

  /* one subgraph */
  p->subgraphs = vec(f, 1, 4, NULL);
  ref(f, p->root, 2, p->subgraphs);
  p->subgraph = table(f, 5);
  vec_set(f, p->subgraphs, 0, p->subgraph);
  ref(f, p->subgraph, 4, str(f, "main"));
  p->tensors = vec(f, NT, 4, NULL);
  ref(f, p->subgraph, 0, p->tensors);
  static const char *const names[NT] = {"in",   "const", "out",    "gelu_out",
                                        "w_pc", "bias",  "sparse", "custom_out"};
  static const int32_t s14[] = {1, 4}, s22[] = {2, 2}, s2[] = {2}, s4[] = {4}, sig[] = {-1, 4};
  const int32_t *shapes[NT] = {s14, s14, s14, s14, s22, s2, s4, s14};
  const uint32_t ranks[NT] = {2, 2, 2, 2, 2, 1, 1, 2};
  const int types[NT] = {0, 0, 0, 0, 9, 2, 0, 0};
  const uint32_t bufs[NT] = {0, 1, 0, 0, 3, 0, 2, 0};
  for (int i = 0; i < NT; i++) {
    size_t t = table(f, 10);
    p->tensor[i] = t;
    vec_set(f, p->tensors, (uint32_t)i, t);
    p->shape[i] = vec_i32(f, ranks[i], shapes[i]);
    ref(f, t, 0, p->shape[i]);
    scalar(f, t, 1, (uint64_t)types[i], 1);
    if (bufs[i]) scalar(f, t, 2, bufs[i], 4);
    ref(f, t, 3, str(f, names[i]));
  }
  ref(f, p->tensor[0], 7, vec_i32(f, 2, sig));
  /* per-channel int8 weights: axis 0, two scales */
  static const float sc2[] = {0.5f, 0.25f};
  static const int64_t zp2[] = {0, 0}, zp1[] = {0};
  p->quant4 = table(f, 7);
  ref(f, p->tensor[4], 4, p->quant4);
  ref(f, p->quant4, 2, vec(f, 2, 4, sc2));
  ref(f, p->quant4, 3, vec(f, 2, 8, zp2));
  scalar(f, p->quant4, 6, 0, 4);
  /* 1-D per-channel bias with quantized_dimension 3 and a single zero point */
  p->quant5 = table(f, 7);
  ref(f, p->tensor[5], 4, p->quant5);
  ref(f, p->quant5, 2, vec(f, 2, 4, sc2));
  ref(f, p->quant5, 3, vec(f, 1, 8, zp1));
  scalar(f, p->quant5, 6, 3, 4);
  /* sparse [4]: CSR, segments (uint8) [0,2], indices (uint16) [1,3] */
  static const int32_t trav[] = {0};
  static const uint8_t seg[] = {0, 2};
  static const uint16_t idx[] = {1, 3};
  p->sparsity6 = table(f, 3);
  ref(f, p->tensor[6], 6, p->sparsity6);
  ref(f, p->sparsity6, 0, vec_i32(f, 1, trav));
  size_t dims = vec(f, 1, 4, NULL);
  ref(f, p->sparsity6, 2, dims);
  p->dim0 = table(f, 6);
  vec_set(f, dims, 0, p->dim0);
  scalar(f, p->dim0, 0, 1, 1);
  scalar(f, p->dim0, 2, 3, 1); /* Uint8Vector */
  size_t segt = table(f, 1);
  ref(f, p->dim0, 3, segt);
  p->seg0 = vec(f, 2, 1, seg);
  ref(f, segt, 0, p->seg0);
  scalar(f, p->dim0, 4, 2, 1); /* Uint16Vector */
  size_t idxt = table(f, 1);
  ref(f, p->dim0, 5, idxt);
  p->idx0 = vec(f, 2, 2, idx);
  ref(f, idxt, 0, p->idx0);

  static const int32_t in0[] = {0}, out7[] = {7};
  p->sub_inputs = vec_i32(f, 1, in0);
  ref(f, p->subgraph, 1, p->sub_inputs);
  ref(f, p->subgraph, 2, vec_i32(f, 1, out7));

  /* operators */
  p->op_vec = vec(f, 3, 4, NULL);
  ref(f, p->subgraph, 3, p->op_vec);
  for (int i = 0; i < 3; i++) {
    p->op[i] = table(f, 13);
    vec_set(f, p->op_vec, (uint32_t)i, p->op[i]);
    scalar(f, p->op[i], 0, (uint64_t)i, 4);
  }
  static const int32_t i01[] = {0, 1}, o2[] = {2}, i2[] = {2}, o3[] = {3}, i3[] = {3, -1};
  p->op0_inputs = vec_i32(f, 2, i01);
  ref(f, p->op[0], 1, p->op0_inputs);
  p->op0_outputs = vec_i32(f, 1, o2);
  ref(f, p->op[0], 2, p->op0_outputs);
  scalar(f, p->op[0], 3, 11, 1); /* AddOptions */
  size_t addopt = table(f, 1);
  ref(f, p->op[0], 4, addopt);
  scalar(f, addopt, 0, 1, 1); /* RELU */
  ref(f, p->op[1], 1, vec_i32(f, 1, i2));
  ref(f, p->op[1], 2, vec_i32(f, 1, o3));
  ref(f, p->op[2], 1, vec_i32(f, 2, i3));
  p->op2_outputs = vec_i32(f, 1, out7);
  ref(f, p->op[2], 2, p->op2_outputs);
  ref(f, p->op[2], 5, vec(f, 3, 1, "\x01\x02\x03"));

  /* metadata and a signature */
  size_t md = vec(f, 1, 4, NULL);
  ref(f, p->root, 6, md);
  p->metadata0 = table(f, 2);
  vec_set(f, md, 0, p->metadata0);
  ref(f, p->metadata0, 0, str(f, "min_runtime_version"));
  scalar(f, p->metadata0, 1, 4, 4);
  p->sig_vec = vec(f, 1, 4, NULL);
  ref(f, p->root, 7, p->sig_vec);
  p->sig = table(f, 5);
  vec_set(f, p->sig_vec, 0, p->sig);
  ref(f, p->sig, 2, str(f, "serving_default"));
  size_t ins = vec(f, 1, 4, NULL), outs = vec(f, 1, 4, NULL);
  ref(f, p->sig, 0, ins);
  ref(f, p->sig, 1, outs);
  p->sig_in_map = table(f, 2);
  vec_set(f, ins, 0, p->sig_in_map);
  ref(f, p->sig_in_map, 0, str(f, "x"));
  size_t om = table(f, 2);
  vec_set(f, outs, 0, om);
  ref(f, om, 0, str(f, "y"));
  scalar(f, om, 1, 7, 4);
  return f->len;
}

/* ---------------------------------------------------------------- helpers */
static void check_graph_sane(const tfcc_graph *g) {
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t i = 0; i < sg->n_inputs; i++)
      CHECK(sg->inputs[i] >= 0 && sg->inputs[i] < sg->n_tensors);
    for (int32_t i = 0; i < sg->n_outputs; i++)
      CHECK(sg->outputs[i] >= 0 && sg->outputs[i] < sg->n_tensors);
    for (int32_t n = 0; n < sg->n_nodes; n++) {
      const tfcc_ir_node *node = &sg->nodes[n];
      for (int32_t k = 0; k < node->n_inputs; k++)
        CHECK(node->inputs[k] >= -1 && node->inputs[k] < sg->n_tensors);
      for (int32_t k = 0; k < node->n_outputs; k++)
        CHECK(node->outputs[k] >= 0 && node->outputs[k] < sg->n_tensors);
      /* every node's options are of its operator's kind (verified and filled at load) */
      CHECK(node->opts.kind == tfcc_options_kind_of(node->builtin));
      if (node->custom_options_len)
        CHECK(node->custom_options >= g->file &&
              node->custom_options + node->custom_options_len <= g->file + g->file_size);
    }
    for (int32_t t = 0; t < sg->n_tensors; t++) {
      const tfcc_ir_tensor *x = &sg->tensors[t];
      CHECK(x->rank >= 0 && x->rank <= TFCC_MAX_RANK);
      for (int32_t d = 0; d < x->rank; d++) CHECK(x->dims[d] >= 0);
      if (x->data && x->data_bytes) {
        /* touch the first and last byte: ASan checks they are readable */
        volatile uint8_t a = ((const uint8_t *)x->data)[0];
        volatile uint8_t b = ((const uint8_t *)x->data)[x->data_bytes - 1];
        (void)a;
        (void)b;
      }
      if (x->quant.count > 1) CHECK(x->quant.axis >= 0 && x->quant.axis < x->rank);
      if (x->sparsity)
        for (int32_t k = 0; k < x->sparsity->n_dim_meta; k++) {
          const tfcc_dim_meta *dm = &x->sparsity->dim_meta[k];
          if (dm->indices.count) (void)tfcc_sparse_index_get(&dm->indices, dm->indices.count - 1);
        }
    }
  }
}

/* Loads bytes (exact-size copy) and, on success, checks the graph is sane. */
static tfcc_status load_checked(const uint8_t *bytes, size_t n, tfcc_err *err) {
  uint8_t *copy = malloc(n ? n : 1);
  memcpy(copy, bytes, n);
  tfcc_graph g;
  tfcc_status st = tfcc_tflite_read(copy, n, &g, err);
  if (st == TFCC_OK) {
    check_graph_sane(&g);
    tfcc_graph_free(&g);
  } else {
    CHECKF(err->msg[0] != 0, "status %d without a message", (int)st);
    CHECK(g.blocks == NULL && g.subgraphs == NULL);
  }
  free(copy);
  return st;
}

/* The tiny model built in f, and an exact-size copy of it (*n bytes) to read. */
static uint8_t *tiny_model_copy(fbb *f, size_t *n) {
  model_pos p;
  *n = build_model(f, &p);
  uint8_t *copy = malloc(*n);
  memcpy(copy, f->b, *n);
  return copy;
}

/* ---------------------------------------------------------------- tests */
static void test_valid_tiny_model(void) {
  static fbb f;
  size_t n;
  uint8_t *copy = tiny_model_copy(&f, &n);
  tfcc_graph g;
  tfcc_err err = {0};
  tfcc_status st = tfcc_tflite_read(copy, n, &g, &err);
  CHECKF(st == TFCC_OK, "tiny model: %s", err.msg);
  if (st == TFCC_OK) {
    CHECK(g.schema_version == 3);
    CHECK(strcmp(g.description, "tiny") == 0);
    CHECK(g.n_subgraphs == 1);
    const tfcc_ir_subgraph *sg = &g.subgraphs[0];
    CHECK(strcmp(sg->name, "main") == 0);
    CHECK(sg->n_tensors == NT && sg->n_nodes == 3);
    CHECK(sg->n_inputs == 1 && sg->inputs[0] == 0);
    CHECK(sg->n_outputs == 1 && sg->outputs[0] == 7);
    CHECK(sg->nodes[0].builtin == TFCC_OP_ADD && sg->nodes[0].version == 1);
    CHECK(sg->nodes[1].builtin == TFCC_OP_GELU && sg->nodes[1].version == 2);
    CHECK(sg->nodes[2].builtin == TFCC_OP_CUSTOM);
    CHECK(sg->nodes[2].custom_code && strcmp(sg->nodes[2].custom_code, "MyOp") == 0);
    CHECK(sg->nodes[2].n_inputs == 2 && sg->nodes[2].inputs[1] == -1);
    CHECK(sg->nodes[2].custom_options_len == 3 && sg->nodes[2].custom_options[2] == 3);
    CHECK(sg->nodes[0].options_type == 11);
    CHECK(sg->nodes[0].opts.kind == TFCC_OPTIONS_ARITH && sg->nodes[0].opts.arith.activation == 1);
    CHECK(sg->nodes[0].opts.arith.pot_scale_int16); /* AddOptions default with a table */
    CHECK(sg->nodes[1].opts.kind == TFCC_OPTIONS_GELU && !sg->nodes[1].opts.gelu.approximate);
    const tfcc_ir_tensor *t = sg->tensors;
    CHECK(strcmp(t[0].name, "in") == 0 && t[0].rank == 2 && t[0].dims[1] == 4);
    CHECK(t[0].has_signature && t[0].signature[0] == -1 && t[0].signature[1] == 4);
    CHECK(!t[2].has_signature && t[2].signature[0] == 1);
    CHECK(t[1].data != NULL && t[1].data_bytes == 16 && ((const float *)t[1].data)[3] == 4.0f);
    CHECK(t[1].buffer == 1);
    CHECK(t[0].data == NULL && t[2].data == NULL);
    CHECK(t[4].dtype == TFCC_INT8 && t[4].quant.count == 2 && t[4].quant.axis == 0);
    CHECK(t[4].quant.scale[1] == 0.25f && t[4].quant.zero_point[1] == 0);
    CHECK(t[5].quant.count == 2 && t[5].quant.axis == 0); /* 1-D, quantized_dimension 3 */
    CHECK(t[6].sparsity != NULL && t[6].data_bytes == 8);
    if (t[6].sparsity) {
      const tfcc_dim_meta *dm = &t[6].sparsity->dim_meta[0];
      CHECK(dm->format == 1 && dm->segments.type == TFCC_SPARSE_IDX_U8);
      CHECK(dm->indices.type == TFCC_SPARSE_IDX_U16 && dm->indices.count == 2);
      CHECK(tfcc_sparse_index_get(&dm->indices, 1) == 3);
    }
    CHECK(g.n_metadata == 1 && strcmp(g.metadata[0].name, "min_runtime_version") == 0);
    CHECK(g.metadata[0].size == 4 && memcmp(g.metadata[0].data, "meta", 4) == 0);
    CHECK(g.n_signatures == 1 && strcmp(g.signatures[0].key, "serving_default") == 0);
    CHECK(g.signatures[0].n_inputs == 1 && strcmp(g.signatures[0].input_names[0], "x") == 0);
    CHECK(g.signatures[0].input_tensors[0] == 0 && g.signatures[0].output_tensors[0] == 7);
    check_graph_sane(&g);
    tfcc_graph_free(&g);
  }
  free(copy);
  /* Without the file identifier the model still loads (FlatBuffers makes it optional). */
  memcpy(f.b + 4, "\0\0\0\0", 4);
  st = load_checked(f.b, n, &err);
  CHECKF(st == TFCC_OK, "no identifier: %s", err.msg);
  /* A NULL err is allowed. */
  uint8_t *c2 = malloc(n);
  memcpy(c2, f.b, n);
  tfcc_graph g2;
  CHECK(tfcc_tflite_read(c2, n, &g2, NULL) == TFCC_OK);
  tfcc_graph_free(&g2);
  CHECK(tfcc_tflite_read(c2, 3, &g2, NULL) == TFCC_ERR_INVALID_MODEL);
  free(c2);
}

static void truncations(const char *what, const uint8_t *bytes, size_t n) {
  int loaded = 0;
  for (size_t len = 0; len < n; len++) {
    tfcc_err err = {0};
    tfcc_status st = load_checked(bytes, len, &err);
    if (st == TFCC_OK)
      loaded++;
    else
      CHECKF(st == TFCC_ERR_INVALID_MODEL, "%s truncated to %zu: status %d: %s", what, len, (int)st,
             err.msg);
  }
  CHECKF(loaded == 0, "%s: %d truncations loaded", what, loaded);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void byte_flips(const char *what, const uint8_t *bytes, size_t n, int rounds, size_t limit) {
  uint8_t *m = malloc(n);
  int ok = 0, bad = 0;
  /* Flip within the first `limit` bytes (the FlatBuffer metadata, not weights) mostly. */
  size_t span = limit && limit < n ? limit : n;
  for (int r = 0; r < rounds; r++) {
    memcpy(m, bytes, n);
    int flips = 1 + (int)(rnd() % 4);
    for (int k = 0; k < flips; k++) {
      size_t at = (size_t)(rnd() % (rnd() % 4 ? span : n));
      switch (rnd() % 4) {
        case 0: m[at] ^= (uint8_t)(1u << (rnd() % 8)); break;
        case 1: m[at] = (uint8_t)rnd(); break;
        case 2: m[at] = 0xff; break;
        default: m[at] = 0; break;
      }
    }
    tfcc_err err = {0};
    tfcc_status st = load_checked(m, n, &err);
    if (st == TFCC_OK)
      ok++;
    else {
      bad++;
      CHECKF(st == TFCC_ERR_INVALID_MODEL || st == TFCC_ERR_UNSUPPORTED, "%s flip: status %d", what,
             (int)st);
    }
  }
  printf("%s: %d flipped files loaded, %d rejected\n", what, ok, bad);
  free(m);
}

/* Builds the tiny model, applies `patch`, expects failure with `needle` in the message. */
typedef void (*patch_fn)(fbb *f, const model_pos *p);

static void expect_invalid(const char *name, patch_fn patch, const char *needle) {
  static fbb f;
  model_pos p;
  size_t n = build_model(&f, &p);
  patch(&f, &p);
  if (f.len > n) n = f.len;
  tfcc_err err = {0};
  tfcc_status st = load_checked(f.b, n, &err);
  CHECKF(st == TFCC_ERR_INVALID_MODEL, "%s: status %d (%s)", name, (int)st, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "%s: message \"%s\" lacks \"%s\"", name, err.msg, needle);
}

/* Patches. Vectors: count at pos, elements from pos + 4. */
static void p_huge_tensor_count(fbb *f, const model_pos *p) { put32(f->b, p->tensors, 0x7fffffff); }
static void p_huge_opcode_count(fbb *f, const model_pos *p) { put32(f->b, p->opcodes, 0xffffffff); }
static void p_self_offset(fbb *f, const model_pos *p) { put32(f->b, p->tensors + 4, 0); }
static void p_offset_past_end(fbb *f, const model_pos *p) {
  put32(f->b, p->op_vec + 8, 0x7ffffff0);
}
static void p_offset_wrap(fbb *f, const model_pos *p) { put32(f->b, p->op_vec + 8, 0xfffffffc); }
static void p_vtable_out(fbb *f, const model_pos *p) { put32(f->b, p->tensor[3], 0x40000000); }
static void p_vtable_negative(fbb *f, const model_pos *p) {
  put32(f->b, p->tensor[3], (uint32_t)-100000);
}
static void p_vtable_self(fbb *f, const model_pos *p) { put32(f->b, p->op[1], 0); }
static void p_root_past_end(fbb *f, const model_pos *p) { put32(f->b, 0, 123456); }
static void p_version(fbb *f, const model_pos *p) { put32(f->b, p->version, 2); }
static void p_input_index(fbb *f, const model_pos *p) { put32(f->b, p->op0_inputs + 8, 991); }
static void p_input_negative(fbb *f, const model_pos *p) {
  put32(f->b, p->op0_inputs + 4, (uint32_t)-2);
}
static void p_output_optional(fbb *f, const model_pos *p) {
  put32(f->b, p->op0_outputs + 4, (uint32_t)-1);
}
static void p_subgraph_input(fbb *f, const model_pos *p) { put32(f->b, p->sub_inputs + 4, 8); }
static void p_buffer_index(fbb *f, const model_pos *p) {
  /* tensor 1's buffer field: slot 2 */
  put32(f->b, p->tensor[1] + 4 + 16, 77);
}
static void p_opcode_index(fbb *f, const model_pos *p) { put32(f->b, p->op[1] + 4, 3); }
static void p_negative_dim(fbb *f, const model_pos *p) {
  put32(f->b, p->shape[2] + 8, (uint32_t)-4);
}
static void p_rank_100(fbb *f, const model_pos *p) {
  /* a new 100-entry shape vector appended at the end, referenced by tensor 2 */
  size_t v = f->len;
  put32(f->b, v, 100);
  for (int i = 0; i < 100; i++) put32(f->b, v + 4 + 4 * (size_t)i, 1);
  f->len += 404;
  size_t at = p->tensor[2] + 4;
  put32(f->b, at, (uint32_t)(v - at));
}
static void p_dims_overflow(fbb *f, const model_pos *p) {
  size_t v = f->len;
  put32(f->b, v, 6);
  for (int i = 0; i < 6; i++) put32(f->b, v + 4 + 4 * (size_t)i, 0x7fffffff);
  f->len += 28;
  size_t at = p->tensor[3] + 4;
  put32(f->b, at, (uint32_t)(v - at));
}
static void p_const_size(fbb *f, const model_pos *p) { put32(f->b, p->data1, 12); }
static void p_unknown_type(fbb *f, const model_pos *p) { f->b[p->tensor[2] + 4 + 8] = 42; }
static void p_per_axis_count(fbb *f, const model_pos *p) {
  /* tensor 4 is [2,2] with 2 scales on axis 0: make its shape [3,2] (and its data 6) */
  put32(f->b, p->shape[4] + 4, 3);
}
static void p_per_axis_dim(fbb *f, const model_pos *p) {
  put32(f->b, p->quant4 + 4 + 8 * 6, 2); /* quantized_dimension 2 of rank 2 */
}
static void p_zero_point_range(fbb *f, const model_pos *p) {
  /* quant4 zero_point vector: field 3 → follow the offset */
  size_t at = p->quant4 + 4 + 8 * 3;
  size_t v = at + get32(f->b, at);
  put64(f->b, v + 4 + 8, (uint64_t)1 << 40);
}
static void p_zero_point_count(fbb *f, const model_pos *p) {
  size_t at = p->quant4 + 4 + 8 * 3;
  size_t v = at + get32(f->b, at);
  put32(f->b, v, 0); /* 2 scales, 0 zero points */
}
static void p_signature_mismatch(fbb *f, const model_pos *p) {
  size_t at = p->tensor[0] + 4 + 8 * 7;
  size_t v = at + get32(f->b, at);
  put32(f->b, v + 8, 5); /* signature [-1,5] for shape [1,4] */
}
static void p_sparse_index(fbb *f, const model_pos *p) { put16(f->b, p->idx0 + 6, 4); }
static void p_sparse_segments(fbb *f, const model_pos *p) { f->b[p->seg0 + 5] = 1; }
static void p_sparse_type(fbb *f, const model_pos *p) { f->b[p->dim0 + 4 + 16] = 9; }
static void p_buffer_offset(fbb *f, const model_pos *p) {
  /* buffer 1: offset/size fields (slots 1, 2) in a vtable that has 3 slots */
  scalar((fbb *)f, p->buffer[1], 1, 4000, 8);
  scalar((fbb *)f, p->buffer[1], 2, 1 << 20, 8);
}
static void p_custom_no_name(fbb *f, const model_pos *p) {
  size_t vt = p->opcode[2] - get32(f->b, p->opcode[2]);
  put16(f->b, vt + 4 + 2, 0); /* drop custom_code */
}
static void p_duplicate_producer(fbb *f, const model_pos *p) {
  put32(f->b, p->op2_outputs + 4, 3); /* op 1 and op 2 both produce tensor 3 */
}
static void p_unproduced_input(fbb *f, const model_pos *p) {
  put32(f->b, p->op0_inputs + 4, 3); /* op 0 reads tensor 3 before op 1 makes it */
}
static void p_output_constant(fbb *f, const model_pos *p) { put32(f->b, p->op0_outputs + 4, 1); }
static void p_string_no_nul(fbb *f, const model_pos *p) {
  /* tensor 3's name: field 3 → string; overwrite its NUL */
  size_t at = p->tensor[3] + 4 + 8 * 3;
  size_t s = at + get32(f->b, at);
  f->b[s + 4 + get32(f->b, s)] = 'x';
}
static void p_sig_tensor(fbb *f, const model_pos *p) { scalar(f, p->sig_in_map, 1, 8, 4); }
static void p_sig_subgraph(fbb *f, const model_pos *p) { scalar(f, p->sig, 4, 1, 4); }
static void p_metadata_buffer(fbb *f, const model_pos *p) { put32(f->b, p->metadata0 + 12, 5); }
static void p_field_outside_table(fbb *f, const model_pos *p) {
  size_t vt = p->tensor[5] - get32(f->b, p->tensor[5]);
  put16(f->b, vt + 4 + 2 * 2, 200);
}
static void p_huge_vtable(fbb *f, const model_pos *p) {
  size_t vt = p->op[0] - get32(f->b, p->op[0]);
  put16(f->b, vt, 0xfffe);
}
static void p_no_subgraphs(fbb *f, const model_pos *p) { put32(f->b, p->subgraphs, 0); }

static void test_hostile(void) {
  expect_invalid("huge tensor count", p_huge_tensor_count, "claims 2147483647 elements");
  expect_invalid("huge opcode count", p_huge_opcode_count, "operator_codes");
  expect_invalid("self-referencing offset", p_self_offset, "points to itself");
  expect_invalid("offset past end", p_offset_past_end, "past end");
  expect_invalid("offset wrapping", p_offset_wrap, "past end");
  expect_invalid("vtable past end", p_vtable_out, "vtable");
  expect_invalid("vtable before start", p_vtable_negative, "vtable");
  expect_invalid("table is its own vtable", p_vtable_self, "operator 1");
  expect_invalid("root past end", p_root_past_end, "root table offset 123456 past end");
  expect_invalid("schema version", p_version, "schema version 2");
  expect_invalid("input index", p_input_index,
                 "operator 0 (ADD): input 1 refers to tensor 991 of 8");
  expect_invalid("negative input", p_input_negative, "refers to tensor -2");
  expect_invalid("optional output", p_output_optional, "output 0 refers to tensor -1");
  expect_invalid("subgraph input", p_subgraph_input, "subgraph 0: input 0 refers to tensor 8 of 8");
  expect_invalid("buffer index", p_buffer_index,
                 "tensor 1 (const): buffer 77 out of range (5 buffers)");
  expect_invalid("opcode index", p_opcode_index, "operator 1: opcode index 3 out of range");
  expect_invalid("negative dim", p_negative_dim, "tensor 2 (out): dimension 1 is -4");
  expect_invalid("rank 100", p_rank_100, "rank 100 exceeds the maximum 8");
  expect_invalid("dims overflow", p_dims_overflow, "too many elements");
  expect_invalid("constant size", p_const_size,
                 "tensor 1 (const): buffer 1 holds 12 bytes, shape [1,4] float32 needs 16");
  expect_invalid("unknown type", p_unknown_type, "tensor 2 (out): unknown type 42");
  expect_invalid("per-axis count", p_per_axis_count, "2 per-axis scales for dimension 0 of size 3");
  expect_invalid("per-axis dimension", p_per_axis_dim,
                 "quantized_dimension 2 out of range for rank 2");
  expect_invalid("zero point range", p_zero_point_range, "outside int32");
  expect_invalid("zero point count", p_zero_point_count, "2 scales and 0 zero points");
  expect_invalid("shape signature", p_signature_mismatch, "shape_signature dimension 1 is 5");
  expect_invalid("sparse index", p_sparse_index, "index 1 = 4 out of range");
  expect_invalid("sparse segments", p_sparse_segments, "last segment 1, 2 indices");
  expect_invalid("sparse index type", p_sparse_type, "unknown index vector type 9");
  expect_invalid("external buffer", p_buffer_offset,
                 "buffer 1: data at offset 4000 size 1048576 past end");
  expect_invalid("custom without name", p_custom_no_name, "CUSTOM operator without a custom_code");
  expect_invalid("duplicate producer", p_duplicate_producer,
                 "output 0 is tensor 3 (gelu_out), already produced by operator 1");
  expect_invalid("unproduced input", p_unproduced_input, "not produced by an earlier operator");
  expect_invalid("output is constant", p_output_constant, "which is a constant");
  expect_invalid("string without NUL", p_string_no_nul, "not NUL-terminated");
  expect_invalid("signature tensor", p_sig_tensor,
                 "signature 0 input 0 (x): tensor 8 out of range");
  expect_invalid("signature subgraph", p_sig_subgraph, "subgraph 1 out of range");
  expect_invalid("metadata buffer", p_metadata_buffer, "buffer 5 out of range");
  expect_invalid("field outside table", p_field_outside_table, "outside the table");
  expect_invalid("huge vtable", p_huge_vtable, "vtable");
  expect_invalid("no subgraphs", p_no_subgraphs, "no subgraphs");
}

/* A file whose tables are shared thousands of times over (every entry of a new tensors
 * vector points at one tensor with a long per-axis quantization) must hit the load budget
 * instead of allocating gigabytes: ~4 bytes of file per tensor would cost 8*K bytes each. */
static void test_amplification(void) {
  fbb *f = malloc(sizeof *f);
  model_pos p;
  build_model(f, &p);
  const uint32_t N = 20000, K = 10000;
  size_t v = vec(f, N, 4, NULL);
  size_t t = table(f, 10);
  for (uint32_t i = 0; i < N; i++) vec_set(f, v, i, t);
  int32_t shape[1] = {(int32_t)K};
  ref(f, t, 0, vec_i32(f, 1, shape));
  size_t q = table(f, 7);
  ref(f, t, 4, q);
  size_t scales = vec(f, K, 4, NULL);
  for (uint32_t i = 0; i < K; i++)
    put32(f->b, scales + 4 + 4 * (size_t)i, 0x3f800000u); /* 1.0f: valid */
  ref(f, q, 2, scales);
  ref(f, q, 3, vec(f, K, 8, NULL));
  /* point the subgraph's tensors field at the new vector (forward offset) */
  size_t at = p.subgraph + 4;
  put32(f->b, at, (uint32_t)(v - at));
  tfcc_err err = {0};
  tfcc_status st = load_checked(f->b, f->len, &err);
  CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(err.msg, "loading would need more than"),
         "amplification: %d %s", (int)st, err.msg);
  /* Offsets pointing backwards are impossible (uoffsets are unsigned): an element pointing
   * before itself wraps to a huge forward offset and is rejected. */
  build_model(f, &p);
  put32(f->b, p.tensors + 8, (uint32_t)(p.root - (p.tensors + 8)));
  st = load_checked(f->b, f->len, &err);
  CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(err.msg, "past end"), "backward: %s", err.msg);
  free(f);
}

/* The smallest number of bytes appended to file (n bytes) at which it loads: the load budget
 * grows by TFL_BUDGET_FACTOR (64) per byte of file, so this is the bytes it charged / 64. */
static size_t padding_to_load(const uint8_t *file, size_t n, size_t most) {
  uint8_t *buf = calloc(n + most, 1);
  memcpy(buf, file, n);
  size_t lo = 0, hi = most; /* loads at hi, not below lo */
  tfcc_graph g;
  tfcc_err err = {0};
  CHECKF(tfcc_tflite_read(buf, n + most, &g, &err) == TFCC_OK, "padded by %zu: %s", most, err.msg);
  tfcc_graph_free(&g);
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (tfcc_tflite_read(buf, n + mid, &g, &err) == TFCC_OK) {
      tfcc_graph_free(&g);
      hi = mid;
    } else {
      CHECKF(strstr(err.msg, "loading would need more than") != NULL, "padded by %zu: %s", mid,
             err.msg);
      lo = mid + 1;
    }
  }
  free(buf);
  return lo;
}

/* Sparse FULLY_CONNECTED weights' dense form is charged to the load budget once, as the bytes
 * the reader allocates for it (review61 / review62): the hostile model fc_sparse_weights_budget
 * (random sparse float32 [256, 1024], one value a row) declared [256, 4096] and [256, 8192]
 * (the same file size and encoding) needs 64 bytes more file per 64 bytes more dense weights:
 * 256 x 4096 x 4 bytes more for the second, not twice that (charged twice before review61). */
static void test_sparse_budget_exact(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/ops/data/opsc_hostile/fc_sparse_weights_budget.tflite",
           tfcc_test_source_dir());
  size_t n = 0;
  uint8_t *file = tfcc_test_read_file(path, &n);
  CHECKF(file != NULL, "cannot read %s", path);
  if (!file) return;
  const int32_t shape[3] = {2, 256, 1024}; /* the weights' shape vector: length, dims */
  uint8_t *at = NULL;
  for (size_t i = 0; i + sizeof shape <= n && !at; i += 4)
    if (memcmp(file + i, shape, sizeof shape) == 0) at = file + i;
  CHECKF(at != NULL, "%s: no [256, 1024] shape vector", path);
  if (!at) {
    free(file);
    return;
  }
  /* the stored values (256 float32, one a row) are read no more once expanded: listed in
   * tfcc_graph.copied (the runtime gives their pages back), the dense copy marked from_sparse */
  tfcc_graph g;
  tfcc_err err = {0};
  CHECKF(tfcc_tflite_read(file, n, &g, &err) == TFCC_OK, "%s: %s", path, err.msg);
  bool listed = false, dense = false;
  for (const tfcc_ir_copied *k = g.copied; k; k = k->next)
    listed = listed || (k->bytes == 256 * 4 && k->data >= file && k->data + k->bytes <= file + n);
  for (int32_t t = 0; t < g.subgraphs[0].n_tensors; t++)
    dense = dense || (g.subgraphs[0].tensors[t].from_sparse &&
                      g.subgraphs[0].tensors[t].data_bytes == (size_t)256 * 1024 * 4);
  CHECKF(listed && dense, "stored values listed as copied: %d, dense copy: %d", listed, dense);
  tfcc_graph_free(&g);
  size_t pad[2];
  for (int k = 0; k < 2; k++) {
    const int32_t cols = 4096 << k;
    memcpy(at + 8, &cols, 4);
    pad[k] = padding_to_load(file, n, (size_t)256 * cols * 4 / 64 * 2);
  }
  const size_t dense_more = (size_t)256 * 4096 * 4;
  printf("sparse budget: [256, 4096] loads with %zu bytes appended, [256, 8192] with %zu\n", pad[0],
         pad[1]);
  CHECKF(pad[0] > 0 && pad[1] * 64 >= pad[0] * 64 + dense_more - 63 &&
             pad[1] * 64 <= pad[0] * 64 + dense_more + 63,
         "sparse budget: padding %zu then %zu bytes to load, %zu more dense bytes", pad[0], pad[1],
         dense_more);
  free(file);
}

/* tfcc_tflite_read_peek: the constants' lengths come from the peek (a model file's descriptor
 * in a warm load), not from the buffer's memory; a peek that declines reads the buffer. */
typedef struct peek_src {
  const uint8_t *bytes; /* what the peek serves */
  size_t n;
  uint32_t huge; /* non-zero: serve this count instead */
  bool decline;
  size_t asked[16]; /* offsets asked */
  int n_asked;
} peek_src;

static bool peek_fn(void *user, size_t off, void *dst, size_t n) {
  peek_src *s = user;
  if (s->decline || off > s->n || n > s->n - off) return false;
  if (s->n_asked < 16) s->asked[s->n_asked] = off;
  s->n_asked++;
  memcpy(dst, s->bytes + off, n);
  if (s->huge) memcpy(dst, &s->huge, 4);
  return true;
}

static void test_peek(void) {
  static fbb f;
  size_t n;
  uint8_t *copy = tiny_model_copy(&f, &n);
  peek_src src = {.bytes = f.b, .n = n};
  tfcc_graph g;
  tfcc_err err = {0};
  tfcc_status st = tfcc_tflite_read_peek(copy, n, peek_fn, &src, &g, &err);
  CHECKF(st == TFCC_OK, "peek: %s", err.msg);
  CHECKF(src.n_asked >= 4 && src.n_asked <= 16, "peek asked %d times", src.n_asked);
  if (st == TFCC_OK) tfcc_graph_free(&g);
  /* every count asked for, damaged in the buffer: still read (from the peek), same sizes */
  for (int i = 0; i < src.n_asked && i < 16; i++) put32(copy, src.asked[i], 0xfffffff0u);
  src.n_asked = 0;
  st = tfcc_tflite_read_peek(copy, n, peek_fn, &src, &g, &err);
  CHECKF(st == TFCC_OK, "peek with damaged counts in memory: %s", err.msg);
  if (st == TFCC_OK) {
    const tfcc_ir_tensor *t = g.subgraphs[0].tensors;
    CHECK(t[1].data != NULL && t[1].data_bytes == 16 && ((const float *)t[1].data)[3] == 4.0f);
    CHECK(t[6].sparsity != NULL && t[6].data_bytes == 8);
    check_graph_sane(&g);
    tfcc_graph_free(&g);
  }
  /* a peek that declines: the buffer's (damaged) counts are read and refused */
  src.decline = true;
  st = tfcc_tflite_read_peek(copy, n, peek_fn, &src, &g, &err);
  CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(err.msg, "claims"), "declined: %d %s", (int)st,
         err.msg);
  /* a count from the peek is checked as one from the buffer */
  memcpy(copy, f.b, n);
  src.decline = false;
  src.huge = 0x7fffffffu;
  st = tfcc_tflite_read_peek(copy, n, peek_fn, &src, &g, &err);
  CHECKF(st == TFCC_ERR_INVALID_MODEL && strstr(err.msg, "claims 2147483647 elements"),
         "huge count from the peek: %d %s", (int)st, err.msg);
  CHECK(g.blocks == NULL && g.subgraphs == NULL);
  free(copy);
}

static void shared_model(const char *dir, const char *name, int full_truncation, int flips) {
  char path[4096];
  snprintf(path, sizeof path, "%s/models/%s", dir, name);
  size_t n;
  uint8_t *bytes = tfcc_test_read_file(path, &n);
  CHECKF(bytes != NULL, "cannot read %s", path);
  if (!bytes) return;
  tfcc_err err = {0};
  CHECKF(load_checked(bytes, n, &err) == TFCC_OK, "%s: %s", name, err.msg);
  if (full_truncation) truncations(name, bytes, n);
  byte_flips(name, bytes, n, flips, 0);
  free(bytes);
}

/* Buffer 0, the schema's empty sentinel, holding 16 bytes (XMOS' stripping tool writes a bias
 * there): TFLite's reader gives no tensor data from it, so the model loads with its input,
 * activations and the int32 bias of buffer 0 unset. Reading it made the [1,4] float input and
 * outputs constants ("operator 0 (ADD): output 0 is tensor 2 (out), which is a constant") and
 * the 8-byte bias a size mismatch; TFLite runs such a file. */
static void test_sentinel_buffer(void) {
  static fbb f;
  model_pos p;
  size_t n = build_model(&f, &p);
  ref(&f, p.buffer[0], 0, p.data1);
  uint8_t *copy = malloc(n);
  memcpy(copy, f.b, n);
  tfcc_graph g;
  tfcc_err err = {0};
  tfcc_status st = tfcc_tflite_read(copy, n, &g, &err);
  CHECKF(st == TFCC_OK, "non-empty buffer 0: %s", err.msg);
  if (st == TFCC_OK) {
    const tfcc_ir_subgraph *sg = &g.subgraphs[0];
    static const int32_t unset[] = {0, 2, 3, 5, 7};
    for (size_t i = 0; i < sizeof unset / sizeof unset[0]; i++)
      CHECKF(sg->tensors[unset[i]].data == NULL, "tensor %d has buffer 0's data", (int)unset[i]);
    CHECK(sg->tensors[1].data != NULL && sg->tensors[1].data_bytes == 16);
    check_graph_sane(&g);
    tfcc_graph_free(&g);
  }
  free(copy);
}

int main(void) {
  test_valid_tiny_model();
  test_sentinel_buffer();
  static fbb f;
  model_pos p;
  size_t n = build_model(&f, &p);
  const char *seed = getenv("TFCC_WRITE_SEED"); /* fuzz corpus: tests/fuzz/make_corpus.sh */
  if (seed && *seed) {
    FILE *out = fopen(seed, "wb");
    CHECKF(out && fwrite(f.b, 1, n, out) == n, "cannot write %s", seed);
    if (out) fclose(out);
  }
  truncations("tiny model", f.b, n);
  byte_flips("tiny model", f.b, n, 4000, 0);
  test_hostile();
  test_amplification();
  test_sparse_budget_exact();
  test_peek();
  const char *dir = tfcc_test_shared_dir();
  if (dir) {
    shared_model(dir, "hello_world_int8.tflite", 1, 2000);
    shared_model(dir, "split_concat_quant.tflite", 1, 2000);
  }
  return tfcc_test_finish("test_loader_robustness");
}
