/* tfcc inspect MODEL [--json]: inputs/outputs (dtype, shape, signature, quantization),
 * operator table (count, versions, MACs per operator type), tensor count, constant bytes,
 * description and unsupported operators. The model is loaded with allow_unsupported=1 so
 * models tfcc cannot run can still be inspected (MACs are then unknown: 0). A signature or
 * subgraph that cannot run (docs/runtime.md, "Subgraphs that cannot run") is listed with its
 * cause; the rest of the model is inspected as usual.
 *
 * Two views of the operators: the file's (the model loaded a second time with every graph pass
 * off) and tfcc's plan after its graph passes (docs/passes.md), which folds constants, drops
 * no-ops and fuses nodes into tfcc-internal operators such as EXPAND_DEPTHWISE_CONV_2D. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "common/json.h"
#include "common/npy.h"

#define CMD "inspect"
#define MAX_VERSIONS 16

static const char k_usage[] =
    "usage: tfcc inspect MODEL [--json] [--memory] [--custom-ops LIB.so ...]\n"
    "                    [--key-file FILE | --key-env VAR]\n"
    "\n"
    "Describes a .tflite model: inputs and outputs (dtype, shape, shape signature,\n"
    "quantization), the file's operators (count, versions, MACs per type and in total), the\n"
    "operators of tfcc's plan after its graph passes (constants folded, no-ops dropped, fused\n"
    "nodes), tensor count, constant bytes, description, and operators tfcc does not support.\n"
    "\n"
    "  --json       machine-readable output\n"
    "  --memory     also plan a session at the stored shapes and show its memory: arena bytes,\n"
    "               naive sum of all intermediates, lower bound (largest set of simultaneously\n"
    "               live tensors), per-session persistent bytes, constants\n"
    "\n"
    "It also lists the dynamic tensors: those whose shape depends on data known only while\n"
    "running (at the stored input shapes), each with the node that produces it and why.\n"
    "  --custom-ops LIB.so  register the custom operators of plugin LIB.so (repeatable;\n"
    "               docs/custom_ops.md)\n"
    "  --key-file FILE  key of an encrypted MODEL (.tfcce, tfcc encrypt): 32 raw bytes or\n"
    "               64 hex digits\n"
    "  --key-env VAR    the same key as 64 hex digits in environment variable VAR\n"
    "  -h, --help   this text\n";

enum { OPT_JSON = 1, OPT_MEMORY, OPT_HELP, OPT_CUSTOM_OPS, OPT_KEY_FILE, OPT_KEY_ENV };
static const arg_opt k_opts[] = {{OPT_JSON, NULL, "--json", 0},
                                 {OPT_MEMORY, NULL, "--memory", 0},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {OPT_CUSTOM_OPS, NULL, "--custom-ops", 1},
                                 {OPT_KEY_FILE, NULL, "--key-file", 1},
                                 {OPT_KEY_ENV, NULL, "--key-env", 1},
                                 {0, NULL, NULL, 0}};

typedef struct op_group {
  const char *name;
  int count;
  int supported;
  int64_t macs;
  int n_versions;
  int32_t versions[MAX_VERSIONS];
} op_group;

static int cmp_group(const void *a, const void *b) {
  const op_group *x = (const op_group *)a, *y = (const op_group *)b;
  if (x->count != y->count) return y->count - x->count;
  return strcmp(x->name, y->name);
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Groups the operators by name (sorted by count, then name), leaving out nodes the graph passes
 * removed. Returns the group count or -1; *nodes: the nodes counted. */
