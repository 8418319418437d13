/* Test harness: check counters, summary, shared/source dirs, file reading (the contract is in
 * test_harness.h); the API tests' runtimes (test_runtime.h). */
#include "test_harness.h"
#include "test_runtime.h"

#include <stdlib.h>
#include <sys/stat.h>

int tfcc_test_failures = 0;
int tfcc_test_checks = 0;
int tfcc_test_skipped = 0;

int tfcc_test_finish(const char *name) {
  printf("%s: %d checks, %d failed%s\n", name, tfcc_test_checks, tfcc_test_failures,
         tfcc_test_skipped ? ", some parts SKIPPED (see above)" : "");
  if (tfcc_test_failures) return 1;
  return tfcc_test_skipped ? TFCC_TEST_SKIP : 0;
}

const char *tfcc_test_shared_dir(void) {
  const char *d = getenv("TFCC_SHARED_DIR");
  struct stat st;
  char probe[4096];
  if (d && *d) {
    snprintf(probe, sizeof probe, "%s/models", d);
    if (stat(probe, &st) == 0 && S_ISDIR(st.st_mode)) return d;
  }
  printf("SKIP: ../shared/models not found (set TFCC_SHARED_DIR); real-model checks not run\n");
  tfcc_test_skipped = 1;
  return NULL;
}

const char *tfcc_test_source_dir(void) {
  const char *d = getenv("TFCC_SOURCE_DIR");
  return d && *d ? d : ".";
}

void *tfcc_test_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    return NULL;
  }
  long n = ftell(f);
  if (n < 0) {
    fclose(f);
    return NULL;
  }
  rewind(f);
  void *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf && size) *size = (size_t)n;
  return buf;
}

tfcc_runtime *tfcc_test_runtime(void) {
  tfcc_runtime *rt = NULL;
  tfcc_runtime_options o;
  tfcc_runtime_options_default(&o);
  o.num_threads = 1;
  o.log_level = TFCC_LOG_ERROR;
  CHECKF(tfcc_runtime_create(&o, &rt) == TFCC_OK, "tfcc_runtime_create: %s", tfcc_last_error());
  return rt;
}

tfcc_runtime *tfcc_test_runtime_with_op(const char *name, tfcc_custom_fn prepare,
                                        tfcc_custom_fn eval, void *user) {
  tfcc_runtime *rt = tfcc_test_runtime();
  tfcc_custom_op op;
  tfcc_custom_op_default(&op);
  op.name = name;
  op.prepare = prepare;
  op.eval = eval;
  op.user = user;
  CHECKF(rt && tfcc_runtime_register_custom_op(rt, &op) == TFCC_OK, "registering %s: %s", name,
         tfcc_last_error());
  return rt;
}
