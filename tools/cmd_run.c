/* tfcc run MODEL -i FILE.npy [-i NAME=FILE.npy ...] -o DIR [--threads N]
 * Inputs are bound in model input order (unnamed -i) or by tensor name (-i NAME=FILE);
 * dtype and shape must match the model, except that dimensions marked -1 in the input's
 * shape signature take the file's size (tfcc_session_resize_input). Output i is written to
 * DIR/<i>_<name>.npy. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "common/npy.h"

#define CMD "run"

static const char k_usage[] =
    "usage: tfcc run MODEL -i FILE.npy [-i NAME=FILE.npy ...] -o DIR [--threads N]\n"
    "                [--precision f32|bf16|fp16] [--device cpu|cuda[:N]]\n"
    "                [--quant-compat tflite|reference]\n"
    "                [--weights-cache PATH] [--signature KEY]\n"
    "                [--timeout-ms MS] [--custom-ops LIB.so ...]\n"
    "                [--key-file FILE | --key-env VAR]\n"
    "\n"
    "Runs MODEL (.tflite, or an encrypted .tfcce with its key) once on .npy inputs and writes\n"
    "every output as DIR/<i>_<name>.npy (characters of <name> outside [A-Za-z0-9._-] become '_';\n"
    "<name> is cut at 199 characters).\n"
    "Prints one line per output.\n"
    "\n"
    "  -i, --input NAME=FILE.npy   the input whose tensor name is NAME\n"
    "  -i, --input FILE.npy        the next input (model order) not bound by name\n"
    "  -o, --output DIR            output directory (created if missing)\n"
    "  -t, --threads N             worker threads (default: all CPUs)\n"
    "      --precision P           f32 (default) or bf16: float CONV_2D / FULLY_CONNECTED with\n"
    "                              bfloat16 weights and inputs, float32 sums (AVX512-BF16;\n"
    "                              elsewhere float32); fp16: on a GPU only\n"
    "      --device D              cpu (default: env TFCC_DEVICE, else cpu) or cuda[:N]: the\n"
    "                              nodes the GPU backend runs on NVIDIA GPU N (docs/cuda.md)\n"
    "      --quant-compat A        quantized arithmetic: tflite (default: TensorFlow Lite as it\n"
    "                              runs by default, XNNPACK's) or reference (its builtin\n"
    "                              kernels'); docs/quantization.md\n"
    "      --weights-cache PATH    packed-weights cache file: written by the first load, mapped\n"
    "                              by later ones (docs/weights_cache.md); with a key, an\n"
    "                              encrypted cache\n" CLI_KEY_USAGE
    "      --signature KEY         run the signature KEY (tfcc inspect lists them): its\n"
    "                              subgraph, inputs and outputs named as it names them\n"
    "      --timeout-ms MS         stop the run after MS milliseconds (e.g. a WHILE loop\n"
    "                              that does not end): exit status 1, 'run deadline exceeded'\n" CLI_CUSTOM_OPS_USAGE
    "  -h, --help                  this text\n"
    "\n"
    "Each file's dtype and shape must equal the input's; dimensions that are -1 in the\n"
    "input's shape signature are resized to the file's (a model without inputs runs\n"
    "without -i). Outputs whose shape depends on data\n"
    "known only while running (dynamic) are written at the shape that run produced, and\n"
    "marked (dynamic).\n";

enum {
  OPT_INPUT = 1,
  OPT_OUTPUT,
  OPT_THREADS,
  OPT_PRECISION,
  OPT_DEVICE,
  OPT_QUANT_COMPAT,
  OPT_WEIGHTS_CACHE,
  OPT_HELP,
  OPT_SIGNATURE,
  OPT_TIMEOUT,
  OPT_CUSTOM_OPS,
  OPT_KEY_FILE,
  OPT_KEY_ENV
};
static const arg_opt k_opts[] = {{OPT_INPUT, "-i", "--input", 1},
                                 {OPT_OUTPUT, "-o", "--output", 1},
                                 {OPT_THREADS, "-t", "--threads", 1},
                                 {OPT_PRECISION, NULL, "--precision", 1},
                                 {OPT_DEVICE, NULL, "--device", 1},
                                 {OPT_QUANT_COMPAT, NULL, "--quant-compat", 1},
                                 {OPT_WEIGHTS_CACHE, NULL, "--weights-cache", 1},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {OPT_SIGNATURE, NULL, "--signature", 1},
                                 {OPT_TIMEOUT, NULL, "--timeout-ms", 1},
                                 {OPT_CUSTOM_OPS, NULL, "--custom-ops", 1},
                                 {OPT_KEY_FILE, NULL, "--key-file", 1},
                                 {OPT_KEY_ENV, NULL, "--key-env", 1},
                                 {0, NULL, NULL, 0}};

/* mkdir -p */
static int make_dirs(const char *path, char *err, size_t n) {
  char buf[4096];
  size_t len = strlen(path);
  if (len == 0 || len >= sizeof buf) {
    snprintf(err, n, "bad output directory '%s'", path);
    return -1;
  }
  memcpy(buf, path, len + 1);
  for (size_t i = 1; i <= len; i++) {
    if (buf[i] != '/' && buf[i] != '\0') continue;
    char saved = buf[i];
    buf[i] = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
      snprintf(err, n, "cannot create directory '%s': %s", buf, strerror(errno));
      return -1;
    }
    buf[i] = saved;
  }
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(err, n, "'%s' is not a directory", path);
    return -1;
  }
  return 0;
}

