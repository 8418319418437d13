/* tfcc classify MODEL IMAGE [--labels FILE] [--top K] [--mean M] [--std S]
 *
 * Input preparation (documented in docs/tools.md):
 *   - decode (JPEG/PNG/BMP) to RGB, or to gray when the input has 1 channel;
 *   - resize to the input's H x W with TFLite's RESIZE_BILINEAR (half-pixel centers, float32,
 *     truncated to uint8), as libcoral's CopyResizedImage;
 *   - uint8 input: raw pixels; int8 input: pixel - 128; float32 input: (pixel - mean) / std
 *     (default mean 127.5, std 127.5, i.e. [-1, 1]).
 * Scores: the first output; quantized outputs are dequantized as scale * (q - zero_point). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "common/image.h"
#include "common/labels.h"
#include "common/npy.h"
#include "common/resize.h"

#define CMD "classify"

static const char k_usage[] =
    "usage: tfcc classify MODEL IMAGE [--labels FILE] [--top K] [--mean M] [--std S] [--threads N]\n"
    "\n"
    "Classifies IMAGE (JPEG, PNG or BMP) with MODEL, whose first input is [1,H,W,C] (C = 1 or\n"
    "3) or [1,H,W] (gray), and prints the top K classes of the first output as\n"
    "'rank index score label'. The first output must be a class vector ([1,N]); for other\n"
    "outputs (segmentation maps, boxes) it fails with exit status 1.\n"
    "\n"
    "The image is resized bilinearly (TFLite RESIZE_BILINEAR, half-pixel centers) to H x W,\n"
    "converted to gray if C = 1, then fed as: uint8 input: raw pixels; int8 input:\n"
    "pixel - 128; float32 input: (pixel - mean) / std. Quantized scores are dequantized.\n"
    "\n"
    "  -l, --labels FILE   class names, one per line (line number = class index)\n"
    "  -k, --top K         number of classes to print (default 5)\n"
    "  --mean M            float inputs: value subtracted from each pixel (default 127.5)\n"
    "  --std S             float inputs: divisor after the subtraction (default 127.5)\n"
    "  --save-input FILE   also write the prepared input tensor as FILE (.npy)\n"
    "  -t, --threads N     worker threads (default: all CPUs)\n"
    "  --custom-ops LIB.so register the custom operators of plugin LIB.so (repeatable;\n"
    "                      docs/custom_ops.md)\n"
    "  --key-file FILE     key of an encrypted MODEL (.tfcce, tfcc encrypt): 32 raw\n"
    "                      bytes or 64 hex digits\n"
    "  --key-env VAR       the same key as 64 hex digits in environment variable VAR\n"
    "  -h, --help          this text\n";

enum {
  OPT_LABELS = 1,
  OPT_TOP,
  OPT_MEAN,
  OPT_STD,
  OPT_SAVE,
  OPT_THREADS,
  OPT_HELP,
  OPT_CUSTOM_OPS,
  OPT_KEY_FILE,
  OPT_KEY_ENV
};
static const arg_opt k_opts[] = {{OPT_LABELS, "-l", "--labels", 1},
                                 {OPT_TOP, "-k", "--top", 1},
                                 {OPT_MEAN, NULL, "--mean", 1},
                                 {OPT_STD, NULL, "--std", 1},
                                 {OPT_SAVE, NULL, "--save-input", 1},
                                 {OPT_THREADS, "-t", "--threads", 1},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {OPT_CUSTOM_OPS, NULL, "--custom-ops", 1},
                                 {OPT_KEY_FILE, NULL, "--key-file", 1},
                                 {OPT_KEY_ENV, NULL, "--key-env", 1},
                                 {0, NULL, NULL, 0}};

typedef struct classify_opts {
  const char *model;
  const char *image;
  const char *labels;
  const char *save_input;
  long top;
  double mean;
  double std;
  long threads;
} classify_opts;

typedef struct classify_state {
  tfcc_runtime *rt;
  tfcc_model *model;
  tfcc_session *session;
  image_u8 img;
  uint8_t *resized;
  void *input;
  void *output;
  float *scores;
  labels names;
} classify_state;

static void classify_cleanup(classify_state *c) {
  labels_free(&c->names);
  free(c->scores);
  free(c->output);
  free(c->input);
  free(c->resized);
  image_free(&c->img);
  tfcc_session_destroy(c->session);
  tfcc_model_release(c->model);
  tfcc_runtime_destroy(c->rt);
}

/* Reads element i of a tensor as a float score (dequantized when quantized). */
static int output_scores(const tfcc_tensor_info *info, const void *data, float *scores, size_t n) {
  double scale = info->quant_count > 0 ? info->scales[0] : 1.0;
  double zp = info->quant_count > 0 ? info->zero_points[0] : 0.0;
  for (size_t i = 0; i < n; i++) {
    double q;
    switch (info->dtype) {
      case TFCC_FLOAT32: scores[i] = ((const float *)data)[i]; continue;
      case TFCC_UINT8: q = ((const uint8_t *)data)[i]; break;
      case TFCC_INT8: q = ((const int8_t *)data)[i]; break;
      case TFCC_INT16: q = ((const int16_t *)data)[i]; break;
      case TFCC_INT32: q = ((const int32_t *)data)[i]; break;
      default: return -1;
    }
    scores[i] = (float)(scale * (q - zp));
  }
  return 0;
}

