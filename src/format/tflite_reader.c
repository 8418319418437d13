/* TFLite model loader, model level: root, version, buffers, operator codes, subgraphs,
 * metadata and signatures. Tensors and operators are read in tflite_tensor.c and
 * tflite_operator.c. Everything is verified as it is read; nothing is trusted. */
#include "format/tflite_reader.h"

#include <string.h>

#include "format/fb_core.h"
#include "format/fb_verify.h"
#include "format/tflite_read_ctx.h"
#include "format/tflite_schema.h"

/* Load budget: metadata the loader may allocate (or scan repeatedly) is limited to this many
 * times the file size plus a constant. Real models use well under 2x. */
#define TFL_BUDGET_FACTOR 64u
#define TFL_BUDGET_BASE ((size_t)1 << 20)
/* Bookkeeping bytes charged per allocation on top of its size. */
#define TFL_ALLOC_OVERHEAD 64u

tfcc_status tfl_charge(tfl_ctx *c, size_t n, const char *what) {
  if (n > c->budget)
    return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                        "%s: loading would need more than %zu bytes of memory or work for a "
                        "%zu-byte file (tables shared too many times over)",
                        what, (size_t)TFL_BUDGET_FACTOR * c->size + TFL_BUDGET_BASE, c->size);
  c->budget -= n;
  return TFCC_OK;
}

/* Graph memory for count elements of elem bytes; charges the budget the bookkeeping overhead,
 * and the bytes unless `charged` (tfl_alloc_charged). */
static tfcc_status graph_mem(tfl_ctx *c, size_t count, size_t elem, bool charged, size_t align,
                             void **out, const char *what) {
  *out = NULL;
  if (elem && count > (SIZE_MAX - TFL_ALLOC_OVERHEAD) / elem)
    return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "%s: %zu elements overflow", what, count);
  const size_t bytes = count * elem;
  tfcc_status st = tfl_charge(c, (charged ? 0 : bytes) + TFL_ALLOC_OVERHEAD, what);
  if (st != TFCC_OK) return st;
  *out = tfcc_graph_alloc(c->g, bytes, align);
  if (!*out)
    return tfcc_err_set(c->err, TFCC_ERR_NO_MEMORY, "%s: cannot allocate %zu bytes", what, bytes);
  return TFCC_OK;
}

tfcc_status tfl_alloc(tfl_ctx *c, size_t count, size_t elem, size_t align, void **out,
                      const char *what) {
  return graph_mem(c, count, elem, false, align, out, what);
}

tfcc_status tfl_alloc_charged(tfl_ctx *c, size_t count, size_t elem, size_t align, void **out,
                              const char *what) {
  return graph_mem(c, count, elem, true, align, out, what);
}

tfcc_status tfl_note_copied(tfl_ctx *c, const uint8_t *data, size_t bytes) {
  tfcc_ir_copied *k;
  tfcc_status st = tfl_alloc(c, 1, sizeof *k, _Alignof(tfcc_ir_copied), (void **)&k, "copied");
  if (st != TFCC_OK) return st;
  k->data = data;
  k->bytes = bytes;
  k->next = c->g->copied;
  c->g->copied = k;
  return TFCC_OK;
}

tfcc_status tfl_strdup(tfl_ctx *c, const char *s, uint32_t len, const char **out) {
  void *p;
  tfcc_status st = tfl_alloc(c, (size_t)len + 1, 1, 1, &p, "string");
  if (st != TFCC_OK) return st;
  if (s && len) memcpy(p, s, len);
  *out = p;
  return TFCC_OK;
}

/* The model's vector `field` of tables (read errors prefixed "model <name>") and *items, an
 * array of as many elem-byte entries (allocation errors name `what`). With `counted` set, more
 * than INT32_MAX entries is an error ("<count> <counted>"). */
static tfcc_status model_tables(tfl_ctx *c, int field, const char *name, const char *counted,
                                tfcc_fb_vec *v, size_t elem, void **items, const char *what) {
  tfcc_status st = tfcc_fbv_vector(&c->root, field, 4, v, NULL, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "model %s", name);
  if (counted && v->count > INT32_MAX)
    return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "%u %s", v->count, counted);
  return tfl_alloc(c, v->count, elem, 8, items, what);
}

