/* Minimal test harness: CHECK macros that count failures and report file:line. */
#ifndef TFCC_TEST_HARNESS_H
#define TFCC_TEST_HARNESS_H

#include <stdio.h>

extern int tfcc_test_failures;
extern int tfcc_test_checks;
/* Set when part of a test could not run (e.g. ../shared absent): tfcc_test_finish then returns
 * TFCC_TEST_SKIP instead of 0, so ctest reports the test as skipped, not passed. */
extern int tfcc_test_skipped;

#define CHECK(cond) \
  do { \
    tfcc_test_checks++; \
    if (!(cond)) { \
      tfcc_test_failures++; \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    } \
  } while (0)

#define CHECKF(cond, ...) \
  do { \
    tfcc_test_checks++; \
    if (!(cond)) { \
      tfcc_test_failures++; \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__); \
      fputc('\n', stderr); \
    } \
  } while (0)

/* Exit code for "skipped" (ctest SKIP_RETURN_CODE). */
#define TFCC_TEST_SKIP 77

/* Prints a summary and returns the process exit code: 1 if a check failed, else
 * TFCC_TEST_SKIP (77) if a part was skipped (tfcc_test_skipped), else 0. */
int tfcc_test_finish(const char *name);

/* Directory of ../shared (env TFCC_SHARED_DIR), or NULL with a visible SKIP message if absent
 * (and tfcc_test_skipped set). */
const char *tfcc_test_shared_dir(void);
/* Source dir (env TFCC_SOURCE_DIR, default "."). */
const char *tfcc_test_source_dir(void);

/* Reads a whole file into malloc'ed memory; NULL on failure. */
void *tfcc_test_read_file(const char *path, size_t *size);

#endif
