/* YAML config loader: libyaml's document API, then a strict walk that names FILE:LINE and the
 * key of anything unknown or invalid. */
#include "srv_config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <yaml.h>

#include "tfcc/tfcc.h"

int srv_config_init(srv_config *c) {
  memset(c, 0, sizeof *c);
  c->models = calloc(SRV_MAX_MODELS, sizeof *c->models);
  if (!c->models) return -1;
  c->num_threads = 0;
  c->poll_ms = 1000;
  srv_model_config_default(&c->repo_model);
  snprintf(c->host, sizeof c->host, "127.0.0.1");
  c->port = 8000;
  c->health_port = -1;
  c->max_connections = 256;
  c->max_connections_per_client = -1;
  c->max_body_mb = 64;
  c->max_request_mb = 256;
  c->read_timeout_s = 30;
  c->receive_timeout_s = 60;
  c->request_timeout_ms = 30000;
  c->drain_timeout_s = 30;
  c->metrics_enabled = 1;
  snprintf(c->metrics_path, sizeof c->metrics_path, "/metrics");
  c->log_level = 2;
  c->access_log = 1;
  return 0;
}

void srv_config_free(srv_config *c) {
  free(c->models);
  c->models = NULL;
  c->n_models = 0;
}

void srv_model_config_default(srv_model_config *m) {
  memset(m, 0, sizeof *m);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  m->sessions = n > 0 && n < 64 ? (int)n : 2;
  m->max_queue = 256;
}

srv_model_config *srv_config_add_model(srv_config *c) {
  if (c->n_models >= SRV_MAX_MODELS) return NULL;
  srv_model_config *m = &c->models[c->n_models++];
  srv_model_config_default(m);
  return m;
}

/* ---------------------------------------------------------------- walking */

typedef struct walk {
  yaml_document_t *doc;
  const char *file;
  char *err;
  size_t n;
} walk;

int srv_config_device(srv_config *c, const char *v) {
  char name[16];
  int id = 0;
  const char *colon = strchr(v, ':');
  size_t len = colon ? (size_t)(colon - v) : strlen(v);
  if (len == 0 || len >= sizeof name) return -1;
  memcpy(name, v, len);
  name[len] = 0;
  if (strcmp(name, "cpu") != 0 && strcmp(name, "cuda") != 0) return -1;
  if (colon) {
    char *end = NULL;
    long l = strtol(colon + 1, &end, 10);
    if (!colon[1] || *end || l < 0 || l > 1024) return -1;
    id = (int)l;
  }
  snprintf(c->device, sizeof c->device, "%s", name);
  c->device_id = id;
  return 0;
}