static int same_shape(int32_t ra, const int32_t *a, int32_t rb, const int32_t *b) {
  if (ra != rb) return 0;
  for (int32_t i = 0; i < ra; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

/* Whether the file's shape can be obtained by changing only dynamic (-1) dimensions. */
static int resizable(const tfcc_tensor_info *info, const npy_array *a) {
  if (info->rank != a->rank) return 0;
  int dynamic = 0;
  for (int32_t d = 0; d < info->rank; d++) {
    if (info->signature[d] == -1)
      dynamic = 1;
    else if (info->dims[d] != a->dims[d])
      return 0;
  }
  return dynamic;
}

typedef struct run_state {
  tfcc_runtime *rt;
  tfcc_model *model;
  tfcc_session *session;
  npy_array *files; /* one per model input */
  int n_files;
  int *assigned;      /* input -> index of its -i, or -1 */
  const char **paths; /* -i -> its file */
  int *named;         /* -i -> 1 when given as NAME=FILE */
  const void **inputs;
  void **outputs;
  int n_out;
} run_state;

static void run_cleanup(run_state *r) {
  if (r->files)
    for (int i = 0; i < r->n_files; i++) npy_free(&r->files[i]);
  free(r->files);
  free(r->assigned);
  free((void *)r->paths);
  free(r->named);
  if (r->outputs)
    for (int i = 0; i < r->n_out; i++) free(r->outputs[i]);
  free(r->outputs);
  free((void *)r->inputs);
  tfcc_session_destroy(r->session);
  tfcc_model_release(r->model);
  tfcc_runtime_destroy(r->rt);
}

static const char *session_err(const tfcc_session *s, tfcc_status st) {
  const char *m = tfcc_session_last_error(s);
  return m && m[0] ? m : tfcc_status_str(st);
}

/* "no input named NAME; inputs are: a, b" for -i NAME=FILE with an unknown NAME. */
static int unknown_input(const tfcc_session *s, const char *spec, const char *eq) {
  char names[768];
  size_t used = 0;
  names[0] = '\0';
  int n = tfcc_session_input_count(s);
  for (int i = 0; i < n && used < sizeof names; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(s, i, &info);
    used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                             info.name && info.name[0] ? info.name : "(unnamed)");
  }
  return cli_error(CMD, CLI_EXIT_USAGE,
                   "-i %s: no input named '%.*s' (and no file of that name); inputs are: %s", spec,
                   (int)(eq - spec), spec, names);
}

static int run_model(run_state *r, const char *model_path, const char **specs, int n_specs,
                     const char *out_dir, int threads, tfcc_precision precision,
                     tfcc_quant_compat quant_compat, const char *weights_cache,
                     const char *signature, long timeout_ms) {
  char err[512], shape[160], want[256];
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.precision = precision;
  mo.quant_compat = quant_compat;
  mo.weights_cache = weights_cache;
  if (cli_open_model_opts(CMD, model_path, threads, &mo, &r->rt, &r->model) != 0)
    return CLI_EXIT_FAIL;
  tfcc_status st = signature
                       ? tfcc_session_create_for_signature(r->model, signature, NULL, &r->session)
                       : tfcc_session_create(r->model, NULL, &r->session);
  if (st != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s: %s", model_path,
                     tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
  if (timeout_ms > 0) tfcc_session_set_run_timeout(r->session, (uint64_t)timeout_ms * 1000u);
  int n_in = tfcc_session_input_count(r->session);
  if (!n_specs && n_in > 0)
    return cli_error(CMD, CLI_EXIT_USAGE, "no input given (-i FILE.npy); the model has %d input%s",
                     n_in, n_in == 1 ? "" : "s");
  /* any number of inputs: a personalization model's optimizer takes every weight (1,049) */
  r->n_files = n_in;
  r->files = (npy_array *)calloc((size_t)n_in + 1, sizeof *r->files);
  r->assigned = (int *)malloc(((size_t)n_in + 1) * sizeof *r->assigned);
  r->paths = (const char **)calloc((size_t)n_specs + 1, sizeof *r->paths);
  r->named = (int *)calloc((size_t)n_specs + 1, sizeof *r->named);
  if (!r->files || !r->assigned || !r->paths || !r->named)
    return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");

  /* Assign files to inputs: first the NAME=FILE ones, then the plain files, in order, to
   * the inputs still without a file. */
  int *assigned = r->assigned, *named = r->named;
  const char **paths = r->paths;
  for (int i = 0; i < n_in; i++) assigned[i] = -1;
  for (int k = 0; k < n_specs; k++) {
    const char *spec = specs[k], *eq = strchr(spec, '=');
    int index = -1;
    paths[k] = spec;
    named[k] = 0;
    if (eq && eq != spec) {
      char name[1024];
      size_t len = (size_t)(eq - spec);
      if (len < sizeof name) {
        memcpy(name, spec, len);
        name[len] = '\0';
        if (tfcc_session_find_input(r->session, name, &index) != TFCC_OK) index = -1;
      }
    }
    if (index < 0) {
      /* a plain file name (possibly containing '='), unless no such file exists: then NAME
       * was meant as an input name */
      struct stat st;
      if (eq && eq != spec && stat(spec, &st) != 0) return unknown_input(r->session, spec, eq);
      continue;
    }
    named[k] = 1;
    paths[k] = eq + 1;
    if (assigned[index] >= 0)
      return cli_error(CMD, CLI_EXIT_USAGE, "input %d (%.*s) is given twice ('%s' and '%s')", index,
                       (int)(eq - spec), spec, specs[assigned[index]], spec);
    assigned[index] = k;
  }
  int next = 0;
  for (int k = 0; k < n_specs; k++) {
    if (named[k]) continue;
    while (next < n_in && assigned[next] >= 0) next++;
    if (next >= n_in)
      return cli_error(CMD, CLI_EXIT_USAGE,
                       "too many input files: '%s' is left over (the model has %d input%s)",
                       specs[k], n_in, n_in == 1 ? "" : "s");
    assigned[next] = k;
  }
  for (int i = 0; i < n_in; i++) {
    if (assigned[i] < 0) continue;
    if (npy_read_file(paths[assigned[i]], &r->files[i], err, sizeof err) != 0)
      return cli_error(CMD, CLI_EXIT_FAIL, "input %d: %s", i, err);
  }
  for (int i = 0; i < n_in; i++) {
    if (assigned[i] >= 0) continue;
    tfcc_tensor_info info;
    tfcc_session_input_info(r->session, i, &info);
    return cli_error(CMD, CLI_EXIT_USAGE,
                     "input %d (%s) has no file (%d given, model has %d inputs)", i, info.name,
                     n_specs, n_in);
  }

  /* Check dtypes and shapes; resize dynamic inputs. */
  for (int i = 0; i < n_in; i++) {
    tfcc_tensor_info info;
    npy_array *a = &r->files[i];
    tfcc_session_input_info(r->session, i, &info);
    int shape_ok = same_shape(info.rank, info.dims, a->rank, a->dims);
    if (a->dtype != info.dtype || (!shape_ok && !resizable(&info, a)))
      return cli_error(CMD, CLI_EXIT_FAIL, "input %d (%s): file has %s %s, model wants %s %s", i,
                       info.name, tfcc_dtype_name(a->dtype),
                       npy_shape_str(a->rank, a->dims, shape, sizeof shape),
                       tfcc_dtype_name(info.dtype), cli_shape_sig(&info, want, sizeof want));
    if (!shape_ok) {
      st = tfcc_session_resize_input(r->session, i, a->rank, a->dims);
      if (st != TFCC_OK)
        return cli_error(CMD, CLI_EXIT_FAIL, "input %d (%s): cannot resize to %s: %s", i, info.name,
                         npy_shape_str(a->rank, a->dims, shape, sizeof shape),
                         session_err(r->session, st));
    }
  }
  r->inputs = (const void **)calloc((size_t)n_in + 1, sizeof *r->inputs);
  if (!r->inputs) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < n_in; i++) {
    tfcc_tensor_info info;
    tfcc_session_input_info(r->session, i, &info);
    if (info.bytes != r->files[i].bytes)
      return cli_error(CMD, CLI_EXIT_FAIL, "input %d (%s): file holds %zu bytes, tensor needs %zu",
                       i, info.name, r->files[i].bytes, info.bytes);
    r->inputs[i] = r->files[i].data;
  }

  r->n_out = tfcc_session_output_count(r->session);
  r->outputs = (void **)calloc((size_t)r->n_out + 1, sizeof *r->outputs);
  if (!r->outputs) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < r->n_out; i++) {
    tfcc_tensor_info info;
    tfcc_session_output_info(r->session, i, &info);
    if (!npy_descr(info.dtype))
      return cli_error(CMD, CLI_EXIT_FAIL, "output %d (%s): dtype %s cannot be written as .npy", i,
                       info.name, tfcc_dtype_name(info.dtype));
    if (tfcc_session_output_is_dynamic(r->session, i)) continue; /* sized by the run: read below */
    r->outputs[i] = malloc(info.bytes ? info.bytes : 1);
    if (!r->outputs[i])
      return cli_error(CMD, CLI_EXIT_FAIL, "out of memory (%zu bytes)", info.bytes);
  }
  if (make_dirs(out_dir, err, sizeof err) != 0) return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);

  st = tfcc_session_run(r->session, r->inputs, r->outputs);
  if (st != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "run failed: %s", session_err(r->session, st));

  for (int i = 0; i < r->n_out; i++) {
    tfcc_tensor_info info;
    /* at most 199 characters of the name: "<i>_" + name + ".npy" stays within NAME_MAX (255) */
    char safe[200], path[4096];
    tfcc_session_output_info(r->session, i, &info);
    cli_safe_name(info.name, safe, sizeof safe);
    snprintf(path, sizeof path, "%s/%d_%s.npy", out_dir, i, safe);
    const void *data = r->outputs[i];
    bool dynamic = tfcc_session_output_is_dynamic(r->session, i) != 0;
    if (dynamic && (st = tfcc_session_output_data(r->session, i, &data, NULL)) != TFCC_OK)
      return cli_error(CMD, CLI_EXIT_FAIL, "output %d (%s): %s", i, info.name, tfcc_status_str(st));
    if (npy_write_file(path, info.dtype, info.rank, info.dims, data, err, sizeof err) != 0)
      return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
    printf("output %d %s %s %s%s -> %s\n", i, info.name, tfcc_dtype_name(info.dtype),
           npy_shape_str(info.rank, info.dims, shape, sizeof shape), dynamic ? " (dynamic)" : "",
           path);
  }
  return CLI_EXIT_OK;
}

