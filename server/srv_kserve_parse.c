/* KServe v2 / Triton infer request parser: JSON tensors (nested or flat "data") and the binary
 * tensor data extension (Inference-Header-Content-Length, "binary_data_size",
 * "binary_data_output", per-output "binary_data"). Binary inputs are used in place. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_json_spans.h"
#include "srv_tensor.h"

static int find_io(const srv_io *ios, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(ios[i].name, name)) return i;
  return -1;
}

static void list_names(const srv_io *ios, int n, char *out, size_t size) {
  size_t k = 0;
  out[0] = '\0';
  for (int i = 0; i < n && k + 4 < size; i++)
    k += (size_t)snprintf(out + k, size - k, "%s'%s'", i ? ", " : "", ios[i].name);
}

static int bool_param(const json_t *params, const char *key, int *out) {
  json_t *v = json_object_get(params, key);
  if (!v) return 0;
  if (!json_is_boolean(v)) return -1;
  *out = json_is_true(v);
  return 0;
}

/* The tensor bytes of a request's inputs so far (elements x dtype size) against the bound. */
static int over_bound(srv_request *r, size_t bytes, size_t max_bytes, const char *name, char *err, size_t n) {
  r->input_bytes += bytes;
  if (!max_bytes || r->input_bytes <= max_bytes) return 0;
  snprintf(err, n, "input '%s': the inputs need %zu bytes (elements x datatype size), more than "
           "server.max_request_mb (%zu MiB)", name, r->input_bytes, max_bytes >> 20);
  return 413;
}

/* data given as a span of the body's text (not in the jansson tree): parsed straight into dst. */
static int fill_span(const char *text, size_t len, tfcc_dtype dtype, void *dst, size_t count, const char *what,
                     char *err, size_t n) {
  int rc = srv_json_fill_text(text, len, dtype, dst, count, what, err, n);
  if (rc <= 0) return rc;
  /* something other than numbers: jansson on this value alone names it */
  json_error_t je;
  json_t *v = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
  if (!v) {
    snprintf(err, n, "%s: invalid JSON in 'data' at its character %d: %s", what, je.position, je.text);
    return -1;
  }
  rc = srv_json_fill(v, dtype, dst, count, what, err, n);
  json_decref(v);
  return rc;
}