static int fail(walk *w, const yaml_node_t *node, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(walk *w, const yaml_node_t *node, const char *key, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(w->err, w->n, "%s:%lu: %s: %s", w->file,
           (unsigned long)(node ? node->start_mark.line + 1 : 0), key, msg);
  return -1;
}

static const char *scalar(const yaml_node_t *node) {
  return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

/* A scalar that must be one of a table's names (NULL-terminated); `what` lists them for the error. */
typedef struct choice {
  const char *name;
  int value;
} choice;
static int get_choice(walk *w, const yaml_node_t *v, const char *key, const choice *t,
                      const char *what, int *out) {
  const char *s = scalar(v);
  if (!s) return fail(w, v, key, "expected %s", what);
  for (; t->name; t++)
    if (!strcmp(s, t->name)) {
      *out = t->value;
      return 0;
    }
  return fail(w, v, key, "'%s' is not %s", s, what);
}

static int get_int(walk *w, const yaml_node_t *v, const char *key, long min, long max, int *out) {
  const char *s = scalar(v);
  if (!s) return fail(w, v, key, "expected an integer");
  errno = 0;
  char *end;
  long x = strtol(s, &end, 10);
  if (errno || end == s || *end) return fail(w, v, key, "'%s' is not an integer", s);
  if (x < min || x > max) return fail(w, v, key, "%ld is out of range [%ld, %ld]", x, min, max);
  *out = (int)x;
  return 0;
}

static int get_i64(walk *w, const yaml_node_t *v, const char *key, long long min, long long max,
                   int64_t *out) {
  const char *s = scalar(v);
  if (!s) return fail(w, v, key, "expected an integer");
  errno = 0;
  char *end;
  long long x = strtoll(s, &end, 10);
  if (errno || end == s || *end) return fail(w, v, key, "'%s' is not an integer", s);
  if (x < min || x > max) return fail(w, v, key, "%lld is out of range [%lld, %lld]", x, min, max);
  *out = x;
  return 0;
}

static int get_bool(walk *w, const yaml_node_t *v, const char *key, int *out) {
  const char *s = scalar(v);
  if (s && (!strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on")))
    *out = 1;
  else if (s && (!strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off")))
    *out = 0;
  else
    return fail(w, v, key, "expected true or false");
  return 0;
}

static int get_str(walk *w, const yaml_node_t *v, const char *key, char *out, size_t size) {
  const char *s = scalar(v);
  if (!s) return fail(w, v, key, "expected a string");
  if (strlen(s) >= size) return fail(w, v, key, "longer than %zu characters", size - 1);
  if (!s[0]) return fail(w, v, key, "empty");
  memcpy(out, s, strlen(s) + 1);
  return 0;
}

typedef int (*pair_fn)(walk *w, void *ctx, const char *key, yaml_node_t *value);

/* Calls fn for every key of a mapping; key names in errors are prefixed with section. */
static int each_pair(walk *w, yaml_node_t *map, const char *section, void *ctx, pair_fn fn) {
  if (!map || map->type != YAML_MAPPING_NODE) return fail(w, map, section, "expected a mapping");
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(w->doc, p->key);
    yaml_node_t *v = yaml_document_get_node(w->doc, p->value);
    const char *ks = scalar(k);
    if (!ks) return fail(w, k, section, "keys must be strings");
    char full[160];
    snprintf(full, sizeof full, "%s%s%s", section, section[0] ? "." : "", ks);
    if (fn(w, ctx, full, v) != 0) return -1;
  }
  return 0;
}

static const char *leaf(const char *full) {
  const char *d = strrchr(full, '.');
  return d ? d + 1 : full;
}

#define UNKNOWN(w, v, key) fail(w, v, key, "unknown key")

static int runtime_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_config *c = ctx;
  const char *k = leaf(key);
  if (!strcmp(k, "num_threads")) return get_int(w, v, key, 0, 1024, &c->num_threads);
  if (!strcmp(k, "memory_pool_mb")) return get_int(w, v, key, 0, 1 << 20, &c->memory_pool_mb);
  if (!strcmp(k, "weights_cache"))
    return get_str(w, v, key, c->weights_cache, sizeof c->weights_cache);
  if (!strcmp(k, "custom_ops")) { /* a list of plugin paths, or one path */
    c->n_custom_ops = 0;
    if (v->type == YAML_SCALAR_NODE) {
      c->n_custom_ops = 1;
      return get_str(w, v, key, c->custom_ops[0], sizeof c->custom_ops[0]);
    }
    if (v->type != YAML_SEQUENCE_NODE)
      return fail(w, v, key, "expected a list of custom-operator libraries");
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++) {
      if (c->n_custom_ops >= SRV_MAX_CUSTOM_OPS)
        return fail(w, v, key, "more than %d libraries", SRV_MAX_CUSTOM_OPS);
      if (get_str(w, yaml_document_get_node(w->doc, *it), key, c->custom_ops[c->n_custom_ops],
                  sizeof c->custom_ops[0]))
        return -1;
      c->n_custom_ops++;
    }
    return 0;
  }
  if (!strcmp(k, "device")) { /* cpu, cuda, cuda:N (docs/cuda.md) */
    if (get_str(w, v, key, c->device, sizeof c->device)) return -1;
    return srv_config_device(c, c->device)
               ? fail(w, v, key, "'%s' is not cpu, cuda or cuda:N", c->device)
               : 0;
  }
  if (!strcmp(k, "isa")) {
    if (get_str(w, v, key, c->isa, sizeof c->isa)) return -1;
    const char *ok[] = {"generic", "sse4", "avx2", "avx512", "neon", "wasmsimd"};
    for (size_t i = 0; i < 6; i++)
      if (!strcmp(c->isa, ok[i])) return 0;
    return fail(w, v, key, "'%s' is not one of generic, sse4, avx2, avx512, neon, wasmsimd",
                c->isa);
  }
  if (!strcmp(k, "cpu_affinity")) {
    if (v->type != YAML_SEQUENCE_NODE) return fail(w, v, key, "expected a list of CPU ids");
    c->n_affinity = 0;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++) {
      if (c->n_affinity >= 256) return fail(w, v, key, "more than 256 CPUs");
      if (get_int(w, yaml_document_get_node(w->doc, *it), key, 0, 4095,
                  &c->cpu_affinity[c->n_affinity++]))
        return -1;
    }
    return 0;
  }
  return UNKNOWN(w, v, key);
}

static int name_list(walk *w, yaml_node_t *v, const char *key, char names[][SRV_NAME_MAX],
                     int *count) {
  if (v->type != YAML_SEQUENCE_NODE) return fail(w, v, key, "expected a list of tensor names");
  *count = 0;
  for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
    if (*count >= SRV_MAX_IO) return fail(w, v, key, "more than %d names", SRV_MAX_IO);
    if (get_str(w, yaml_document_get_node(w->doc, *it), key, names[*count], SRV_NAME_MAX))
      return -1;
    (*count)++;
  }
  return 0;
}

static int model_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_model_config *m = ctx;
  const char *k = leaf(key);
  if (!strcmp(k, "name")) {
    if (get_str(w, v, key, m->name, sizeof m->name)) return -1;
    for (const char *p = m->name; *p; p++)
      if (*p == '/' || *p == ' ' || *p == ':' || *p == '?' || *p == '#' || *p == '%')
        return fail(w, v, key, "'%s': model names may not contain '/', ' ', ':', '?', '#', '%%'",
                    m->name);
    return 0;
  }
  if (!strcmp(k, "path")) return get_str(w, v, key, m->path, sizeof m->path);
  if (!strcmp(k, "sessions") || !strcmp(k, "instances"))
    return get_int(w, v, key, 1, 256, &m->sessions);
  if (!strcmp(k, "max_queue")) return get_int(w, v, key, 0, 1 << 20, &m->max_queue);
  if (!strcmp(k, "max_batch")) return get_int(w, v, key, 0, 1024, &m->max_batch);
  if (!strcmp(k, "max_queue_delay_us"))
    return get_i64(w, v, key, 0, 10000000, &m->max_queue_delay_us);
  if (!strcmp(k, "precision")) {
    static const choice precisions[] = {
        {"fp32", TFCC_PRECISION_F32},    {"f32", TFCC_PRECISION_F32},
        {"float32", TFCC_PRECISION_F32}, {"bf16", TFCC_PRECISION_BF16},
        {"fp16", TFCC_PRECISION_F16},    {NULL, 0}};
    return get_choice(w, v, key, precisions, "fp32, bf16 or fp16", &m->precision);
  }
  if (!strcmp(k, "quant_compat")) {
    static const choice modes[] = {{"tflite", TFCC_QUANT_COMPAT_TFLITE},
                                   {"reference", TFCC_QUANT_COMPAT_REFERENCE},
                                   {NULL, 0}};
    return get_choice(w, v, key, modes, "tflite or reference", &m->quant_compat);
  }
  if (!strcmp(k, "key_file") || !strcmp(k, "key_env")) {
    const int env = !strcmp(k, "key_env");
    if (env ? m->key_file[0] != '\0' : m->key_env[0] != '\0')
      return fail(w, v, key, "give key_file or key_env, not both");
    return env ? get_str(w, v, key, m->key_env, sizeof m->key_env)
               : get_str(w, v, key, m->key_file, sizeof m->key_file);
  }
  if (!strcmp(k, "inputs")) return name_list(w, v, key, m->inputs, &m->n_inputs);
  if (!strcmp(k, "outputs")) return name_list(w, v, key, m->outputs, &m->n_outputs);
  if (!strcmp(k, "versions")) {
    const char *s = scalar(v);
    if (s && !strcmp(s, "latest")) {
      m->n_versions = 0;
      return 0;
    }
    if (v->type != YAML_SEQUENCE_NODE)
      return fail(w, v, key, "expected 'latest' or a list of version numbers");
    m->n_versions = 0;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++) {
      if (m->n_versions >= SRV_MAX_VERSIONS)
        return fail(w, v, key, "more than %d versions", SRV_MAX_VERSIONS);
      if (get_i64(w, yaml_document_get_node(w->doc, *it), key, 1, INT64_MAX,
                  &m->versions[m->n_versions++]))
        return -1;
    }
    return 0;
  }
  return UNKNOWN(w, v, key);
}

