/* Writing a file as pieces (a header, padding, blocks), each write filling one whole 2 MiB-aligned
 * span of the file.
 *
 * A file system with large page-cache folios (ext4 since Linux 6.16, XFS) sizes the folios a write
 * creates by that write's length and position: a file written block by block ends up in folios
 * of a few pages, written in aligned 2 MiB writes in 2 MiB folios. A process that maps the file at
 * a 2 MiB-aligned address (Linux aligns a mapping of 2 MiB or more) then maps each such folio
 * with one page-table entry at its first touch, instead of taking a fault per 64 KiB of 4 KiB
 * entries, and on a virtual machine whose host shadows the guest's page tables one exit instead
 * of one per 4 KiB page (bench/README.md, "load11": the first run on a warm weights cache). The
 * bytes are the same either way. Not on the run path. */
#ifndef TFCC_BASE_SPAN_WRITER_H
#define TFCC_BASE_SPAN_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define TFCC_SPAN_BYTES ((size_t)2 << 20)
#define TFCC_SPAN_PIECES 128

typedef struct tfcc_span_writer {
  int fd;
  bool ok;       /* false after a failed write: later calls do nothing */
  uint64_t pos;  /* file offset of the next byte queued */
  size_t queued; /* bytes in iov */
  int n;         /* pieces in iov */
  struct iovec iov[TFCC_SPAN_PIECES];
} tfcc_span_writer;

/* Starts writing at the current offset of fd, which is at file offset 0. */
void tfcc_span_writer_init(tfcc_span_writer *w, int fd);
/* Queues n bytes at p (kept until written: p must stay valid until the next span boundary is
 * written or tfcc_span_writer_finish returns); writes every whole span completed. p NULL:
 * n zero bytes. */
void tfcc_span_write(tfcc_span_writer *w, const void *p, size_t n);
/* Writes what is queued; true when every byte was written. */
bool tfcc_span_writer_finish(tfcc_span_writer *w);

#endif