static tfcc_status read_buffers(tfl_ctx *c) {
  tfcc_fb_vec v;
  tfcc_status st = model_tables(c, TFL_MODEL_BUFFERS, "buffers", NULL, &v, sizeof(tfl_buffer),
                                (void **)&c->buffers, "buffers");
  if (st != TFCC_OK) return st;
  c->n_buffers = v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    tfl_buffer *b = &c->buffers[i];
    tfcc_fb_table t;
    tfcc_fb_vec data;
    bool has_data;
    uint64_t off, size;
    if ((st = tfcc_fbv_vec_table(&c->root, &v, i, &t, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_vector_peek(&t, TFL_BUFFER_DATA, 1, c->peek, c->peek_user, &data, &has_data,
                                   c->err)) != TFCC_OK ||
        (st = tfcc_fbv_u64(&t, TFL_BUFFER_OFFSET, 0, &off, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_u64(&t, TFL_BUFFER_SIZE, 0, &size, c->err)) != TFCC_OK)
      return tfcc_err_prefix(c->err, "buffer %u", i);
    if (off > 1) {
      /* Data stored after the FlatBuffer (models > 2 GB); offset is from the file start.
       * offset 0 or 1 means "not used" (schema.fbs: only valid if > 1). */
      if (off > c->size || size > c->size - off)
        return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                            "buffer %u: data at offset %llu size %llu past end of file (size "
                            "%zu)",
                            i, (unsigned long long)off, (unsigned long long)size, c->size);
      b->data = size ? c->file + off : NULL;
      b->size = (size_t)size;
    } else if (has_data && data.count) {
      b->data = data.data;
      b->size = data.count;
    } else {
      b->empty = has_data;
    }
  }
  if (v.count) {
    c->buffer0 = c->buffers[0];
    c->buffers[0] = (tfl_buffer){0};
  }
  return TFCC_OK;
}

static tfcc_status read_opcodes(tfl_ctx *c) {
  tfcc_fb_vec v;
  tfcc_status st = model_tables(c, TFL_MODEL_OPERATOR_CODES, "operator_codes", NULL, &v,
                                sizeof(tfl_opcode), (void **)&c->opcodes, "operator codes");
  if (st != TFCC_OK) return st;
  c->n_opcodes = v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    tfl_opcode *oc = &c->opcodes[i];
    tfcc_fb_table t;
    int8_t deprecated;
    int32_t code, version;
    const char *custom;
    uint32_t custom_len;
    if ((st = tfcc_fbv_vec_table(&c->root, &v, i, &t, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_i8(&t, TFL_OPCODE_DEPRECATED_BUILTIN_CODE, 0, &deprecated, c->err)) !=
            TFCC_OK ||
        (st = tfcc_fbv_string(&t, TFL_OPCODE_CUSTOM_CODE, &custom, &custom_len, c->err)) !=
            TFCC_OK ||
        (st = tfcc_fbv_i32(&t, TFL_OPCODE_VERSION, 1, &version, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_i32(&t, TFL_OPCODE_BUILTIN_CODE, 0, &code, c->err)) != TFCC_OK)
      return tfcc_err_prefix(c->err, "operator code %u", i);
    /* As TFLite's GetBuiltinCode: old writers fill only the int8 deprecated field (then
     * builtin_code reads 0); new writers set deprecated to 127 (PLACEHOLDER_FOR_GREATER_OP_CODES)
     * for codes >= 127, and both fields for smaller codes. max() covers all three. */
    if (deprecated > code) code = deprecated;
    if (code < 0)
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "operator code %u: builtin code %d", i,
                          (int)code);
    if (code == TFCC_OP_CUSTOM && (!custom || custom_len == 0))
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                          "operator code %u: CUSTOM operator without a custom_code name", i);
    oc->builtin = code;
    oc->version = version;
    if (custom) {
      st = tfl_strdup(c, custom, custom_len, &oc->custom_code);
      if (st != TFCC_OK) return st;
    }
  }
  return TFCC_OK;
}

static tfcc_status read_subgraphs(tfl_ctx *c) {
  tfcc_fb_vec v;
  bool present;
  tfcc_graph *g = c->g;
  tfcc_status st = tfcc_fbv_vector(&c->root, TFL_MODEL_SUBGRAPHS, 4, &v, &present, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "model subgraphs");
  if (v.count == 0) return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "model has no subgraphs");
  if (v.count > INT32_MAX)
    return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "%u subgraphs", v.count);
  st = tfl_alloc(c, v.count, sizeof(tfcc_ir_subgraph), 8, (void **)&g->subgraphs, "subgraphs");
  if (st != TFCC_OK) return st;
  g->n_subgraphs = (int32_t)v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    tfcc_fb_table t;
    st = tfcc_fbv_vec_table(&c->root, &v, i, &t, c->err);
    if (st != TFCC_OK) return tfcc_err_prefix(c->err, "subgraph %u", i);
    st = tfl_read_subgraph(c, &t, (int32_t)i, &g->subgraphs[i]);
    if (st != TFCC_OK) return st;
  }
  return TFCC_OK;
}

