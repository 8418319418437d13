/* base/span_writer.h: pieces (data and zero padding, crossing 2 MiB span boundaries, more pieces in
 * a span than one writev takes) written to a file give exactly their concatenation; a failed
 * write is reported. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/span_writer.h"
#include "test_harness.h"

int main(void) {
  const size_t total = 5 * TFCC_SPAN_BYTES + 12345;
  uint8_t *want = calloc(1, total), *got = malloc(total), *src = malloc(total);
  CHECK(want && got && src);
  if (!want || !got || !src) return tfcc_test_finish("span_writer");
  for (size_t i = 0; i < total; i++) src[i] = (uint8_t)(i * 2654435761u >> 13);
  char path[] = "/tmp/tfcc_span_writer_XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  tfcc_span_writer w;
  tfcc_span_writer_init(&w, fd);
  size_t pos = 0, piece = 0;
  while (pos < total) {
    /* sizes from 1 byte to past a span; every third piece zero padding (NULL), some longer
     * than the writer's page of zeros; a run of 300 tiny pieces in the third span */
    size_t n =
        pos >= 2 * TFCC_SPAN_BYTES && pos < 2 * TFCC_SPAN_BYTES + 300 * 7
            ? 7
            : (size_t[]){1, 4096, 100000, 3 * (size_t)TFCC_SPAN_BYTES / 2, 9000, 63}[piece % 6];
    if (n > total - pos) n = total - pos;
    const bool zero = piece % 3 == 2;
    if (!zero) memcpy(want + pos, src + pos, n);
    tfcc_span_write(&w, zero ? NULL : src + pos, n);
    pos += n, piece++;
  }
  CHECK(tfcc_span_writer_finish(&w));
  CHECK(pread(fd, got, total, 0) == (ssize_t)total);
  CHECK(memcmp(got, want, total) == 0);
  CHECK(lseek(fd, 0, SEEK_END) == (off_t)total);
  close(fd);
  unlink(path);
  /* a write that fails (no such descriptor): reported, later pieces ignored */
  tfcc_span_writer_init(&w, -1);
  tfcc_span_write(&w, src, TFCC_SPAN_BYTES + 1);
  tfcc_span_write(&w, NULL, 10);
  CHECK(!tfcc_span_writer_finish(&w));
  free(want);
  free(got);
  free(src);
  return tfcc_test_finish("span_writer");
}
