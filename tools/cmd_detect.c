/* tfcc detect MODEL IMAGE [--labels FILE] [--threshold T] [--out FILE.png] [--mean M] [--std S]
 *
 * Object detection with an SSD-style model whose outputs are those of
 * TFLite_Detection_PostProcess: boxes [1,N,4] (ymin, xmin, ymax, xmax, normalized), classes
 * [1,N], scores [1,N], count [1]. The input is prepared as `tfcc classify` prepares it
 * (decode, TFLite RESIZE_BILINEAR with half-pixel centers, truncated to uint8; uint8: raw,
 * int8: pixel - 128, float32: (pixel - mean) / std). Prints one line per detection with a
 * score >= T: 'rank class score ymin xmin ymax xmax label'; --out draws the boxes on the
 * original image and writes it as PNG. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common/args.h"
#include "common/cli.h"
#include "common/image.h"
#include "common/labels.h"
#include "common/resize.h"

#define CMD "detect"

static const char k_usage[] =
    "usage: tfcc detect MODEL IMAGE [--labels FILE] [--threshold T] [--out FILE.png]\n"
    "                   [--mean M] [--std S] [--threads N]\n"
    "\n"
    "Detects objects in IMAGE (JPEG, PNG or BMP) with MODEL, an SSD-style detector whose\n"
    "outputs are TFLite_Detection_PostProcess's: boxes [1,N,4] (ymin, xmin, ymax, xmax in\n"
    "[0, 1]), classes [1,N], scores [1,N], count [1]. Prints one line per detection whose\n"
    "score is >= T, best first: 'rank class score ymin xmin ymax xmax label'.\n"
    "\n"
    "The image is prepared as by 'tfcc classify' (bilinear resize to the input's H x W;\n"
    "uint8: raw pixels, int8: pixel - 128, float32: (pixel - mean) / std).\n"
    "\n"
    "  -l, --labels FILE    class names, one per line (line number = class id)\n"
    "  --threshold T        minimum score to report (default 0.5)\n"
    "  -o, --out FILE       write IMAGE with the reported boxes drawn, as PNG\n"
    "  --mean M             float inputs: value subtracted from each pixel (default 127.5)\n"
    "  --std S              float inputs: divisor after the subtraction (default 127.5)\n"
    "  -t, --threads N      worker threads (default: all CPUs)\n"
    "  --custom-ops LIB.so  register the custom operators of plugin LIB.so (repeatable;\n"
    "                       docs/custom_ops.md)\n"
    "  --key-file FILE      key of an encrypted MODEL (.tfcce, tfcc encrypt): 32 raw\n"
    "                       bytes or 64 hex digits\n"
    "  --key-env VAR        the same key as 64 hex digits in environment variable VAR\n"
    "  -h, --help           this text\n";

enum {
  OPT_LABELS = 1,
  OPT_THRESHOLD,
  OPT_OUT,
  OPT_MEAN,
  OPT_STD,
  OPT_THREADS,
  OPT_HELP,
  OPT_CUSTOM_OPS,
  OPT_KEY_FILE,
  OPT_KEY_ENV
};
static const arg_opt k_opts[] = {{OPT_LABELS, "-l", "--labels", 1},
                                 {OPT_THRESHOLD, NULL, "--threshold", 1},
                                 {OPT_OUT, "-o", "--out", 1},
                                 {OPT_MEAN, NULL, "--mean", 1},
                                 {OPT_STD, NULL, "--std", 1},
                                 {OPT_THREADS, "-t", "--threads", 1},
                                 {OPT_HELP, "-h", "--help", 0},
                                 {OPT_CUSTOM_OPS, NULL, "--custom-ops", 1},
                                 {OPT_KEY_FILE, NULL, "--key-file", 1},
                                 {OPT_KEY_ENV, NULL, "--key-env", 1},
                                 {0, NULL, NULL, 0}};

typedef struct detect_opts {
  const char *model, *image, *labels, *out;
  double threshold, mean, std;
  long threads;
} detect_opts;

enum { OUT_BOXES, OUT_CLASSES, OUT_SCORES, OUT_COUNT, N_OUTS };

typedef struct detect_state {
  tfcc_runtime *rt;
  tfcc_model *model;
  tfcc_session *session;
  image_u8 img;
  uint8_t *resized;
  void *input;
  void **outs;
  int n_outs;
  labels names;
} detect_state;

static void detect_cleanup(detect_state *c) {
  for (int i = 0; i < c->n_outs; i++) free(c->outs[i]);
  free(c->outs);
  labels_free(&c->names);
  free(c->input);
  free(c->resized);
  image_free(&c->img);
  tfcc_session_destroy(c->session);
  tfcc_model_release(c->model);
  tfcc_runtime_destroy(c->rt);
}

/* The post-process outputs by position (boxes, classes, scores, count), checked by shape. */
static int check_outputs(detect_state *c, int32_t *n_det) {
  char shape[256];
  if (tfcc_session_output_count(c->session) < N_OUTS)
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "the model has %d outputs; detect needs boxes, classes, "
                     "scores and count (TFLite_Detection_PostProcess)",
                     tfcc_session_output_count(c->session));
  tfcc_tensor_info o[N_OUTS];
  for (int i = 0; i < N_OUTS; i++) {
    tfcc_session_output_info(c->session, i, &o[i]);
    if (o[i].dtype != TFCC_FLOAT32)
      return cli_error(CMD, CLI_EXIT_FAIL, "output %d (%s) is %s; detect reads float32 outputs", i,
                       o[i].name, tfcc_dtype_name(o[i].dtype));
  }
  const int32_t n = o[0].rank == 3 ? o[0].dims[1] : -1;
  const int ok = o[0].rank == 3 && o[0].dims[0] == 1 && o[0].dims[2] == 4 && o[1].rank == 2 &&
                 o[1].dims[1] == n && o[2].rank == 2 && o[2].dims[1] == n &&
                 cli_elements(&o[3]) == 1;
  if (!ok)
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "outputs 0..3 are not boxes [1,N,4], classes [1,N], "
                     "scores [1,N], count [1] (output 0 is %s)",
                     cli_shape_sig(&o[0], shape, sizeof shape));
  *n_det = n;
  return CLI_EXIT_OK;
}