static tfcc_status read_metadata(tfl_ctx *c) {
  tfcc_fb_vec v;
  tfcc_graph *g = c->g;
  /* metadata_buffer (deprecated): only checked to be in bounds. */
  tfcc_status st = tfcc_fbv_vector(&c->root, TFL_MODEL_METADATA_BUFFER, 4, &v, NULL, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "model metadata_buffer");
  st = model_tables(c, TFL_MODEL_METADATA, "metadata", "metadata entries", &v,
                    sizeof(tfcc_ir_metadata), (void **)&g->metadata, "metadata");
  if (st != TFCC_OK) return st;
  g->n_metadata = (int32_t)v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    tfcc_ir_metadata *m = &g->metadata[i];
    tfcc_fb_table t;
    const char *name;
    uint32_t name_len, buffer;
    if ((st = tfcc_fbv_vec_table(&c->root, &v, i, &t, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_string(&t, TFL_METADATA_NAME, &name, &name_len, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_u32(&t, TFL_METADATA_BUFFER, 0, &buffer, c->err)) != TFCC_OK)
      return tfcc_err_prefix(c->err, "metadata %u", i);
    if (buffer >= c->n_buffers)
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                          "metadata %u (%s): buffer %u out of range (%u buffers)", i,
                          name ? name : "", buffer, c->n_buffers);
    st = tfl_strdup(c, name, name_len, &m->name);
    if (st != TFCC_OK) return st;
    m->buffer = buffer;
    const tfl_buffer *b = buffer == 0 ? &c->buffer0 : &c->buffers[buffer];
    m->data = b->data;
    m->size = b->size;
  }
  return TFCC_OK;
}

/* One side (inputs or outputs) of a signature: TensorMap entries. */
static tfcc_status read_tensor_maps(tfl_ctx *c, const tfcc_fb_table *sig, int field, uint32_t si,
                                    const char *side, int32_t n_tensors, int32_t *count,
                                    const char ***names, int32_t **tensors) {
  tfcc_fb_vec v;
  tfcc_status st = tfcc_fbv_vector(sig, field, 4, &v, NULL, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "signature %u %s", si, side);
  if ((st = tfl_alloc(c, v.count, sizeof(char *), 8, (void **)names, "signature")) != TFCC_OK ||
      (st = tfl_alloc(c, v.count, sizeof(int32_t), 4, (void **)tensors, "signature")) != TFCC_OK)
    return st;
  *count = (int32_t)v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    tfcc_fb_table t;
    const char *name;
    uint32_t name_len, index;
    if ((st = tfcc_fbv_vec_table(sig, &v, i, &t, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_string(&t, TFL_TENSOR_MAP_NAME, &name, &name_len, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_u32(&t, TFL_TENSOR_MAP_TENSOR_INDEX, 0, &index, c->err)) != TFCC_OK)
      return tfcc_err_prefix(c->err, "signature %u %s %u", si, side, i);
    if (index >= (uint32_t)n_tensors)
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                          "signature %u %s %u (%s): tensor %u out of range (%d tensors)", si, side,
                          i, name ? name : "", index, (int)n_tensors);
    st = tfl_strdup(c, name, name_len, &(*names)[i]);
    if (st != TFCC_OK) return st;
    (*tensors)[i] = (int32_t)index;
  }
  return TFCC_OK;
}