static int classify(classify_state *c, const classify_opts *o) {
  char err[512], shape[256];
  if (o->labels && labels_load(o->labels, &c->names, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "labels: %s", err);
  if (cli_open_model(CMD, o->model, (int)o->threads, 0, &c->rt, &c->model) != 0)
    return CLI_EXIT_FAIL;
  tfcc_status st = tfcc_session_create(c->model, NULL, &c->session);
  if (st != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s: %s", o->model,
                     tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
  if (tfcc_session_input_count(c->session) != 1)
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "the model has %d inputs; classify needs a single image input",
                     tfcc_session_input_count(c->session));
  if (tfcc_session_output_count(c->session) < 1)
    return cli_error(CMD, CLI_EXIT_FAIL, "the model has no output");

  tfcc_tensor_info in;
  tfcc_session_input_info(c->session, 0, &in);
  int32_t h, w, ch;
  if (in.rank == 4 && in.dims[0] == 1 && (in.dims[3] == 1 || in.dims[3] == 3)) {
    h = in.dims[1], w = in.dims[2], ch = in.dims[3];
  } else if (in.rank == 3 && in.dims[0] == 1) {
    h = in.dims[1], w = in.dims[2], ch = 1;
  } else {
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "input 0 (%s) is %s %s; classify needs [1,H,W,3], [1,H,W,1] or [1,H,W]",
                     in.name, tfcc_dtype_name(in.dtype), cli_shape_sig(&in, shape, sizeof shape));
  }
  if (h <= 0 || w <= 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "input 0 (%s) has an empty shape", in.name);
  if (in.dtype != TFCC_UINT8 && in.dtype != TFCC_INT8 && in.dtype != TFCC_FLOAT32)
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "input 0 (%s) is %s; classify feeds uint8, int8 or float32 inputs", in.name,
                     tfcc_dtype_name(in.dtype));

  if (image_load_file(o->image, ch, &c->img, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  size_t count = (size_t)h * (size_t)w * (size_t)ch;
  c->resized = (uint8_t *)malloc(count);
  c->input = malloc(in.bytes ? in.bytes : 1);
  if (!c->resized || !c->input || in.bytes != count * tfcc_dtype_size(in.dtype))
    return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  resize_bilinear_u8(c->img.pixels, c->img.height, c->img.width, ch, c->resized, h, w);
  pixels_to_input(c->resized, count, in.dtype, o->mean, o->std, c->input);

  if (o->save_input &&
      npy_write_file(o->save_input, in.dtype, in.rank, in.dims, c->input, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);

  tfcc_tensor_info out;
  tfcc_session_output_info(c->session, 0, &out);
  size_t n = cli_elements(&out);
  /* One score per class: [N], [1,N], [1,1,1,N], ... Anything else (a segmentation map, boxes)
   * would print flat element indices as if they were classes. */
  int class_vector = out.rank >= 1 && n > 0;
  for (int32_t d = 0; d + 1 < out.rank; d++) class_vector &= out.dims[d] == 1;
  if (!class_vector)
    return cli_error(
        CMD, CLI_EXIT_FAIL,
        "output 0 (%s) is %s %s, not a class vector ([1,N], one score per class): "
        "this does not look like a classification model (use 'tfcc run' for its raw outputs)",
        out.name, tfcc_dtype_name(out.dtype), cli_shape_sig(&out, shape, sizeof shape));
  c->output = malloc(out.bytes ? out.bytes : 1);
  c->scores = (float *)malloc((n ? n : 1) * sizeof(float));
  if (!c->output || !c->scores) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  /* Only output 0 is reported; the others still need buffers. */
  int n_out = tfcc_session_output_count(c->session);
  void **outs = (void **)calloc((size_t)n_out, sizeof *outs);
  if (!outs) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  int rc = CLI_EXIT_OK;
  outs[0] = c->output;
  for (int i = 1; i < n_out && rc == CLI_EXIT_OK; i++) {
    tfcc_tensor_info oi;
    tfcc_session_output_info(c->session, i, &oi);
    outs[i] = malloc(oi.bytes ? oi.bytes : 1);
    if (!outs[i]) rc = cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  }
  const void *ins[1] = {c->input};
  if (rc == CLI_EXIT_OK) {
    st = tfcc_session_run(c->session, ins, outs);
    if (st != TFCC_OK) {
      const char *m = tfcc_session_last_error(c->session);
      rc = cli_error(CMD, CLI_EXIT_FAIL, "run failed: %s", m && m[0] ? m : tfcc_status_str(st));
    }
  }
  for (int i = 1; i < n_out; i++) free(outs[i]);
  free(outs);
  if (rc != CLI_EXIT_OK) return rc;

  if (output_scores(&out, c->output, c->scores, n) != 0)
    return cli_error(
        CMD, CLI_EXIT_FAIL,
        "output 0 (%s) is %s; classify reads float32, uint8, int8, int16 or int32 scores", out.name,
        tfcc_dtype_name(out.dtype));
  /* Top K by repeated selection: highest score first, lower index first on ties. */
  size_t k = (size_t)o->top < n ? (size_t)o->top : n;
  unsigned char *taken = (unsigned char *)calloc(n ? n : 1, 1);
  if (!taken) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  for (size_t r = 0; r < k; r++) {
    size_t best = n;
    for (size_t i = 0; i < n; i++)
      if (!taken[i] && (best == n || c->scores[i] > c->scores[best])) best = i;
    if (best == n) break;
    taken[best] = 1;
    const char *label = labels_get(&c->names, (long)best);
    printf("%zu %zu %.6g %s\n", r + 1, best, (double)c->scores[best], label ? label : "-");
  }
  free(taken);
  return CLI_EXIT_OK;
}

int cmd_classify(int argc, char **argv) {
  args a;
  const char *value;
  char err[256];
  classify_opts o = {NULL, NULL, NULL, NULL, 5, 127.5, 127.5, 0};
  args_init(&a, argc, argv);
  for (;;) {
    int id = args_next(&a, k_opts, &value);
    if (id == ARGS_END) break;
    int bad = 0;
    switch (id) {
      case ARGS_ERROR: return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
      case OPT_HELP: fputs(k_usage, stdout); return CLI_EXIT_OK;
      case OPT_LABELS: o.labels = value; break;
      case OPT_SAVE: o.save_input = value; break;
      case OPT_CUSTOM_OPS:
        if (cli_add_custom_ops(CMD, value) != 0) return CLI_EXIT_USAGE;
        break;
      case OPT_KEY_FILE:
      case OPT_KEY_ENV:
        if (cli_set_key(CMD, id == OPT_KEY_ENV, value) != 0) return CLI_EXIT_USAGE;
        break;
      case OPT_TOP: bad = args_int("--top", value, 1, 1000000, &o.top, err, sizeof err); break;
      case OPT_MEAN: bad = args_float("--mean", value, &o.mean, err, sizeof err); break;
      case OPT_STD:
        bad = args_float("--std", value, &o.std, err, sizeof err);
        if (!bad && o.std == 0.0) {
          snprintf(err, sizeof err, "--std: must not be 0");
          bad = 1;
        }
        break;
      case OPT_THREADS:
        bad = args_int("--threads", value, 0, 1024, &o.threads, err, sizeof err);
        break;
      case ARGS_POSITIONAL:
        if (!o.model)
          o.model = value;
        else if (!o.image)
          o.image = value;
        else
          return cli_error(CMD, CLI_EXIT_USAGE, "unexpected argument '%s'", value);
        break;
      default: break;
    }
    if (bad) return cli_error(CMD, CLI_EXIT_USAGE, "%s", err);
  }
  if (!o.model || !o.image)
    return cli_error(CMD, CLI_EXIT_USAGE, "missing %s (see 'tfcc classify --help')",
                     o.model ? "IMAGE" : "MODEL and IMAGE");
  classify_state c;
  memset(&c, 0, sizeof c);
  int rc = classify(&c, &o);
  classify_cleanup(&c);
  return rc;
}