/* Feeds the image to input 0 (as cmd_classify does). */
static int prepare_input(detect_state *c, const detect_opts *o) {
  char err[512], shape[256];
  if (tfcc_session_input_count(c->session) != 1)
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "the model has %d inputs; detect needs a single image input",
                     tfcc_session_input_count(c->session));
  tfcc_tensor_info in;
  tfcc_session_input_info(c->session, 0, &in);
  if (!(in.rank == 4 && in.dims[0] == 1 && in.dims[1] > 0 && in.dims[2] > 0 &&
        (in.dims[3] == 1 || in.dims[3] == 3)))
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "input 0 (%s) is %s %s; detect needs [1,H,W,3] or [1,H,W,1]", in.name,
                     tfcc_dtype_name(in.dtype), cli_shape_sig(&in, shape, sizeof shape));
  if (in.dtype != TFCC_UINT8 && in.dtype != TFCC_INT8 && in.dtype != TFCC_FLOAT32)
    return cli_error(CMD, CLI_EXIT_FAIL,
                     "input 0 (%s) is %s; detect feeds uint8, int8 or float32 inputs", in.name,
                     tfcc_dtype_name(in.dtype));
  const int32_t h = in.dims[1], w = in.dims[2], ch = in.dims[3];
  if (image_load_file(o->image, 3, &c->img, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  const size_t count = (size_t)h * (size_t)w * (size_t)ch;
  c->resized = (uint8_t *)malloc(count);
  c->input = malloc(in.bytes ? in.bytes : 1);
  if (!c->resized || !c->input || in.bytes != count * tfcc_dtype_size(in.dtype))
    return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  if (ch == 3) {
    resize_bilinear_u8(c->img.pixels, c->img.height, c->img.width, 3, c->resized, h, w);
  } else { /* gray model: convert a copy, keep the RGB image for drawing */
    image_u8 gray = c->img;
    gray.pixels = (uint8_t *)malloc((size_t)c->img.width * (size_t)c->img.height * 3);
    if (!gray.pixels) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
    memcpy(gray.pixels, c->img.pixels, (size_t)c->img.width * (size_t)c->img.height * 3);
    if (image_convert(&gray, 1) != 0) {
      free(gray.pixels);
      return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
    }
    resize_bilinear_u8(gray.pixels, gray.height, gray.width, 1, c->resized, h, w);
    free(gray.pixels);
  }
  pixels_to_input(c->resized, count, in.dtype, o->mean, o->std, c->input);
  return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- drawing */

static void put_px(image_u8 *img, int32_t x, int32_t y, const uint8_t rgb[3]) {
  if (x < 0 || y < 0 || x >= img->width || y >= img->height) return;
  memcpy(img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * 3, rgb, 3);
}

/* A box outline `thick` pixels wide, clipped to the image. */
static void draw_box(image_u8 *img, const float *box, const uint8_t rgb[3]) {
  const double fy0 = box[0] * img->height, fx0 = box[1] * img->width;
  const double fy1 = box[2] * img->height, fx1 = box[3] * img->width;
  /* clamp in double first so the int conversions are defined for any float */
  const double lim = (double)IMAGE_MAX_SIDE * 2;
#define CL(v) ((int32_t)((v) < -lim ? -lim : ((v) > lim ? lim : (v))))
  const int32_t y0 = CL(fy0), x0 = CL(fx0), y1 = CL(fy1), x1 = CL(fx1);
#undef CL
  const int32_t thick = img->width > 400 ? 3 : 2;
  for (int32_t t = 0; t < thick; t++) {
    for (int32_t x = x0; x <= x1; x++) {
      if (x < 0 || x >= img->width) continue;
      put_px(img, x, y0 + t, rgb);
      put_px(img, x, y1 - t, rgb);
    }
    for (int32_t y = y0; y <= y1; y++) {
      if (y < 0 || y >= img->height) continue;
      put_px(img, x0 + t, y, rgb);
      put_px(img, x1 - t, y, rgb);
    }
  }
}

static void class_color(int32_t cls, uint8_t rgb[3]) {
  static const uint8_t pal[8][3] = {{230, 25, 75},  {60, 180, 75},  {255, 225, 25}, {0, 130, 200},
                                    {245, 130, 48}, {145, 30, 180}, {70, 240, 240}, {240, 50, 230}};
  const uint32_t i = (uint32_t)(cls < 0 ? -cls : cls) % 8u;
  memcpy(rgb, pal[i], 3);
}

static int write_png(const char *path, const image_u8 *img, char *err, size_t err_size) {
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  pi.width = (png_uint_32)img->width;
  pi.height = (png_uint_32)img->height;
  pi.format = PNG_FORMAT_RGB;
  if (!png_image_write_to_file(&pi, path, 0, img->pixels, 0, NULL)) {
    snprintf(err, err_size, "%s: cannot write PNG: %s", path, pi.message);
    png_image_free(&pi);
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------- run */

static int detect(detect_state *c, const detect_opts *o) {
  char err[512];
  if (o->labels && labels_load(o->labels, &c->names, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "labels: %s", err);
  if (cli_open_model(CMD, o->model, (int)o->threads, 0, &c->rt, &c->model) != 0)
    return CLI_EXIT_FAIL;
  tfcc_status st = tfcc_session_create(c->model, NULL, &c->session);
  if (st != TFCC_OK)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s: %s", o->model,
                     tfcc_last_error()[0] ? tfcc_last_error() : tfcc_status_str(st));
  int32_t n_det = 0;
  int rc = check_outputs(c, &n_det);
  if (rc == CLI_EXIT_OK) rc = prepare_input(c, o);
  if (rc != CLI_EXIT_OK) return rc;
  c->n_outs = tfcc_session_output_count(c->session);
  c->outs = (void **)calloc((size_t)c->n_outs, sizeof *c->outs);
  if (!c->outs) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  for (int i = 0; i < c->n_outs; i++) {
    tfcc_tensor_info oi;
    tfcc_session_output_info(c->session, i, &oi);
    c->outs[i] = malloc(oi.bytes ? oi.bytes : 1);
    if (!c->outs[i]) return cli_error(CMD, CLI_EXIT_FAIL, "out of memory");
  }
  const void *ins[1] = {c->input};
  st = tfcc_session_run(c->session, ins, c->outs);
  if (st != TFCC_OK) {
    const char *m = tfcc_session_last_error(c->session);
    return cli_error(CMD, CLI_EXIT_FAIL, "run failed: %s", m && m[0] ? m : tfcc_status_str(st));
  }
  const float *boxes = (const float *)c->outs[OUT_BOXES];
  const float *classes = (const float *)c->outs[OUT_CLASSES];
  const float *scores = (const float *)c->outs[OUT_SCORES];
  const float count_f = *(const float *)c->outs[OUT_COUNT];
  /* the count is a float; anything outside 0..N (or NaN) is clamped */
  const int32_t count =
      count_f >= 0 && count_f <= (float)n_det ? (int32_t)count_f : (count_f > 0 ? n_det : 0);
  int rank = 0;
  for (int32_t i = 0; i < count; i++) {
    if (!(scores[i] >= o->threshold)) continue;
    const float cf = classes[i];
    const long cls = cf >= -1e9f && cf <= 1e9f ? (long)cf : -1;
    const char *label = labels_get(&c->names, cls);
    const float *b = boxes + (size_t)i * 4;
    printf("%d %ld %.6g %.4f %.4f %.4f %.4f %s\n", ++rank, cls, (double)scores[i], (double)b[0],
           (double)b[1], (double)b[2], (double)b[3], label ? label : "-");
    if (o->out) {
      uint8_t rgb[3];
      class_color((int32_t)cls, rgb);
      draw_box(&c->img, b, rgb);
    }
  }
  if (o->out && write_png(o->out, &c->img, err, sizeof err) != 0)
    return cli_error(CMD, CLI_EXIT_FAIL, "%s", err);
  return CLI_EXIT_OK;
}

int cmd_detect(int argc, char **argv) {
  args a;
  const char *value;
  char err[256];
  detect_opts o = {NULL, NULL, NULL, NULL, 0.5, 127.5, 127.5, 0};
  args_init(&a, argc, argv);
  for (;;) {
    int id = args_next(&a, k_opts, &value);
    if (id == ARGS_END) break;
    int bad = 0;
    switch (id) {
      case ARGS_ERROR: return cli_error(CMD, CLI_EXIT_USAGE, "%s", a.err);
      case OPT_HELP: fputs(k_usage, stdout); return CLI_EXIT_OK;
      case OPT_LABELS: o.labels = value; break;
      case OPT_OUT: o.out = value; break;
      case OPT_CUSTOM_OPS:
        if (cli_add_custom_ops(CMD, value) != 0) return CLI_EXIT_USAGE;
        break;
      case OPT_KEY_FILE:
      case OPT_KEY_ENV:
        if (cli_set_key(CMD, id == OPT_KEY_ENV, value) != 0) return CLI_EXIT_USAGE;
        break;
      case OPT_THRESHOLD:
        bad = args_float("--threshold", value, &o.threshold, err, sizeof err);
        break;
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
    return cli_error(CMD, CLI_EXIT_USAGE, "missing %s (see 'tfcc detect --help')",
                     o.model ? "IMAGE" : "MODEL and IMAGE");
  detect_state c;
  memset(&c, 0, sizeof c);
  int rc = detect(&c, &o);
  detect_cleanup(&c);
  return rc;
}
