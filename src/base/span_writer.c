/* Pieces written a 2 MiB span at a time (contract in span_writer.h). */
#include "base/span_writer.h"

#include <errno.h>
#include <unistd.h>

/* Zero bytes for padding pieces, a page at a time. */
static const uint8_t zeros[4096];

/* Writes the queued pieces with as few writev calls as the kernel allows. */
static void flush(tfcc_span_writer *w) {
  struct iovec *v = w->iov;
  int n = w->n;
  while (w->ok && n > 0) {
    const ssize_t got = writev(w->fd, v, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      w->ok = false;
      break;
    }
    size_t left = (size_t)got;
    while (n > 0 && left >= v->iov_len) {
      left -= v->iov_len;
      v++, n--;
    }
    if (n > 0) {
      v->iov_base = (uint8_t *)v->iov_base + left;
      v->iov_len -= left;
    }
  }
  w->n = 0;
  w->queued = 0;
}

void tfcc_span_writer_init(tfcc_span_writer *w, int fd) {
  w->fd = fd;
  w->ok = true;
  w->pos = 0;
  w->queued = 0;
  w->n = 0;
}

void tfcc_span_write(tfcc_span_writer *w, const void *p, size_t n) {
  const uint8_t *b = p;
  while (w->ok && n > 0) {
    /* up to the end of the current span, a zero piece at most a page */
    const size_t to_span = TFCC_SPAN_BYTES - (size_t)(w->pos % TFCC_SPAN_BYTES);
    size_t take = n < to_span ? n : to_span;
    if (!b && take > sizeof zeros) take = sizeof zeros;
    w->iov[w->n].iov_base = (void *)(b ? b : zeros);
    w->iov[w->n].iov_len = take;
    w->n++;
    w->queued += take;
    w->pos += take;
    n -= take;
    if (b) b += take;
    /* a span complete, or no room for another piece (a shorter write: smaller folios there) */
    if (w->pos % TFCC_SPAN_BYTES == 0 || w->n == TFCC_SPAN_PIECES) flush(w);
  }
}

bool tfcc_span_writer_finish(tfcc_span_writer *w) {
  flush(w);
  return w->ok;
}