static int group_ops(const tfcc_model *m, op_group **out, int64_t *total_macs, int *nodes) {
  int n = tfcc_model_op_count(m), g = 0;
  *nodes = 0;
  op_group *groups = (op_group *)calloc((size_t)(n > 0 ? n : 1), sizeof *groups);
  if (!groups) return -1;
  *total_macs = 0;
  for (int i = 0; i < n; i++) {
    tfcc_op_info oi;
    if (tfcc_model_op_info(m, i, &oi) != TFCC_OK || oi.removed) continue;
    ++*nodes;
    const char *name = oi.name ? oi.name : "?";
    int k = 0;
    while (k < g && strcmp(groups[k].name, name) != 0) k++;
    if (k == g) {
      groups[g].name = name;
      groups[g].supported = 1;
      g++;
    }
    op_group *gr = &groups[k];
    gr->count++;
    gr->macs += oi.macs;
    *total_macs += oi.macs;
    if (!oi.supported) gr->supported = 0;
    int seen = 0;
    for (int v = 0; v < gr->n_versions; v++) seen |= gr->versions[v] == oi.version;
    if (!seen && gr->n_versions < MAX_VERSIONS) gr->versions[gr->n_versions++] = oi.version;
  }
  for (int k = 0; k < g; k++)
    qsort(groups[k].versions, (size_t)groups[k].n_versions, sizeof(int32_t), cmp_i32);
  qsort(groups, (size_t)g, sizeof *groups, cmp_group);
  *out = groups;
  return g;
}

/* The library's list without its leading "unsupported: " ("" if none). */
static const char *unsupported_list(const tfcc_model *m) {
  const char *u = tfcc_model_unsupported(m);
  static const char prefix[] = "unsupported: ";
  if (strncmp(u, prefix, sizeof prefix - 1) == 0) u += sizeof prefix - 1;
  return u;
}

/* Subgraph 0 runs (its MACs were computed at load): "" from tfcc_model_subgraph_error. */
static int main_runs(const tfcc_model *m) {
  const char *why = tfcc_model_subgraph_error(m, 0);
  return why && !why[0];
}

/* ------------------------------------------------------------ text */

static void text_quant(const tfcc_tensor_info *t) {
  if (t->quant_count <= 0) {
    printf("not quantized");
  } else if (t->quant_count == 1) {
    printf("scale=%.9g zero_point=%d", (double)t->scales[0], (int)t->zero_points[0]);
  } else {
    float lo = t->scales[0], hi = t->scales[0];
    for (int32_t i = 1; i < t->quant_count; i++) {
      if (t->scales[i] < lo) lo = t->scales[i];
      if (t->scales[i] > hi) hi = t->scales[i];
    }
    printf("per-axis axis=%d, %d scales in [%.9g, %.9g]", (int)t->quant_axis, (int)t->quant_count,
           (double)lo, (double)hi);
  }
}

static void text_tensors(const tfcc_model *m, int outputs) {
  int n = outputs ? tfcc_model_output_count(m) : tfcc_model_input_count(m);
  printf("%s (%d):\n", outputs ? "outputs" : "inputs", n);
  for (int i = 0; i < n; i++) {
    tfcc_tensor_info t;
    char shape[256];
    if ((outputs ? tfcc_model_output_info(m, i, &t) : tfcc_model_input_info(m, i, &t)) != TFCC_OK)
      continue;
    printf("  %d  %s  %s %s  ", i, t.name ? t.name : "", tfcc_dtype_name(t.dtype),
           cli_shape_sig(&t, shape, sizeof shape));
    text_quant(&t);
    printf("\n");
  }
}

static void text_groups(const op_group *g, int n_groups, int macs_known) {
  printf("  %-32s %6s  %-10s %16s  %s\n", "type", "count", "versions", "MACs", "supported");
  for (int k = 0; k < n_groups; k++) {
    char versions[64] = "";
    size_t used = 0;
    for (int v = 0; v < g[k].n_versions && used < sizeof versions; v++)
      used += (size_t)snprintf(versions + used, sizeof versions - used, "%s%d", v ? "," : "",
                               (int)g[k].versions[v]);
    char macs[32] = "-";
    if (macs_known) snprintf(macs, sizeof macs, "%" PRId64, g[k].macs);
    printf("  %-32s %6d  %-10s %16s  %s\n", g[k].name, g[k].count, versions, macs,
           g[k].supported ? "yes" : "NO");
  }
}