/* specs holds argc entries: each -i takes at least one argument */
static int run_cli(int argc, char **argv, const char **specs) {
  args a;
  const char *value, *model = NULL, *out_dir = NULL, *weights_cache = NULL;
  int n_specs = 0;
  long threads = 0, timeout_ms = 0;
  const char *signature = NULL;
  tfcc_precision precision = TFCC_PRECISION_F32;
  tfcc_quant_compat quant_compat = TFCC_QUANT_COMPAT_TFLITE;
  char err[256];
  args_init(&a, argc, argv);
  for (;;) {
    int id = args_next(&a, k_opts, &value);
    if (id == ARGS_END) break;
    switch (id) {
      case ARGS_ERROR: return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
      case OPT_HELP: fputs(k_usage, stdout); return CLI_EXIT_OK;
      case OPT_INPUT: specs[n_specs++] = value; break;
      case OPT_OUTPUT: out_dir = value; break;
      case OPT_THREADS:
        if (args_int("--threads", value, 0, 1024, &threads, err, sizeof err) != 0)
          return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
        break;
      case OPT_PRECISION:
        if (cli_parse_precision(value, &precision, err, sizeof err) != 0)
          return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
        break;
      case OPT_DEVICE:
        if (cli_parse_device(value, err, sizeof err) != 0)
          return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
        break;
      case OPT_QUANT_COMPAT:
        if (cli_parse_quant_compat(value, &quant_compat, err, sizeof err) != 0)
          return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
        break;
      case OPT_WEIGHTS_CACHE: weights_cache = value; break;
      case OPT_SIGNATURE: signature = value; break;
      case OPT_CUSTOM_OPS:
        if (cli_add_custom_ops(CMD, value) != 0) return CLI_EXIT_USAGE;
        break;
      case OPT_KEY_FILE:
      case OPT_KEY_ENV:
        if (cli_set_key(CMD, id == OPT_KEY_ENV, value) != 0) return CLI_EXIT_USAGE;
        break;
      case OPT_TIMEOUT:
        if (args_int("--timeout-ms", value, 1, 86400000, &timeout_ms, err, sizeof err) != 0)
          return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
        break;
      case ARGS_POSITIONAL:
        if (model)
          return cli_error(CMD, CLI_EXIT_USAGE, "unexpected argument '%s' (one MODEL only)", value);
        model = value;
        break;
      default: break;
    }
  }
  if (!model) return cli_error(CMD, CLI_EXIT_USAGE, "missing MODEL (see 'tfcc run --help')");
  struct stat mst;
  /* a model without inputs runs without -i (run_model refuses -i-less runs of other models) */
  if (!n_specs && stat(model, &mst) != 0)
    return cli_error(CMD, CLI_EXIT_USAGE, "no input given (-i FILE.npy)");
  if (!out_dir) return cli_error(CMD, CLI_EXIT_USAGE, "no output directory given (-o DIR)");
  run_state r;
  memset(&r, 0, sizeof r);
  int rc = run_model(&r, model, specs, n_specs, out_dir, (int)threads, precision, quant_compat,
                     weights_cache, signature, timeout_ms);
  run_cleanup(&r);
  return rc;
}

int cmd_run(int argc, char **argv) {
  /* no fixed limit on -i: a personalization model's optimizer takes every weight as an input */
  const char **specs = (const char **)calloc((size_t)argc + 1, sizeof *specs);
  if (!specs) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  int rc = run_cli(argc, argv, specs);
  free((void *)specs);
  return rc;
}