static int timeouts_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_config *c = ctx;
  const char *k = leaf(key);
  if (!strcmp(k, "read_s")) return get_int(w, v, key, 1, 3600, &c->read_timeout_s);
  if (!strcmp(k, "receive_s")) return get_int(w, v, key, 1, 3600, &c->receive_timeout_s);
  if (!strcmp(k, "request_ms")) return get_int(w, v, key, 1, 3600000, &c->request_timeout_ms);
  if (!strcmp(k, "drain_s")) return get_int(w, v, key, 0, 3600, &c->drain_timeout_s);
  return UNKNOWN(w, v, key);
}

static int server_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_config *c = ctx;
  const char *k = leaf(key);
  if (!strcmp(k, "host")) return get_str(w, v, key, c->host, sizeof c->host);
  if (!strcmp(k, "port")) return get_int(w, v, key, 0, 65535, &c->port);
  if (!strcmp(k, "health_port")) return get_int(w, v, key, -1, 65535, &c->health_port);
  if (!strcmp(k, "max_connections")) return get_int(w, v, key, 1, 65536, &c->max_connections);
  if (!strcmp(k, "max_connections_per_client"))
    return get_int(w, v, key, 0, 65536, &c->max_connections_per_client);
  if (!strcmp(k, "max_body_mb")) return get_int(w, v, key, 1, 4096, &c->max_body_mb);
  if (!strcmp(k, "max_request_mb")) return get_int(w, v, key, 1, 1 << 20, &c->max_request_mb);
  if (!strcmp(k, "timeouts")) return each_pair(w, v, key, c, timeouts_pair);
  return UNKNOWN(w, v, key);
}

