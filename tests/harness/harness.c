/* Test harness: check counters, summary, shared/source dirs, file reading;
 * the contract is in test_harness.h. */
#include "test_harness.h"

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