static int parse_input(const json_t *in, int k, const srv_sig *sig, const srv_json_span *span, const char *body,
                       size_t max_bytes, srv_request *r, const char *bin, size_t bin_len, size_t *bin_at, char *err,
                       size_t n) {
  if (!json_is_object(in)) {
    snprintf(err, n, "inputs[%d] is not an object", k);
    return 400;
  }
  const char *name = json_string_value(json_object_get(in, "name"));
  if (!name) {
    snprintf(err, n, "inputs[%d]: 'name' is missing or not a string", k);
    return 400;
  }
  int idx = find_io(sig->in, sig->n_in, name);
  if (idx < 0) {
    char names[512];
    list_names(sig->in, sig->n_in, names, sizeof names);
    snprintf(err, n, "unknown input '%s' (the model's inputs: %s)", name, names);
    return 400;
  }
  const srv_io *io = &sig->in[idx];
  srv_tensor *t = &r->in[idx];
  if (t->set) {
    snprintf(err, n, "input '%s' is given twice", name);
    return 400;
  }
  const char *dt = json_string_value(json_object_get(in, "datatype"));
  tfcc_dtype dtype;
  if (!dt) {
    snprintf(err, n, "input '%s': 'datatype' is missing or not a string", name);
    return 400;
  }
  if (!strcmp(dt, "BYTES")) { /* v2 string tensors: no tfcc model has one (the library loads none) */
    snprintf(err, n, "input '%s': datatype BYTES given, the model wants %s (BYTES is for string tensors, which tfcc "
             "models do not have)", name, srv_v2_dtype(io->dtype) ? srv_v2_dtype(io->dtype) : tfcc_dtype_name(io->dtype));
    return 400;
  }
  if (srv_v2_parse_dtype(dt, &dtype) != 0) {
    snprintf(err, n, "input '%s': unknown or unsupported datatype '%s'", name, dt);
    return 400;
  }
  if (dtype != srv_wire_dtype(io->dtype)) {
    snprintf(err, n, "input '%s': datatype %s given, the model wants %s", name, dt,
             srv_v2_dtype(io->dtype) ? srv_v2_dtype(io->dtype) : tfcc_dtype_name(io->dtype));
    return 400;
  }
  json_t *shape = json_object_get(in, "shape");
  if (!json_is_array(shape) || json_array_size(shape) > TFCC_MAX_DIMS) {
    snprintf(err, n, "input '%s': 'shape' must be a list of at most %d integers", name, TFCC_MAX_DIMS);
    return 400;
  }
  t->rank = (int32_t)json_array_size(shape);
  for (int32_t d = 0; d < t->rank; d++) {
    json_t *e = json_array_get(shape, (size_t)d);
    if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > INT32_MAX) {
      snprintf(err, n, "input '%s': shape[%d] is not a non-negative integer", name, (int)d);
      return 400;
    }
    t->dims[d] = (int32_t)json_integer_value(e);
  }
  if (srv_shape_check(io, t->rank, t->dims, err, n)) return 400;
  size_t count = 1, es = tfcc_dtype_size(io->dtype);
  for (int32_t d = 0; d < t->rank; d++) {
    if (t->dims[d] && count > ((size_t)1 << 40) / (size_t)t->dims[d]) {
      snprintf(err, n, "input '%s': shape is too large", name);
      return 400;
    }
    count *= (size_t)t->dims[d];
  }
  t->bytes = count * es;
  int over = over_bound(r, t->bytes, max_bytes, name, err, n);
  if (over) return over;
  json_t *params = json_object_get(in, "parameters");
  json_t *bsize = params ? json_object_get(params, "binary_data_size") : NULL;
  json_t *data = json_object_get(in, "data");
  if (bsize) {
    if (!json_is_integer(bsize) || json_integer_value(bsize) < 0) {
      snprintf(err, n, "input '%s': binary_data_size must be a non-negative integer", name);
      return 400;
    }
    size_t sz = (size_t)json_integer_value(bsize);
    if (data) {
      snprintf(err, n, "input '%s': both 'data' and binary_data_size given", name);
      return 400;
    }
    if (sz != t->bytes) {
      snprintf(err, n, "input '%s': binary_data_size %zu, shape and datatype need %zu bytes", name, sz, t->bytes);
      return 400;
    }
    if (bin_len - *bin_at < sz) {
      snprintf(err, n, "input '%s': binary data truncated (%zu bytes left, %zu needed)", name, bin_len - *bin_at, sz);
      return 400;
    }
    t->data = bin + *bin_at;
    *bin_at += sz;
    if ((uintptr_t)t->data % 64 != 0) {
      /* Kernels may load whole elements or vectors: run in place only when 64-byte aligned
       * (the HTTP front aligns the first binary tensor), else copy. */
      void *p = NULL;
      if (posix_memalign(&p, 64, sz ? sz : 1) != 0) {
        snprintf(err, n, "input '%s': out of memory for %zu bytes", name, sz);
        return 500;
      }
      memcpy(p, t->data, sz);
      t->owned = p;
      t->data = p;
    }
  } else {
    if (!data) {
      snprintf(err, n, "input '%s': no 'data' (and no binary_data_size)", name);
      return 400;
    }
    t->owned = malloc(t->bytes ? t->bytes : 1);
    if (!t->owned) {
      snprintf(err, n, "input '%s': out of memory for %zu bytes", name, t->bytes);
      return 500;
    }
    char what[300];
    snprintf(what, sizeof what, "input '%s'", name);
    if (span ? fill_span(body + span->off, span->len, io->dtype, t->owned, count, what, err, n)
             : srv_json_fill(data, io->dtype, t->owned, count, what, err, n))
      return 400;
    t->data = t->owned;
  }
  t->set = 1;
  return 0;
}