static tfcc_status read_signatures(tfl_ctx *c) {
  tfcc_fb_vec v;
  tfcc_graph *g = c->g;
  tfcc_status st = model_tables(c, TFL_MODEL_SIGNATURE_DEFS, "signature_defs", "signatures", &v,
                                sizeof(tfcc_ir_signature), (void **)&g->signatures, "signatures");
  if (st != TFCC_OK) return st;
  g->n_signatures = (int32_t)v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    tfcc_ir_signature *s = &g->signatures[i];
    tfcc_fb_table t;
    const char *key, *tag;
    uint32_t key_len, tag_len, sub;
    if ((st = tfcc_fbv_vec_table(&c->root, &v, i, &t, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_string(&t, TFL_SIGNATURE_KEY, &key, &key_len, c->err)) != TFCC_OK ||
        (st = tfcc_fbv_string(&t, TFL_SIGNATURE_DEPRECATED_TAG, &tag, &tag_len, c->err)) !=
            TFCC_OK ||
        (st = tfcc_fbv_u32(&t, TFL_SIGNATURE_SUBGRAPH_INDEX, 0, &sub, c->err)) != TFCC_OK)
      return tfcc_err_prefix(c->err, "signature %u", i);
    if (sub >= (uint32_t)g->n_subgraphs)
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                          "signature %u (%s): subgraph %u out of range (%d subgraphs)", i,
                          key ? key : "", sub, (int)g->n_subgraphs);
    st = tfl_strdup(c, key, key_len, &s->key);
    if (st != TFCC_OK) return st;
    s->subgraph = (int32_t)sub;
    int32_t nt = g->subgraphs[sub].n_tensors;
    st = read_tensor_maps(c, &t, TFL_SIGNATURE_INPUTS, i, "input", nt, &s->n_inputs,
                          &s->input_names, &s->input_tensors);
    if (st != TFCC_OK) return st;
    st = read_tensor_maps(c, &t, TFL_SIGNATURE_OUTPUTS, i, "output", nt, &s->n_outputs,
                          &s->output_names, &s->output_tensors);
    if (st != TFCC_OK) return st;
  }
  return TFCC_OK;
}

static tfcc_status read_model(tfl_ctx *c) {
  tfcc_status st = tfcc_fbv_root(c->file, c->size, &c->root, c->err);
  if (st != TFCC_OK) return st;
  uint32_t version;
  st = tfcc_fbv_u32(&c->root, TFL_MODEL_VERSION, 0, &version, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "model version");
  if (version != TFL_SCHEMA_VERSION)
    return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL,
                        "schema version %u, only version %u is supported", version,
                        TFL_SCHEMA_VERSION);
  c->g->schema_version = version;
  const char *desc;
  uint32_t desc_len;
  st = tfcc_fbv_string(&c->root, TFL_MODEL_DESCRIPTION, &desc, &desc_len, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "model description");
  if ((st = tfl_strdup(c, desc, desc_len, &c->g->description)) != TFCC_OK) return st;
  if ((st = read_buffers(c)) != TFCC_OK) return st;
  if ((st = read_opcodes(c)) != TFCC_OK) return st;
  if ((st = read_subgraphs(c)) != TFCC_OK) return st;
  if ((st = read_metadata(c)) != TFCC_OK) return st;
  return read_signatures(c);
}

tfcc_status tfcc_tflite_read(const uint8_t *data, size_t size, tfcc_graph *g, tfcc_err *err) {
  return tfcc_tflite_read_peek(data, size, NULL, NULL, g, err);
}

tfcc_status tfcc_tflite_read_peek(const uint8_t *data, size_t size, tfcc_fbv_peek_fn peek,
                                  void *peek_user, tfcc_graph *g, tfcc_err *err) {
  tfcc_err local;
  if (!err) err = &local; /* tfcc_err_prefix needs somewhere to keep the code */
  if (!g) return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "tfcc_tflite_read: graph is NULL");
  memset(g, 0, sizeof *g);
  if (!data && size)
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "tfcc_tflite_read: data is NULL");
  tfl_ctx c;
  memset(&c, 0, sizeof c);
  c.file = data;
  c.size = size;
  c.g = g;
  c.err = err;
  c.peek = peek;
  c.peek_user = peek_user;
  c.budget = size > (SIZE_MAX - TFL_BUDGET_BASE) / TFL_BUDGET_FACTOR
                 ? SIZE_MAX
                 : size * TFL_BUDGET_FACTOR + TFL_BUDGET_BASE;
  g->file = data;
  g->file_size = size;
  tfcc_status st = read_model(&c);
  if (st != TFCC_OK) {
    if (size >= 8 && memcmp(data + 4, TFL_FILE_IDENTIFIER, 4) != 0) {
      /* The identifier is optional for us (TFLite requires it); when the file fails anyway,
       * say that it may not be a TFLite model at all. */
      char id[5];
      for (int k = 0; k < 4; k++) {
        uint8_t ch = data[4 + k];
        id[k] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
      }
      id[4] = 0;
      tfcc_err_prefix(err, "not a valid TFLite model (file identifier \"%s\", expected \"%s\")", id,
                      TFL_FILE_IDENTIFIER);
    }
    tfcc_graph_free(g);
    return st;
  }
  return TFCC_OK;
}
