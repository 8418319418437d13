/* Device "cuda" where it cannot run fails cleanly, naming the cause, and leaves nothing behind:
 * an unknown device, a negative id, a backend library that does not exist, and (on a machine
 * without a GPU or without libtfcc_cuda) the real library or driver missing. On a machine with a
 * GPU the last one succeeds and the runtime reports device "cuda". */
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"
#include "tfcc/tfcc.h"

static tfcc_status create(const char *device, int id, tfcc_runtime **rt) {
  tfcc_runtime_options o;
  tfcc_runtime_options_default(&o);
  o.device = device;
  o.device_id = id;
  return tfcc_runtime_create(&o, rt);
}

int main(void) {
  tfcc_runtime *rt = (tfcc_runtime *)1;
  CHECK(create("tpu", 0, &rt) == TFCC_ERR_INVALID_ARG && rt == NULL);
  CHECKF(strstr(tfcc_last_error(), "unknown device 'tpu'"), "%s", tfcc_last_error());
  CHECK(create("cuda", -1, &rt) == TFCC_ERR_INVALID_ARG && rt == NULL);
  CHECKF(strstr(tfcc_last_error(), "device id -1"), "%s", tfcc_last_error());
  /* "cpu" is the CPU */
  CHECK(create("cpu", 0, &rt) == TFCC_OK && rt);
  CHECK(strcmp(tfcc_runtime_device(rt), "cpu") == 0);
  /* a CPU runtime has no device memory */
  void *mem = (void *)1;
  CHECK(tfcc_runtime_device_alloc(rt, 64, 0, &mem) == TFCC_ERR_UNSUPPORTED && mem == NULL);
  CHECKF(strstr(tfcc_last_error(), "runs on the CPU (device cpu)"), "%s", tfcc_last_error());
  char host[8] = "abcdefg", copy[8] = {0};
  CHECK(tfcc_runtime_device_copy(rt, copy, host, sizeof host) == TFCC_ERR_UNSUPPORTED);
  CHECK(tfcc_runtime_device_free(rt, NULL) == TFCC_ERR_UNSUPPORTED);
  CHECK(tfcc_runtime_device_alloc(NULL, 64, 0, &mem) == TFCC_ERR_INVALID_ARG);
  CHECKF(strstr(tfcc_last_error(), "runtime is NULL"), "%s", tfcc_last_error());
  tfcc_runtime_destroy(rt);
  /* a library that is not there */
  const char *real = getenv("TFCC_CUDA_LIBRARY");
  char *saved = real ? strdup(real) : NULL;
  setenv("TFCC_CUDA_LIBRARY", "/nonexistent/libtfcc_cuda.so", 1);
  CHECK(create("cuda", 0, &rt) == TFCC_ERR_UNSUPPORTED && rt == NULL);
  CHECKF(strstr(tfcc_last_error(), "/nonexistent/libtfcc_cuda.so"), "%s", tfcc_last_error());
  char buf[256];
  CHECK(tfcc_device_describe("cuda", 0, buf, sizeof buf) == TFCC_ERR_UNSUPPORTED);
  /* the real one (the build's, when it has one) */
  if (saved)
    setenv("TFCC_CUDA_LIBRARY", saved, 1);
  else
    unsetenv("TFCC_CUDA_LIBRARY");
  tfcc_status st = create("cuda", 0, &rt);
  printf("device cuda here: %s\n", st == TFCC_OK ? "opened" : tfcc_last_error());
  if (st == TFCC_OK) {
    CHECK(strcmp(tfcc_runtime_device(rt), "cuda") == 0);
    /* device memory: allocated, copied both ways, freed; bad arguments named */
    for (int managed = 0; managed < 2; managed++) {
      void *d = NULL;
      char in[64], back[64];
      for (int i = 0; i < 64; i++) in[i] = (char)(i * 7 + managed);
      memset(back, 0, sizeof back);
      CHECKF(tfcc_runtime_device_alloc(rt, sizeof in, managed, &d) == TFCC_OK && d,
             "device_alloc managed=%d: %s", managed, tfcc_last_error());
      CHECK(tfcc_runtime_device_copy(rt, d, in, sizeof in) == TFCC_OK);
      CHECK(tfcc_runtime_device_copy(rt, back, d, sizeof back) == TFCC_OK);
      CHECK(memcmp(in, back, sizeof in) == 0);
      CHECK(tfcc_runtime_device_free(rt, d) == TFCC_OK);
    }
    void *d = (void *)1;
    CHECK(tfcc_runtime_device_alloc(rt, 0, 0, &d) == TFCC_ERR_INVALID_ARG && d == NULL);
    CHECK(tfcc_runtime_device_copy(rt, NULL, "x", 1) == TFCC_ERR_INVALID_ARG);
    tfcc_runtime_destroy(rt);
    CHECK(create("cuda", 4096, &rt) != TFCC_OK && rt == NULL); /* no such GPU */
  } else {
    CHECK(rt == NULL);
    CHECKF(strncmp(tfcc_last_error(), "device cuda: ", 13) == 0, "%s", tfcc_last_error());
    CHECK(st == TFCC_ERR_UNSUPPORTED);
  }
  free(saved);
  return tfcc_test_finish("cuda.test_device_errors");
}
