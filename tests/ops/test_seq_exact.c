/* exact3: the float and hybrid recurrent operators (LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM,
 * BIDIRECTIONAL_SEQUENCE_LSTM, the RNN family, SVDF) bit for bit with TensorFlow Lite's classic
 * interpreter, in both quant_compat modes (no XNNPACK build takes these operators: its builtin
 * kernels run them in each). Their cells call tensor_utils' Eigen logistic and fast tanh
 * (kernels/ref/activation.h); every float conformance case of these operators in
 * tests/ops/conformance/cases.txt (references from the tfweb engine, one from its Python twin),
 * the fast float LSTM plan included (constant weights), every output byte for byte. mend45: also
 * SOFTMAX with beta < 0 (and EXP, which lead49 moved to ops.test_hybrid's exp_f32_expf_probe
 * twins: TFLITE mode now runs LiteRT's exp) at the floats where x86-64 glibc's FMA expf is 1 ulp off the
 * plain build's (tfweb references): tfcc runs their reference kernels at every ISA, which call
 * tfcc_expf_ref, so their bits do not depend on the host's libm. exact6: LOGISTIC too
 * (logistic_f32_expf_probe), whose every float32 node now runs XNNPACK's sigmoid, the same bits
 * at every ISA cap (scripts/test.sh stage 2 runs this test at each), and every float SOFTMAX case
 * (softmax_f32*: beta 1 now runs XNNPACK's softmax in both modes, other betas >= 0 vector
 * kernels with the reference's bits; main was 18-22 of 36 off LiteRT on softmax_f32 and 4 of 30
 * on softmax_f32_beta at the AVX2 / AVX-512 caps). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_load.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static const char *const k_prefixes[] = {"lstm_f32",
                                         "lstm_hybrid",
                                         "unidirectional_sequence_lstm_f32",
                                         "unidirectional_sequence_lstm_hybrid",
                                         "bidirectional_sequence_lstm_f32",
                                         "bidirectional_sequence_lstm_hybrid",
                                         "rnn_f32",
                                         "rnn_hybrid",
                                         "unidirectional_sequence_rnn_f32",
                                         "unidirectional_sequence_rnn_hybrid",
                                         "bidirectional_sequence_rnn_f32",
                                         "bidirectional_sequence_rnn_hybrid",
                                         "svdf_f32",
                                         "svdf_hybrid",
                                         "logistic_f32_expf_probe",
                                         "softmax_f32"};

static int wanted(const char *name) {
  for (size_t i = 0; i < sizeof k_prefixes / sizeof k_prefixes[0]; i++)
    if (strncmp(name, k_prefixes[i], strlen(k_prefixes[i])) == 0) return 1;
  return 0;
}

/* One case in one mode; returns the number of outputs compared. */
static int run_case(tfcc_runtime *rt, const char *dir, const char *name, int n_in, int n_out,
                    tfcc_quant_compat qc) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.tflite", dir, name);
  tfcc_model_options mo;
  tfcc_model_options_default(&mo);
  mo.quant_compat = qc;
  tfcc_model *m = NULL;
  tfcc_status st = tfcc_model_load_file(rt, path, &mo, &m);
  CHECKF(st == TFCC_OK, "%s: %s", name, tfcc_last_error());
  if (st != TFCC_OK) return 0;
  tfcc_session *s = NULL;
  st = tfcc_session_create(m, NULL, &s);
  tfcc_model_release(m);
  CHECKF(st == TFCC_OK, "%s: %s", name, tfcc_last_error());
  if (st != TFCC_OK) return 0;
  CHECKF(tfcc_session_input_count(s) == n_in && tfcc_session_output_count(s) == n_out,
         "%s: %d inputs, %d outputs", name, tfcc_session_input_count(s),
         tfcc_session_output_count(s));
  test_npy in[8], ref[8];
  const void *ins[8];
  void *outs[8];
  int n_loaded = 0, compared = 0;
  memset(outs, 0, sizeof outs);
  if (n_in > 8 || n_out > 8 || tfcc_session_input_count(s) != n_in ||
      tfcc_session_output_count(s) != n_out) {
    tfcc_session_destroy(s);
    return 0;
  }
  for (; n_loaded < n_in; n_loaded++) {
    snprintf(path, sizeof path, "%s/%s.in%d.npy", dir, name, n_loaded);
    if (test_npy_load(path, &in[n_loaded]) != 0) break;
    ins[n_loaded] = in[n_loaded].data;
  }
  CHECKF(n_loaded == n_in, "%s: input %d missing", name, n_loaded);
  for (int i = 0; i < n_out; i++) {
    tfcc_tensor_info oi;
    tfcc_session_output_info(s, i, &oi);
    outs[i] = calloc(1, oi.bytes ? oi.bytes : 1);
  }
  if (n_loaded == n_in) {
    st = tfcc_session_run(s, ins, outs);
    CHECKF(st == TFCC_OK, "%s: run: %s", name, tfcc_last_error());
    for (int i = 0; st == TFCC_OK && i < n_out; i++) {
      tfcc_tensor_info oi;
      tfcc_session_output_info(s, i, &oi);
      snprintf(path, sizeof path, "%s/%s.out%d.npy", dir, name, i);
      if (test_npy_load(path, &ref[i]) != 0) {
        CHECKF(0, "%s: reference %d missing", name, i);
        continue;
      }
      CHECKF(ref[i].bytes == oi.bytes, "%s: out%d %zu bytes, reference %zu", name, i, oi.bytes,
             ref[i].bytes);
      if (ref[i].bytes == oi.bytes && oi.dtype == TFCC_FLOAT32) {
        const unsigned char *a = outs[i], *b = ref[i].data;
        size_t diff = 0;
        for (size_t k = 0; k < oi.bytes; k += 4) diff += memcmp(a + k, b + k, 4) != 0;
        CHECKF(diff == 0, "%s (%s): out%d: %zu of %zu floats differ from TensorFlow Lite", name,
               qc == TFCC_QUANT_COMPAT_REFERENCE ? "reference" : "tflite", i, diff, oi.bytes / 4);
        compared++;
      }
      test_npy_free(&ref[i]);
    }
  }
  for (int i = 0; i < n_loaded; i++) test_npy_free(&in[i]);
  for (int i = 0; i < n_out; i++) free(outs[i]);
  tfcc_session_destroy(s);
  return compared;
}