/* m: the model as tfcc runs it (plan); file: the same file loaded with every pass off. */
static void print_text(const char *path, const tfcc_model *m, const tfcc_model *file,
                       const op_group *g, int n_groups, int n_ops, int64_t total_macs,
                       const op_group *pg, int n_plan, int n_plan_ops) {
  const int macs_known = main_runs(m);
  printf("model: %s\n", path);
  const char *desc = tfcc_model_description(m);
  printf("description: %s\n", desc[0] ? desc : "(none)");
  tfcc_watermark_info wm;
  if (tfcc_model_watermark(m, &wm) == TFCC_OK && wm.present)
    printf("watermark: id '%s', sha256 %s, %s\n", wm.id, wm.sha256,
           wm.valid ? "valid" : "INVALID (content changed)");
  else
    printf("watermark: (none)\n");
  printf("tensors: %d\n", tfcc_model_tensor_count(m));
  printf("constant bytes: %zu\n", tfcc_model_constant_bytes(m));
  text_tensors(m, 0);
  text_tensors(m, 1);
  printf("operators (%d, %d types):\n", n_ops, n_groups);
  text_groups(g, n_groups, macs_known);
  const char *uns = unsupported_list(m);
  if (!macs_known)
    printf("total MACs: unknown (MACs are only computed for models tfcc can run)\n");
  else
    printf("total MACs: %" PRId64 "\n", total_macs);
  int same = n_plan == n_groups && n_plan_ops == n_ops && m != file;
  for (int k = 0; same && k < n_plan; k++)
    same =
        strcmp(pg[k].name, g[k].name) == 0 && pg[k].count == g[k].count && pg[k].macs == g[k].macs;
  if (same) {
    printf("plan after graph passes: the file's %d operators, unchanged\n", n_ops);
  } else {
    printf("plan after graph passes (%d nodes, %d types%s):\n", n_plan_ops, n_plan,
           m == file ? "; the file's operators could not be read apart" : "");
    text_groups(pg, n_plan, macs_known);
  }
  printf("unsupported: %s\n", uns[0] ? uns : "none");
}

/* ------------------------------------------------------------ subgraphs, signatures */

/* Signatures, then (with several subgraphs) every subgraph and what runs it. */
static void text_subgraphs(const tfcc_model *m) {
  int ns = tfcc_model_signature_count(m);
  if (ns > 0) printf("signatures (%d; tfcc run --signature KEY):\n", ns);
  for (int k = 0; k < ns; k++) {
    tfcc_signature_info si;
    if (tfcc_model_signature_info(m, k, &si) != TFCC_OK) continue;
    printf("  %s (subgraph %d): inputs", si.key, (int)si.subgraph);
    for (int i = 0; i < si.input_count; i++) printf("%s %s", i ? "," : "", si.input_names[i]);
    printf(" -> outputs");
    for (int i = 0; i < si.output_count; i++) printf("%s %s", i ? "," : "", si.output_names[i]);
    const char *why = tfcc_model_subgraph_error(m, si.subgraph);
    if (why && why[0]) printf("; cannot run: %s", why);
    printf("\n");
  }
  int n = tfcc_model_subgraph_count(m);
  if (n <= 1) return;
  printf("subgraphs (%d):\n", n);
  for (int k = 0; k < n; k++) {
    tfcc_subgraph_info gi;
    if (tfcc_model_subgraph_info(m, k, &gi) != TFCC_OK) continue;
    printf("  %d %-20s %d inputs, %d outputs, %d operators: ", k,
           gi.name[0] ? gi.name : "(unnamed)", (int)gi.input_count, (int)gi.output_count,
           (int)gi.op_count);
    const char *why = tfcc_model_subgraph_error(m, k);
    if (gi.caller >= 0)
      printf("runs as %s of %s at subgraph %d node %d%s", gi.role, gi.caller_op, (int)gi.caller,
             (int)gi.caller_node, gi.entry ? "; also an entry" : "");
    else
      printf("%s", gi.entry ? "entry (runs when its session runs)"
                            : "not run (no entry or operator names it)");
    if (why && why[0]) printf("; cannot run: %s", why);
    printf("\n");
  }
}

