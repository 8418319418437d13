/* Unit tests of the tfcc tool's small helpers: option parser, label files, JSON writer,
 * output-name sanitizing and shape formatting (tools/common/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/common/args.c"
#include "../../tools/common/cli.c"
#include "../../tools/crypto/crypto_load.c" /* cli.c opens models through tfcc_model_open */
#include "../../tools/common/json.c"
#include "../../tools/common/labels.c"
#include "../../tools/common/npy.c"
#include "../../tools/plugin/plugin_load.c" /* cli.c loads --custom-ops plugins */
#include "test_harness.h"

enum { O_IN = 1, O_OUT, O_FLAG };
static const arg_opt k_opts[] = {{O_IN, "-i", "--input", 1},
                                 {O_OUT, "-o", NULL, 1},
                                 {O_FLAG, NULL, "--json", 0},
                                 {0, NULL, NULL, 0}};

static void test_args(void) {
  char *argv[] = {"cmd",   "model",  "-i", "a.npy", "--input=b=c.npy",
                  "-oDIR", "--json", "--", "-x",    NULL};
  args a;
  const char *v;
  args_init(&a, 9, argv);
  CHECK(args_next(&a, k_opts, &v) == ARGS_POSITIONAL && strcmp(v, "model") == 0);
  CHECK(args_next(&a, k_opts, &v) == O_IN && strcmp(v, "a.npy") == 0);
  CHECK(args_next(&a, k_opts, &v) == O_IN && strcmp(v, "b=c.npy") == 0);
  CHECK(args_next(&a, k_opts, &v) == O_OUT && strcmp(v, "DIR") == 0);
  CHECK(args_next(&a, k_opts, &v) == O_FLAG && v == NULL);
  CHECK(args_next(&a, k_opts, &v) == ARGS_POSITIONAL && strcmp(v, "-x") == 0);
  CHECK(args_next(&a, k_opts, &v) == ARGS_END);

  char *bad1[] = {"cmd", "--nope", NULL};
  args_init(&a, 2, bad1);
  CHECK(args_next(&a, k_opts, &v) == ARGS_ERROR && strstr(a.err, "unknown option '--nope'"));
  char *bad2[] = {"cmd", "-i", NULL};
  args_init(&a, 2, bad2);
  CHECK(args_next(&a, k_opts, &v) == ARGS_ERROR && strstr(a.err, "needs a value"));
  char *bad3[] = {"cmd", "--json=1", NULL};
  args_init(&a, 2, bad3);
  CHECK(args_next(&a, k_opts, &v) == ARGS_ERROR && strstr(a.err, "takes no value"));
  char *bad4[] = {"cmd", "--inputx", "-", NULL};
  args_init(&a, 3, bad4);
  CHECK(args_next(&a, k_opts, &v) == ARGS_ERROR);
  CHECK(args_next(&a, k_opts, &v) == ARGS_POSITIONAL && strcmp(v, "-") == 0);

  long n;
  double d;
  char err[128];
  CHECK(args_int("--top", "17", 1, 100, &n, err, sizeof err) == 0 && n == 17);
  CHECK(args_int("--top", "0", 1, 100, &n, err, sizeof err) == -1 && strstr(err, "out of range"));
  CHECK(args_int("--top", "5x", 1, 100, &n, err, sizeof err) == -1 &&
        strstr(err, "not an integer"));
  CHECK(args_int("--top", "", 1, 100, &n, err, sizeof err) == -1);
  CHECK(args_int("--top", "99999999999999999999", 1, 100, &n, err, sizeof err) == -1);
  CHECK(args_float("--mean", "-1.5e1", &d, err, sizeof err) == 0 && d == -15.0);
  CHECK(args_float("--mean", "inf", &d, err, sizeof err) == -1);
  CHECK(args_float("--mean", "1,5", &d, err, sizeof err) == -1);
}

