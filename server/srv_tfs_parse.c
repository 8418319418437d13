/* TF Serving REST predict request parser: row format {"instances": [...]} (one entry per
 * example, a value or an object of named inputs; stacked along a new first dimension) and
 * columnar format {"inputs": value | {name: value}}. Shapes come from the nesting; the
 * element type is the model's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_tensor.h"

static int fill_input(const srv_sig *sig, int idx, srv_request *r, const json_t *value, int stacked,
                      const json_t *instances, size_t max_bytes, char *err, size_t n) {
  const srv_io *io = &sig->in[idx];
  srv_tensor *t = &r->in[idx];
  char what[300];
  snprintf(what, sizeof what, "input '%s'", io->name);
  int32_t rank, dims[TFCC_MAX_DIMS];
  if (srv_json_shape(value, &rank, dims, err, n, what)) return 400;
  if (stacked) {
    if (rank + 1 > TFCC_MAX_DIMS) {
      snprintf(err, n, "%s: more than %d dimensions", what, TFCC_MAX_DIMS);
      return 400;
    }
    memmove(dims + 1, dims, sizeof(int32_t) * (size_t)rank);
    dims[0] = (int32_t)json_array_size(instances);
    rank++;
  }
  if (srv_shape_check(io, rank, dims, err, n)) return 400;
  t->rank = rank;
  memcpy(t->dims, dims, sizeof dims);
  size_t count = srv_elements(rank, dims), es = tfcc_dtype_size(io->dtype);
  if (es == 0 || !srv_v2_dtype(io->dtype)) {
    snprintf(err, n, "%s: datatype %s is not supported", what, tfcc_dtype_name(io->dtype));
    return 400;
  }
  t->bytes = count * es;
  r->input_bytes += t->bytes;
  if (max_bytes && r->input_bytes > max_bytes) {
    snprintf(
        err, n,
        "%s: the inputs need %zu bytes (elements x datatype size), more than server.max_request_mb "
        "(%zu MiB)",
        what, r->input_bytes, max_bytes >> 20);
    return 413;
  }
  t->owned = malloc(t->bytes ? t->bytes : 1);
  if (!t->owned) {
    snprintf(err, n, "%s: out of memory", what);
    return 500;
  }
  t->data = t->owned;
  t->set = 1;
  if (!stacked) return srv_json_fill(value, io->dtype, t->owned, count, what, err, n) ? 400 : 0;
  /* Stack the per-instance values; each must have the same element count. */
  size_t per = dims[0] ? count / (size_t)dims[0] : 0, k;
  json_t *inst;
  json_array_foreach(instances, k, inst) {
    const json_t *v = json_is_object(inst) ? json_object_get(inst, io->name) : inst;
    if (!v) {
      snprintf(err, n, "instances[%zu]: input '%s' is missing", k, io->name);
      return 400;
    }
    char w2[340];
    snprintf(w2, sizeof w2, "instances[%zu]: input '%s'", k, io->name);
    if (srv_json_fill(v, io->dtype, (char *)t->owned + k * per * es, per, w2, err, n)) return 400;
  }
  return 0;
}

int srv_tfs_load(const char *body, size_t len, json_t **root, char *err, size_t n) {
  json_error_t je;
  *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
  if (*root) return 0;
  snprintf(err, n, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
  return 400;
}

int srv_tfs_fill(const json_t *root, const srv_sig *sig, size_t max_bytes, srv_request *r,
                 char *err, size_t n) {
  srv_request_init(r, sig->n_out);
  int rc = 0;
  json_t *instances = json_is_object(root) ? json_object_get(root, "instances") : NULL;
  json_t *inputs = json_is_object(root) ? json_object_get(root, "inputs") : NULL;
  if (!json_is_object(root) || (!instances == !inputs)) {
    snprintf(err, n, "the request must be an object with exactly one of 'instances' or 'inputs'");
    rc = 400;
    goto done;
  }
  if (instances) {
    r->row_format = 1;
    if (!json_is_array(instances) || json_array_size(instances) == 0) {
      snprintf(err, n, "'instances' must be a non-empty list");
      rc = 400;
      goto done;
    }
    json_t *first = json_array_get(instances, 0);
    int named = json_is_object(first);
    if (!named && sig->n_in != 1) {
      snprintf(err, n, "the model has %d inputs: each instance must be an object of named inputs",
               sig->n_in);
      rc = 400;
      goto done;
    }
    size_t k;
    json_t *inst;
    json_array_foreach(instances, k, inst) if (json_is_object(inst) != named) {
      snprintf(err, n, "instances[%zu]: all instances must have the same form", k);
      rc = 400;
      goto done;
    }
    if (named) {
      const char *key;
      json_t *v;
      json_object_foreach(first, key, v) {
        int found = 0;
        for (int i = 0; i < sig->n_in; i++) found |= !strcmp(sig->in[i].name, key);
        if (!found) {
          snprintf(err, n, "unknown input '%s'", key);
          rc = 400;
          goto done;
        }
      }
    }
    for (int i = 0; i < sig->n_in; i++) {
      const json_t *v0 = named ? json_object_get(first, sig->in[i].name) : first;
      if (!v0) {
        snprintf(err, n, "input '%s' is missing", sig->in[i].name);
        rc = 400;
        goto done;
      }
      if ((rc = fill_input(sig, i, r, v0, 1, instances, max_bytes, err, n))) goto done;
    }
  } else if (json_is_object(inputs)) {
    r->tfs_named_inputs = 1;
    const char *key;
    json_t *v;
    json_object_foreach(inputs, key, v) {
      int idx = -1;
      for (int i = 0; i < sig->n_in; i++)
        if (!strcmp(sig->in[i].name, key)) idx = i;
      if (idx < 0) {
        snprintf(err, n, "unknown input '%s'", key);
        rc = 400;
        goto done;
      }
      if ((rc = fill_input(sig, idx, r, v, 0, NULL, max_bytes, err, n))) goto done;
    }
    for (int i = 0; i < sig->n_in; i++)
      if (!r->in[i].set) {
        snprintf(err, n, "input '%s' is missing", sig->in[i].name);
        rc = 400;
        goto done;
      }
  } else {
    if (sig->n_in != 1) {
      snprintf(err, n, "the model has %d inputs: 'inputs' must be an object of named inputs",
               sig->n_in);
      rc = 400;
      goto done;
    }
    rc = fill_input(sig, 0, r, inputs, 0, NULL, max_bytes, err, n);
  }
done:
  if (rc) srv_request_free(r);
  return rc;
}

int srv_tfs_parse(const char *body, size_t len, const srv_sig *sig, size_t max_bytes,
                  srv_request *r, char *err, size_t n) {
  json_t *root;
  int rc = srv_tfs_load(body, len, &root, err, n);
  if (rc) {
    srv_request_init(r, sig->n_out);
    return rc;
  }
  rc = srv_tfs_fill(root, sig, max_bytes, r, err, n);
  json_decref(root);
  return rc;
}