int srv_kserve_parse(const char *body, size_t len, size_t json_len, const srv_sig *sig, size_t max_bytes,
                     srv_request *r, char *err, size_t n) {
  srv_request_init(r, sig->n_out);
  if (json_len > len) {
    snprintf(err, n, "Inference-Header-Content-Length %zu is larger than the body (%zu bytes)", json_len, len);
    return 400;
  }
  json_error_t je;
  /* The "data" values stay text (no jansson tree for the tensors); see srv_json_spans.c. */
  srv_json_span spans[SRV_MAX_IO];
  int n_spans = srv_json_find_spans(body, json_len, spans, SRV_MAX_IO);
  json_t *root = n_spans > 0 ? srv_json_load_without_spans(body, json_len, spans, n_spans, &je)
                             : json_loadb(body, json_len, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    snprintf(err, n, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
    return 400;
  }
  int rc = 0;
  if (!json_is_object(root)) {
    snprintf(err, n, "the request must be a JSON object");
    rc = 400;
    goto done;
  }
  json_t *id = json_object_get(root, "id");
  if (id && json_is_string(id)) snprintf(r->id, sizeof r->id, "%s", json_string_value(id));
  json_t *params = json_object_get(root, "parameters");
  int all_binary = 0;
  if (params && (!json_is_object(params) || bool_param(params, "binary_data_output", &all_binary))) {
    snprintf(err, n, "'parameters' must be an object and binary_data_output a boolean");
    rc = 400;
    goto done;
  }
  json_t *inputs = json_object_get(root, "inputs");
  if (!json_is_array(inputs)) {
    snprintf(err, n, "'inputs' is missing or not a list");
    rc = 400;
    goto done;
  }
  size_t bin_at = 0;
  size_t k;
  json_t *in;
  json_array_foreach(inputs, k, in) {
    const srv_json_span *span = NULL;
    for (int i = 0; i < n_spans; i++)
      if (spans[i].input == (int)k) span = &spans[i];
    if ((rc = parse_input(in, (int)k, sig, span, body, max_bytes, r, body + json_len, len - json_len, &bin_at, err,
                          n)))
      goto done;
  }
  for (int i = 0; i < sig->n_in; i++)
    if (!r->in[i].set) {
      snprintf(err, n, "input '%s' is missing", sig->in[i].name);
      rc = 400;
      goto done;
    }
  if (bin_at != len - json_len) {
    snprintf(err, n, "%zu bytes of binary data after the header, the inputs use %zu", len - json_len, bin_at);
    rc = 400;
    goto done;
  }
  json_t *outputs = json_object_get(root, "outputs");
  if (outputs) {
    if (!json_is_array(outputs)) {
      snprintf(err, n, "'outputs' is not a list");
      rc = 400;
      goto done;
    }
    for (int i = 0; i < sig->n_out; i++) r->want[i] = 0;
    json_t *o;
    json_array_foreach(outputs, k, o) {
      const char *name = json_string_value(json_object_get(o, "name"));
      if (!name) {
        snprintf(err, n, "outputs[%zu]: 'name' is missing or not a string", k);
        rc = 400;
        goto done;
      }
      int idx = find_io(sig->out, sig->n_out, name);
      if (idx < 0) {
        char names[512];
        list_names(sig->out, sig->n_out, names, sizeof names);
        snprintf(err, n, "unknown output '%s' (the model's outputs: %s)", name, names);
        rc = 400;
        goto done;
      }
      r->want[idx] = 1;
      r->binary[idx] = all_binary;
      json_t *op = json_object_get(o, "parameters");
      if (op && (!json_is_object(op) || bool_param(op, "binary_data", &r->binary[idx]))) {
        snprintf(err, n, "output '%s': 'parameters.binary_data' must be a boolean", name);
        rc = 400;
        goto done;
      }
    }
  } else {
    for (int i = 0; i < sig->n_out; i++) r->binary[i] = all_binary;
  }
  for (int i = 0; i < sig->n_out; i++)
    if (r->want[i] && r->binary[i]) r->any_binary = 1;
done:
  json_decref(root);
  if (rc) srv_request_free(r);
  return rc;
}