static void test_labels(void) {
  char path[] = "/tmp/tfcc_test_labels_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  const char text[] = "background\r\ntench, Tinca tinca\n\nlast without newline";
  CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
  close(fd);
  labels l;
  char err[256];
  CHECK(labels_load(path, &l, err, sizeof err) == 0);
  CHECK(l.count == 4);
  CHECK(labels_get(&l, 0) && strcmp(labels_get(&l, 0), "background") == 0);
  CHECK(labels_get(&l, 1) && strcmp(labels_get(&l, 1), "tench, Tinca tinca") == 0);
  CHECK(labels_get(&l, 2) && strcmp(labels_get(&l, 2), "") == 0);
  CHECK(labels_get(&l, 3) && strcmp(labels_get(&l, 3), "last without newline") == 0);
  CHECK(labels_get(&l, 4) == NULL && labels_get(&l, -1) == NULL);
  labels_free(&l);
  /* empty file: no labels */
  FILE *f = fopen(path, "wb");
  if (f) fclose(f);
  CHECK(labels_load(path, &l, err, sizeof err) == 0 && l.count == 0 && labels_get(&l, 0) == NULL);
  labels_free(&l);
  remove(path);
  CHECK(labels_load("/nonexistent/labels.txt", &l, err, sizeof err) == -1 &&
        strstr(err, "/nonexistent/labels.txt"));
}

static void test_json(void) {
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&buf, &size);
  CHECK(f != NULL);
  if (!f) return;
  json_writer w;
  json_init(&w, f);
  json_begin_object(&w);
  json_key(&w, "s");
  json_string(&w, "a\"b\\c\n\t\x01");
  json_key(&w, "shape");
  json_begin_array_inline(&w);
  json_int(&w, 1);
  json_int(&w, -224);
  json_end_array(&w);
  json_key(&w, "empty");
  json_begin_array(&w);
  json_end_array(&w);
  json_key(&w, "x");
  json_double(&w, 0.5);
  json_key(&w, "nan");
  json_double(&w, 0.0 / 0.0);
  json_key(&w, "objs");
  json_begin_array(&w);
  json_begin_object(&w);
  json_key(&w, "b");
  json_bool(&w, 1);
  json_key(&w, "n");
  json_null(&w);
  json_end_object(&w);
  json_end_array(&w);
  json_end_object(&w);
  fclose(f);
  const char *want =
      "{\n"
      "  \"s\": \"a\\\"b\\\\c\\n\\t\\u0001\",\n"
      "  \"shape\": [1, -224],\n"
      "  \"empty\": [],\n"
      "  \"x\": 0.5,\n"
      "  \"nan\": null,\n"
      "  \"objs\": [\n"
      "    {\n"
      "      \"b\": true,\n"
      "      \"n\": null\n"
      "    }\n"
      "  ]\n"
      "}\n";
  CHECKF(buf && strcmp(buf, want) == 0, "got:\n%s", buf ? buf : "(null)");
  free(buf);
}

static void test_names_and_shapes(void) {
  char out[64];
  cli_safe_name("MobilenetV2/Predictions/Softmax:0", out, sizeof out);
  CHECK(strcmp(out, "MobilenetV2_Predictions_Softmax_0") == 0);
  cli_safe_name("a.b-c_d e\xc3\xa9", out, sizeof out);
  CHECK(strcmp(out, "a.b-c_d_e__") == 0);
  cli_safe_name("abcdefgh", out, 4);
  CHECK(strcmp(out, "abc") == 0);
  int32_t dims[3] = {1, 224, 3};
  char s[64];
  CHECK(strcmp(npy_shape_str(3, dims, s, sizeof s), "[1,224,3]") == 0);
  CHECK(strcmp(npy_shape_str(0, dims, s, sizeof s), "[]") == 0);
  tfcc_tensor_info info;
  memset(&info, 0, sizeof info);
  info.rank = 2;
  info.dims[0] = 1, info.dims[1] = 1;
  info.signature[0] = -1, info.signature[1] = 1;
  CHECK(strcmp(cli_shape_sig(&info, s, sizeof s), "[1,1] (signature [-1,1])") == 0);
  info.signature[0] = 1;
  CHECK(strcmp(cli_shape_sig(&info, s, sizeof s), "[1,1]") == 0);
  CHECK(cli_elements(&info) == 1);
}

int main(void) {
  test_args();
  test_labels();
  test_json();
  test_names_and_shapes();
  return tfcc_test_finish("test_tool_helpers");
}
