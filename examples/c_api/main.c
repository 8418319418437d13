/* The README's C example: load a model, run it once on an all-zero input, print the top score.
 * Build against the installed library (README, "Install"):
 *   cc main.c $(pkg-config --cflags --libs tfcc) -o tfcc_example && ./tfcc_example MODEL.tflite */
#include <tfcc/tfcc.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  tfcc_runtime *rt = NULL;
  tfcc_model *model = NULL;
  tfcc_session *s = NULL;
  tfcc_runtime_options ro;
  tfcc_runtime_options_default(&ro);
  ro.num_threads = 2;
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.tflite\n", argv[0]);
    return 2;
  }
  if (tfcc_runtime_create(&ro, &rt) != TFCC_OK ||
      tfcc_model_load_file(rt, argv[1], NULL, &model) != TFCC_OK ||
      tfcc_session_create(model, NULL, &s) != TFCC_OK) {
    fprintf(stderr, "tfcc: %s\n", tfcc_last_error()); /* names the cause */
    tfcc_model_release(model);
    tfcc_runtime_destroy(rt);
    return 1;
  }
  tfcc_model_release(model); /* the session keeps its own reference */
  if (tfcc_session_input_count(s) != 1 || tfcc_session_output_count(s) != 1) {
    fprintf(stderr, "this example runs models with one input and one output\n");
    tfcc_session_destroy(s);
    tfcc_runtime_destroy(rt);
    return 1;
  }
  tfcc_tensor_info in, out;
  tfcc_session_input_info(s, 0, &in); /* dtype, shape, quantization, bytes */
  tfcc_session_output_info(s, 0, &out);
  void *x = calloc(1, in.bytes), *y = malloc(out.bytes); /* caller-owned, exactly the */
  const void *inputs[] = {x};
  void *outputs[] = {y}; /* sizes the model says      */
  int rc = !x || !y || tfcc_session_run(s, inputs, outputs) != TFCC_OK;
  if (rc) fprintf(stderr, "run: %s\n", x && y ? tfcc_session_last_error(s) : "out of memory");
  size_t best = 0, n = out.bytes / tfcc_dtype_size(out.dtype);
  double top = 0, scale = out.quant_count ? out.scales[0] : 1,
         zero = out.quant_count ? out.zero_points[0] : 0;
  for (size_t i = 0; !rc && i < n; i++) { /* highest score; quantized ones dequantized */
    double v = out.dtype == TFCC_FLOAT32 ? ((float *)y)[i]
               : out.dtype == TFCC_UINT8 ? scale * (((unsigned char *)y)[i] - zero)
               : out.dtype == TFCC_INT8  ? scale * (((signed char *)y)[i] - zero)
                                         : 0;
    if (i == 0 || v > top) best = i, top = v;
  }
  if (!rc)
    printf("%s: output %s %s, %zu values; top: index %zu, score %.6f\n", argv[1], out.name,
           tfcc_dtype_name(out.dtype), n, best, top);
  free(x);
  free(y);
  tfcc_session_destroy(s);
  tfcc_runtime_destroy(rt);
  return rc;
}