/* "cannot_run": null when a session of subgraph k can be made, else the cause. */
static void json_cannot_run(json_writer *w, const tfcc_model *m, int k) {
  const char *why = tfcc_model_subgraph_error(m, k);
  json_key(w, "cannot_run");
  if (why && why[0])
    json_string(w, why);
  else
    json_null(w);
}

static void json_subgraphs(json_writer *w, const tfcc_model *m) {
  json_key(w, "subgraphs");
  json_begin_array(w);
  int n = tfcc_model_subgraph_count(m);
  for (int k = 0; k < n; k++) {
    tfcc_subgraph_info gi;
    if (tfcc_model_subgraph_info(m, k, &gi) != TFCC_OK) continue;
    json_begin_object(w);
    json_key(w, "name");
    json_string(w, gi.name);
    json_key(w, "operators");
    json_int(w, gi.op_count);
    json_key(w, "entry");
    json_bool(w, gi.entry);
    json_key(w, "caller");
    json_int(w, gi.caller);
    json_key(w, "caller_node");
    json_int(w, gi.caller >= 0 ? gi.caller_node : -1);
    json_key(w, "role");
    if (gi.role)
      json_string(w, gi.role);
    else
      json_null(w);
    json_cannot_run(w, m, k);
    json_end_object(w);
  }
  json_end_array(w);
  /* by key, in the file's order: {"decode": {"subgraph": 1, "cannot_run": "unsupported: ..."}} */
  json_key(w, "signatures");
  json_begin_object(w);
  tfcc_signature_info si;
  for (int k = 0; tfcc_model_signature_info(m, k, &si) == TFCC_OK; k++) {
    json_key(w, si.key);
    json_begin_object_inline(w);
    json_key(w, "subgraph");
    json_int(w, si.subgraph);
    json_cannot_run(w, m, si.subgraph);
    json_end_object(w);
  }
  json_end_object(w);
}

/* ------------------------------------------------------------ dynamic tensors */