static int metrics_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_config *c = ctx;
  const char *k = leaf(key);
  if (!strcmp(k, "enabled")) return get_bool(w, v, key, &c->metrics_enabled);
  if (!strcmp(k, "path")) {
    if (get_str(w, v, key, c->metrics_path, sizeof c->metrics_path)) return -1;
    if (c->metrics_path[0] != '/') return fail(w, v, key, "must start with '/'");
    return 0;
  }
  return UNKNOWN(w, v, key);
}

static int log_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_config *c = ctx;
  const char *k = leaf(key);
  if (!strcmp(k, "level")) {
    const char *s = scalar(v);
    const char *names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; s && i < 4; i++)
      if (!strcasecmp(s, names[i])) {
        c->log_level = i;
        return 0;
      }
    return fail(w, v, key, "expected error, warn, info or debug");
  }
  if (!strcmp(k, "format")) {
    const char *s = scalar(v);
    if (s && !strcmp(s, "text"))
      c->log_json = 0;
    else if (s && !strcmp(s, "json"))
      c->log_json = 1;
    else
      return fail(w, v, key, "expected text or json");
    return 0;
  }
  if (!strcmp(k, "access")) return get_bool(w, v, key, &c->access_log);
  return UNKNOWN(w, v, key);
}

static int repo_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_config *c = ctx;
  const char *k = leaf(key);
  if (!strcmp(k, "path")) return get_str(w, v, key, c->repository, sizeof c->repository);
  if (!strcmp(k, "poll_ms")) return get_int(w, v, key, 50, 3600000, &c->poll_ms);
  /* settings of every model found in the repository */
  if (!strcmp(k, "sessions") || !strcmp(k, "instances") || !strcmp(k, "max_queue") ||
      !strcmp(k, "max_batch") || !strcmp(k, "max_queue_delay_us") || !strcmp(k, "precision") ||
      !strcmp(k, "quant_compat") || !strcmp(k, "key_file") || !strcmp(k, "key_env"))
    return model_pair(w, &c->repo_model, key, v);
  return UNKNOWN(w, v, key);
}