int main(void) {
  char dir[4096], path[4200];
  snprintf(dir, sizeof dir, "%s/tests/ops/conformance", tfcc_test_source_dir());
  snprintf(path, sizeof path, "%s/cases.txt", dir);
  FILE *f = fopen(path, "r");
  CHECKF(f != NULL, "%s missing", path);
  if (!f) return tfcc_test_finish("seq_exact");
  tfcc_runtime *rt = NULL;
  CHECK(tfcc_runtime_create(NULL, &rt) == TFCC_OK);
  char line[512];
  int cases = 0, outputs = 0;
  while (rt && fgets(line, sizeof line, f)) {
    char name[256], tol[32];
    int n_in = 0, n_out = 0;
    if (line[0] == '#' || sscanf(line, "%255s %d %d %31s", name, &n_in, &n_out, tol) != 4) continue;
    if (!wanted(name) || strcmp(tol, "float") != 0) continue;
    cases++;
    outputs += run_case(rt, dir, name, n_in, n_out, TFCC_QUANT_COMPAT_TFLITE);
    outputs += run_case(rt, dir, name, n_in, n_out, TFCC_QUANT_COMPAT_REFERENCE);
  }
  fclose(f);
  printf("seq_exact: %d cases, %d outputs compared bit for bit (both modes)\n", cases, outputs);
  CHECKF(cases >= 60, "only %d recurrent float cases listed", cases);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("seq_exact");
}