/* A session at the stored shapes (NULL with why set when none can be made). */
static tfcc_session *stored_shape_session(tfcc_model *m, char *why, size_t n) {
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create(m, NULL, &s);
  if (st != TFCC_OK)
    snprintf(why, n, "no session: %s",
             tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
  return st == TFCC_OK ? s : NULL;
}

/* Tensors whose shape is known only while running, and why. */
static void text_dynamic(tfcc_model *m) {
  char why[512];
  tfcc_session *s = stored_shape_session(m, why, sizeof why);
  if (!s) {
    printf("dynamic tensors: unknown (%s)\n", why);
    return;
  }
  int n = tfcc_session_dynamic_tensor_count(s);
  if (n == 0)
    printf(
        "dynamic tensors: none (every shape is known before running; runs use the static arena)\n");
  else
    printf("dynamic tensors (%d, sized while running, outside the arena):\n", n);
  for (int i = 0; i < n; i++) {
    tfcc_dynamic_tensor_info d;
    if (tfcc_session_dynamic_tensor_info(s, i, &d) != TFCC_OK) continue;
    printf("  tensor %d (%s) from node %d (%s): %s\n", (int)d.tensor, d.name ? d.name : "",
           (int)d.node, d.op, d.reason);
  }
  tfcc_session_destroy(s);
}

static void json_dynamic(json_writer *w, tfcc_model *m) {
  char why[512];
  tfcc_session *s = stored_shape_session(m, why, sizeof why);
  json_key(w, "dynamic_tensors");
  if (!s) {
    json_null(w);
    json_key(w, "dynamic_tensors_error");
    json_string(w, why);
    return;
  }
  json_begin_array(w);
  int n = tfcc_session_dynamic_tensor_count(s);
  for (int i = 0; i < n; i++) {
    tfcc_dynamic_tensor_info d;
    if (tfcc_session_dynamic_tensor_info(s, i, &d) != TFCC_OK) continue;
    json_begin_object(w);
    json_key(w, "tensor");
    json_int(w, d.tensor);
    json_key(w, "name");
    json_string(w, d.name ? d.name : "");
    json_key(w, "node");
    json_int(w, d.node);
    json_key(w, "op");
    json_string(w, d.op);
    json_key(w, "reason");
    json_string(w, d.reason);
    json_end_object(w);
  }
  json_end_array(w);
  tfcc_session_destroy(s);
}

/* ------------------------------------------------------------ memory (--memory) */

/* Plans a session at the stored shapes. Returns 1 with *mi filled, or 0 with why set. */
static int memory_info(tfcc_model *m, tfcc_memory_info *mi, char *why, size_t n) {
  tfcc_session *s = NULL;
  tfcc_status st = tfcc_session_create(m, NULL, &s);
  if (st != TFCC_OK) {
    snprintf(why, n, "no session: %s",
             tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
    return 0;
  }
  st = tfcc_session_memory_info(s, mi);
  if (st != TFCC_OK) snprintf(why, n, "%s", tfcc_session_last_error(s));
  tfcc_session_destroy(s);
  return st == TFCC_OK;
}

static void text_memory(tfcc_model *m) {
  tfcc_memory_info mi;
  char why[512];
  if (!memory_info(m, &mi, why, sizeof why)) {
    printf("memory: unavailable (%s)\n", why);
    return;
  }
  printf("memory (one session at the stored shapes):\n");
  printf("  arena bytes:                %zu\n", mi.arena_bytes);
  printf("  naive sum of intermediates: %zu\n", mi.naive_bytes);
  printf("  lower bound (live set):     %zu\n", mi.lower_bound_bytes);
  if (mi.lower_bound_bytes)
    printf("  arena / lower bound:        %.3f\n",
           (double)mi.arena_bytes / (double)mi.lower_bound_bytes);
  printf("  persistent per session:     %zu\n", mi.persistent_bytes);
  printf("  constants (shared):         %zu\n", mi.constant_bytes);
}

static void json_memory(json_writer *w, tfcc_model *m) {
  tfcc_memory_info mi;
  char why[512];
  json_key(w, "memory");
  if (!memory_info(m, &mi, why, sizeof why)) {
    json_begin_object(w);
    json_key(w, "error");
    json_string(w, why);
    json_end_object(w);
    return;
  }
  json_begin_object(w);
  json_key(w, "arena_bytes");
  json_int(w, (int64_t)mi.arena_bytes);
  json_key(w, "naive_bytes");
  json_int(w, (int64_t)mi.naive_bytes);
  json_key(w, "lower_bound_bytes");
  json_int(w, (int64_t)mi.lower_bound_bytes);
  json_key(w, "persistent_bytes");
  json_int(w, (int64_t)mi.persistent_bytes);
  json_key(w, "constant_bytes");
  json_int(w, (int64_t)mi.constant_bytes);
  json_end_object(w);
}

/* ------------------------------------------------------------ json */

static void json_tensor(json_writer *w, const tfcc_tensor_info *t) {
  json_begin_object(w);
  json_key(w, "name");
  json_string(w, t->name);
  json_key(w, "dtype");
  json_string(w, tfcc_dtype_name(t->dtype));
  json_key(w, "shape");
  json_begin_array_inline(w);
  for (int32_t d = 0; d < t->rank; d++) json_int(w, t->dims[d]);
  json_end_array(w);
  json_key(w, "signature");
  json_begin_array_inline(w);
  for (int32_t d = 0; d < t->rank; d++) json_int(w, t->signature[d]);
  json_end_array(w);
  json_key(w, "bytes");
  json_int(w, (int64_t)t->bytes);
  json_key(w, "quantization");
  if (t->quant_count <= 0) {
    json_null(w);
  } else {
    json_begin_object(w);
    json_key(w, "scales");
    json_begin_array_inline(w);
    for (int32_t i = 0; i < t->quant_count; i++) json_double(w, t->scales[i]);
    json_end_array(w);
    json_key(w, "zero_points");
    json_begin_array_inline(w);
    for (int32_t i = 0; i < t->quant_count; i++) json_int(w, t->zero_points[i]);
    json_end_array(w);
    json_key(w, "axis");
    json_int(w, t->quant_axis);
    json_end_object(w);
  }
  json_end_object(w);
}

static void json_groups(json_writer *w, const op_group *g, int n_groups, int macs_known) {
  json_begin_array(w);
  for (int k = 0; k < n_groups; k++) {
    json_begin_object(w);
    json_key(w, "name");
    json_string(w, g[k].name);
    json_key(w, "count");
    json_int(w, g[k].count);
    json_key(w, "versions");
    json_begin_array_inline(w);
    for (int v = 0; v < g[k].n_versions; v++) json_int(w, g[k].versions[v]);
    json_end_array(w);
    json_key(w, "macs");
    if (macs_known)
      json_int(w, g[k].macs);
    else
      json_null(w);
    json_key(w, "supported");
    json_bool(w, g[k].supported);
    json_end_object(w);
  }
  json_end_array(w);
}

static void print_json(const char *path, tfcc_model *m, const tfcc_model *file, const op_group *g,
                       int n_groups, int n_ops, int64_t total_macs, const op_group *pg, int n_plan,
                       int n_plan_ops, int64_t plan_macs, int with_memory) {
  json_writer w;
  const int macs_known = main_runs(m);
  json_init(&w, stdout);
  json_begin_object(&w);
  json_key(&w, "model");
  json_string(&w, path);
  json_key(&w, "description");
  json_string(&w, tfcc_model_description(m));
  tfcc_watermark_info wm;
  json_key(&w, "watermark");
  if (tfcc_model_watermark(m, &wm) == TFCC_OK && wm.present) {
    json_begin_object(&w);
    json_key(&w, "id");
    json_string(&w, wm.id);
    json_key(&w, "sha256");
    json_string(&w, wm.sha256);
    json_key(&w, "valid");
    json_bool(&w, wm.valid);
    json_end_object(&w);
  } else {
    json_null(&w);
  }
  json_key(&w, "tensor_count");
  json_int(&w, tfcc_model_tensor_count(m));
  json_key(&w, "constant_bytes");
  json_int(&w, (int64_t)tfcc_model_constant_bytes(m));
  for (int o = 0; o < 2; o++) {
    json_key(&w, o ? "outputs" : "inputs");
    json_begin_array(&w);
    int n = o ? tfcc_model_output_count(m) : tfcc_model_input_count(m);
    for (int i = 0; i < n; i++) {
      tfcc_tensor_info t;
      if ((o ? tfcc_model_output_info(m, i, &t) : tfcc_model_input_info(m, i, &t)) == TFCC_OK)
        json_tensor(&w, &t);
    }
    json_end_array(&w);
  }
  json_key(&w, "operator_count");
  json_int(&w, n_ops);
  json_key(&w, "operators");
  json_groups(&w, g, n_groups, macs_known);
  json_key(&w, "total_macs");
  if (macs_known)
    json_int(&w, total_macs);
  else
    json_null(&w);
  json_key(&w, "plan");
  json_begin_object(&w);
  if (m == file) {
    json_key(&w, "note");
    json_string(&w, "the file's operators could not be read apart: \"operators\" shows the plan");
  }
  json_key(&w, "operator_count");
  json_int(&w, n_plan_ops);
  json_key(&w, "operators");
  json_groups(&w, pg, n_plan, macs_known);
  json_key(&w, "total_macs");
  if (macs_known)
    json_int(&w, plan_macs);
  else
    json_null(&w);
  json_end_object(&w);
  json_key(&w, "unsupported");
  json_string(&w, unsupported_list(m));
  json_dynamic(&w, m);
  json_subgraphs(&w, m);
  if (with_memory) json_memory(&w, m);
  json_end_object(&w);
}

int cmd_inspect(int argc, char **argv) {
  args a;
  const char *value, *path = NULL;
  int as_json = 0, with_memory = 0;
  args_init(&a, argc, argv);
  for (;;) {
    int id = args_next(&a, k_opts, &value);
    if (id == ARGS_END) break;
    if (id == ARGS_ERROR) return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
    if (id == OPT_HELP) {
      fputs(k_usage, stdout);
      return CLI_EXIT_OK;
    }
    if (id == OPT_JSON) as_json = 1;
    if (id == OPT_MEMORY) with_memory = 1;
    if (id == OPT_CUSTOM_OPS && cli_add_custom_ops(CMD, value) != 0) return CLI_EXIT_USAGE;
    if ((id == OPT_KEY_FILE || id == OPT_KEY_ENV) &&
        cli_set_key(CMD, id == OPT_KEY_ENV, value) != 0)
      return CLI_EXIT_USAGE;
    if (id == ARGS_POSITIONAL) {
      if (path)
        return cli_error(CMD, CLI_EXIT_USAGE, "unexpected argument '%s' (one MODEL only)", value);
      path = value;
    }
  }
  if (!path) return cli_error(CMD, CLI_EXIT_USAGE, "missing MODEL (see 'tfcc inspect --help')");
  tfcc_runtime *rt;
  tfcc_model *m, *file = NULL;
  if (cli_open_model(CMD, path, 1, 1, &rt, &m) != 0) return CLI_EXIT_FAIL;
  /* the file's own operators: the same file with every graph pass off (if that fails to load,
   * the plan stands in for it and says so) */
  tfcc_model_options fo;
  tfcc_model_options_default(&fo);
  fo.allow_unsupported = 1;
  fo.disabled_passes = TFCC_PASS_ALL;
  char why[1024];
  /* quiet: its KERNEL_FALLBACK lines would name kernels of a graph that never runs (a float16
   * or sparse filter is a constant only after fold_constants, so every such CONV_2D would read
   * "reference kernel, filter or bias is not constant"); the plan's load above said its own */
  cli_log_quiet(1);
  tfcc_status fst = cli_load_model(rt, path, &fo, &file, why, sizeof why);
  cli_log_quiet(0);
  if (fst != TFCC_OK) file = m;
  op_group *groups = NULL, *plan = NULL;
  int64_t total = 0, plan_total = 0;
  int n_file_ops = 0, n_plan_ops = 0;
  int n = group_ops(file, &groups, &total, &n_file_ops);
  int n_plan = n < 0 ? -1 : group_ops(m, &plan, &plan_total, &n_plan_ops);
  int rc = CLI_EXIT_OK;
  if (n < 0 || n_plan < 0) {
    rc = cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  } else if (as_json) {
    print_json(path, m, file, groups, n, n_file_ops, total, plan, n_plan, n_plan_ops, plan_total,
               with_memory);
  } else {
    print_text(path, m, file, groups, n, n_file_ops, total, plan, n_plan, n_plan_ops);
    text_subgraphs(m);
    text_dynamic(m);
    if (with_memory) text_memory(m);
  }
  free(groups);
  free(plan);
  if (file != m) tfcc_model_release(file);
  tfcc_model_release(m);
  tfcc_runtime_destroy(rt);
  return rc;
}