static int top_pair(walk *w, void *ctx, const char *key, yaml_node_t *v) {
  srv_config *c = ctx;
  if (!strcmp(key, "runtime")) return each_pair(w, v, key, c, runtime_pair);
  if (!strcmp(key, "server")) return each_pair(w, v, key, c, server_pair);
  if (!strcmp(key, "metrics")) return each_pair(w, v, key, c, metrics_pair);
  if (!strcmp(key, "log")) return each_pair(w, v, key, c, log_pair);
  if (!strcmp(key, "repository")) return each_pair(w, v, key, c, repo_pair);
  if (!strcmp(key, "models")) {
    if (v->type != YAML_SEQUENCE_NODE) return fail(w, v, key, "expected a list of models");
    int i = 0;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++, i++) {
      yaml_node_t *mn = yaml_document_get_node(w->doc, *it);
      srv_model_config *m = srv_config_add_model(c);
      if (!m) return fail(w, mn, key, "more than %d models", SRV_MAX_MODELS);
      char section[32];
      snprintf(section, sizeof section, "models[%d]", i);
      if (each_pair(w, mn, section, m, model_pair)) return -1;
      if (!m->name[0]) return fail(w, mn, section, "'name' is required");
      if (!m->path[0]) return fail(w, mn, section, "'path' is required");
    }
    return 0;
  }
  return UNKNOWN(w, v, key);
}

/* libyaml's document loader is slow on deep nesting (a file nested 100,000 levels took over
 * 15 s) and the config is at most 4 levels deep: walk the events first and stop at the first
 * collection deeper than SRV_CONFIG_MAX_DEPTH, before anything deep is built. 0 or -1. */
static int check_depth(const char *name, const char *text, size_t len, char *err, size_t n) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    snprintf(err, n, "%s: cannot initialise the YAML parser", name);
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  int depth = 0, rc = 0;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) break; /* the loader below reports syntax errors */
    yaml_event_type_t t = ev.type;
    unsigned long line = (unsigned long)ev.start_mark.line + 1;
    yaml_event_delete(&ev);
    if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
      if (++depth > SRV_CONFIG_MAX_DEPTH) {
        snprintf(err, n, "%s:%lu: nested more than %d levels deep", name, line,
                 SRV_CONFIG_MAX_DEPTH);
        rc = -1;
        break;
      }
    } else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
      depth--;
    } else if (t == YAML_STREAM_END_EVENT) {
      break;
    }
  }
  yaml_parser_delete(&parser);
  return rc;
}

int srv_config_load_buffer(const char *name, const char *text, size_t len, srv_config *c, char *err,
                           size_t n) {
  yaml_parser_t parser;
  yaml_document_t doc;
  if (check_depth(name, text, len, err, n) != 0) return -1;
  if (!yaml_parser_initialize(&parser)) {
    snprintf(err, n, "%s: cannot initialise the YAML parser", name);
    return -1;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(err, n, "%s:%lu: YAML error: %s%s%s", name,
             (unsigned long)parser.problem_mark.line + 1,
             parser.problem ? parser.problem : "syntax error", parser.context ? " " : "",
             parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    return -1;
  }
  walk w = {&doc, name, err, n};
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  int rc = 0;
  if (root) {
    const char *s = scalar(root);
    if (!(s && !s[0])) rc = each_pair(&w, root, "", c, top_pair);
  }
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  if (rc == 0) rc = srv_config_validate(c, err, n);
  return rc;
}

int srv_config_load_file(const char *path, srv_config *c, char *err, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, n, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  char *text = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 4096 > cap) {
      cap = cap ? cap * 2 : 8192;
      if (cap > (16u << 20)) {
        free(text);
        fclose(f);
        snprintf(err, n, "%s: larger than 16 MiB", path);
        return -1;
      }
      char *p = realloc(text, cap);
      if (!p) {
        free(text);
        fclose(f);
        snprintf(err, n, "%s: out of memory", path);
        return -1;
      }
      text = p;
    }
    size_t got = fread(text + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  fclose(f);
  int rc = srv_config_load_buffer(path, text ? text : "", len, c, err, n);
  free(text);
  return rc;
}

int srv_config_validate(const srv_config *c, char *err, size_t n) {
  for (int i = 0; i < c->n_models; i++)
    for (int j = 0; j < i; j++)
      if (!strcmp(c->models[i].name, c->models[j].name)) {
        snprintf(err, n, "models: the name '%s' is used twice", c->models[i].name);
        return -1;
      }
  if (c->n_models == 0 && !c->repository[0]) {
    snprintf(err, n, "no models: give 'models' or 'repository.path'");
    return -1;
  }
  return 0;
}
