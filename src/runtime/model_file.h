/* The bytes of a model file, held for the life of a model or of a weights generation.
 *
 * A file that can change under us is read once into private memory (a checked read(): the
 * size must not change while it is read), so that nothing the model later touches lies on a
 * file mapping: truncating or rewriting the file in place can then never raise SIGBUS in a
 * run. A file known to be immutable (tfcc_model_options.file_immutable, env
 * TFCC_MODEL_FILES_IMMUTABLE=1, a file system that cannot be written, a sealed memfd) is mapped
 * and used in place (zero-copy). docs/lifecycle.md says why. */
#ifndef TFCC_RUNTIME_MODEL_FILE_H
#define TFCC_RUNTIME_MODEL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "base/err.h"
#include "tfcc/tfcc.h"

/* A byte range of a model file (offset, length). */
typedef struct tfcc_mf_range {
  size_t off, len;
} tfcc_mf_range;

typedef struct tfcc_model_file {
  const uint8_t *data; /* size bytes: the file's content */
  size_t size;
  void *region; /* munmap(region, region_size) releases data (mapping or private copy) */
  size_t region_size;
  bool mapped;            /* data is a mapping of the (immutable) file itself */
  bool cow;               /* data is a private, writable mapping of a settled file (TFCC_MF_COW) */
  const char *why_mapped; /* what said the file is immutable ("" when copied) */
  int fd;                 /* open until tfcc_model_file_close_fd */
  struct stat st;         /* the file as it was read */
  bool settled;           /* its last change (mtime, ctime) was TFCC_MF_SETTLED_S or more before
                           it was opened: a write since would show in them (no re-read) */
  uint64_t checksum;      /* mapped, with TFCC_MF_CHECKSUM: content checksum */
  tfcc_mf_range *holes;   /* tfcc_model_file_open_holes: ranges of data not read yet (owned) */
  size_t n_holes;
  bool holes_trap; /* env TFCC_DEBUG_RELEASE_TRAP=1: unread holes are PROT_NONE */
  /* tfcc_model_file_open_holes: ranges of data mapped from another file (a weights cache's
   * kept pages) instead of read (owned), and their bytes */
  tfcc_mf_range *maps;
  size_t n_maps, mapped_bytes;
  /* where each mapped range lies in the other file (maps_at[i] for maps[i]; owned), and that
   * file's descriptor (a duplicate, owned while maps_at is set): tfcc_model_file_peek reads the
   * mapped bytes there, through the caller's window (peek_buf) */
  uint64_t *maps_at;
  int map_fd;
  uint8_t *peek_buf; /* tfcc_model_file_peek_window: the caller's buffer, or NULL */
  size_t peek_cap, peek_len;
  uint64_t peek_lo; /* peek_buf holds peek_len bytes of map_fd from offset peek_lo */
  /* set by the caller: a hash of the file's own bytes it took while reading them
   * (tfcc_model_file_read_ends: a weights cache's sample hash, whose sampled ends may hold
   * unread holes) */
  bool has_sample;
  uint64_t sample;
  /* a private copy of the whole file whose whole 2 MiB pages got huge pages (AnonHugePages
   * grew by as much when it was populated): read in place at full speed (base/kernel_copy.h) */
  bool whole_huge;
} tfcc_model_file;

/* A range of the model file whose bytes another open file holds at offset at (page aligned):
 * mapped from there (read only, shared) instead of read. */
typedef struct tfcc_mf_map {
  size_t off, len;
  uint64_t at;
} tfcc_mf_map;

/* Seconds between a file's last change and its open after which its timestamps alone tell a
 * later change (ticks are 1-4 ms; the margin covers clock steps and file servers' clocks). */
#define TFCC_MF_SETTLED_S 10
#define TFCC_MF_POPULATE 1u /* mapped: prefault every page */
#define TFCC_MF_CHECKSUM 2u /* mapped: checksum it (for tfcc_model_file_recheck) */
#define TFCC_MF_KEEP_FD 4u  /* leave fd open (for tfcc_model_file_recheck) */
/* A settled file that is not immutable: a private, writable mapping (MAP_PRIVATE) instead of a
 * copy; pages are read from the page cache when first touched, nothing is zeroed or copied up
 * front. The caller must give every page it keeps its own copy before the load ends
 * (tfcc_const_release_privatize) and then tfcc_model_file_recheck: until then a truncation of
 * the file would fault the process, and a write would show. Only for a load with a weights
 * cache (most of the file is then never read). */
#define TFCC_MF_COW 8u
/* A copy of the whole file (no holes): the allocation is a whole number of 2 MiB pages, so
 * that its last part, too, is a huge page while it is populated and read, rather than up to
 * 2 MiB of 4 KiB pages (on a VM whose host shadows the guest's page tables each of those is an
 * exit at its first write by the read).
 * The bytes past the file's end (zeros, under 2 MiB) are the caller's to give back
 * (tfcc_model_file_trim_tail) before they count in a peak. */
#define TFCC_MF_WHOLE_HUGE 16u

/* Opens path and brings its bytes into *f: mapped if immutable (the caller says so, or the
 * file is found to be), else read into a private allocation. Errors: TFCC_ERR_IO (open, not a
 * regular file, read, mmap), TFCC_ERR_INVALID_MODEL (too small), TFCC_ERR_NO_MEMORY,
 * TFCC_ERR_INTEGRITY (the file changed size, identity or time while it was read). Messages do
 * not name the path (callers prefix it). On failure *f holds nothing to release. */
tfcc_status tfcc_model_file_open(const char *path, bool immutable, unsigned flags,
                                 tfcc_model_file *f, tfcc_err *err);

/* As tfcc_model_file_open for a file that is copied (neither immutable nor TFCC_MF_COW), except
 * that the ranges holes[0..n) (sorted, disjoint, inside the file; trimmed inward to whole
 * pages) are neither read nor their pages touched: the model's constants a warm weights cache
 * replaces (runtime/weights_cache.h, skip list). Their bytes must be read with
 * tfcc_model_file_fill before anything reads them; the caller keeps the fd open
 * (TFCC_MF_KEEP_FD) until then and rechecks the file (tfcc_model_file_recheck) after the last
 * fill. Nothing is ever mapped from the file: a truncation is a "file shrank" error, never a
 * SIGBUS. f->holes lists what is left unread. */
tfcc_status tfcc_model_file_open_holes(const char *path, unsigned flags, const tfcc_mf_range *holes,
                                       size_t n, tfcc_model_file *f, tfcc_err *err);
/* As tfcc_model_file_open_holes, and the ranges maps[0..n_maps) (page aligned, sorted,
 * disjoint, outside the holes; the caller vouches that map_fd holds the file's bytes there:
 * a weights cache's kept pages, runtime/weights_cache.h) are mapped from map_fd (MAP_SHARED,
 * read only, populated) rather than read. A range that overlaps a hole, leaves the file's
 * pages or fails to map is read as usual. f->maps lists what was mapped. */
tfcc_status tfcc_model_file_open_holes_maps(const char *path, unsigned flags,
                                            const tfcc_mf_range *holes, size_t n,
                                            const tfcc_mf_map *maps, size_t n_maps, int map_fd,
                                            tfcc_model_file *f, tfcc_err *err);
/* A piece of a file's bytes: n bytes at offset off, in p (valid during the call only). */
typedef void (*tfcc_mf_piece_fn)(void *user, size_t off, const uint8_t *p, size_t n);
/* Reads [0, lo) and then [hi, size) of f's file (lo <= hi <= size) through a small buffer on
 * the stack, gives each piece in order to piece (NULL: none), and compares the parts of the
 * ranges tfcc_model_file_open_holes_maps mapped that lie there with the file's bytes: *same
 * false at the first difference (then tfcc_model_file_unmap_ranges). Nothing else of f->data is
 * touched: a caller that hashes the pieces (a weights cache's sampled ends) leaves the unread
 * holes there unread and their pages untouched. For a caller that vouches for the middle only
 * (a weights cache's kept pages: the sampled ends must be the file's own). Errors:
 * TFCC_ERR_IO, TFCC_ERR_INTEGRITY (the file is shorter now). */
tfcc_status tfcc_model_file_read_ends(const tfcc_model_file *f, size_t lo, size_t hi,
                                      tfcc_mf_piece_fn piece, void *user, bool *same,
                                      tfcc_err *err);
/* user: a tfcc_model_file. Reads the n bytes at offset off of its file into dst through a
 * descriptor when they lie in a range tfcc_model_file_open_holes_maps mapped (a weights
 * cache's kept pages: the same bytes), so that the caller does not touch that page: from the
 * file the range is mapped from, through the window below where one is set, else from the
 * model file; false (nothing read) elsewhere, or with the descriptor closed, or on a short
 * read. The model reader's length of every constant (format/fb_verify.h, tfcc_fbv_peek_fn):
 * on the test VM a first touch of a mapped page costs ~10 us, a pread of 4 bytes ~2. */
bool tfcc_model_file_peek(void *user, size_t off, void *dst, size_t n);
/* While buf (cap bytes, NULL: none) is set, tfcc_model_file_peek reads the mapped ranges from
 * the file they are mapped from (the weights cache, whose kept pages lie there back to back),
 * cap bytes at a time into buf, and serves the next lengths that fall inside from it: the
 * reader's ~100 lengths of a zoo model in a third as many system calls. buf must outlive the
 * reads (a caller's stack buffer: set it NULL before it goes). */
void tfcc_model_file_peek_window(tfcc_model_file *f, uint8_t *buf, size_t cap);
/* Replaces every range tfcc_model_file_open_holes_maps mapped with private pages read from
 * f's file (the caller found the file is not the one the ranges were vouched for). */
tfcc_status tfcc_model_file_unmap_ranges(tfcc_model_file *f, tfcc_err *err);
/* Reads [off, off + len) of f's file into its data (page aligned, inside a hole; pages made
 * accessible first in trap mode). TFCC_ERR_INTEGRITY if the file is shorter now. */
/* Gives back the whole pages of a private copy past the file's end (TFCC_MF_WHOLE_HUGE): they
 * are never read. That splits its last huge page (said to base/kernel_copy.h). No effect on a
 * mapping of the file. */
void tfcc_model_file_trim_tail(const tfcc_model_file *f);
tfcc_status tfcc_model_file_fill(tfcc_model_file *f, size_t off, size_t len, tfcc_err *err);

/* Is the file still what was read? Same identity, size and times (fstat), and the same
 * content: a copy is compared with the file read again, a mapping's checksum computed again.
 * Needs TFCC_MF_KEEP_FD (and TFCC_MF_CHECKSUM for a mapping). TFCC_ERR_INTEGRITY if not. */
tfcc_status tfcc_model_file_recheck(tfcc_model_file *f, tfcc_err *err);

void tfcc_model_file_close_fd(tfcc_model_file *f);
/* Releases the bytes and the fd. */
void tfcc_model_file_release(tfcc_model_file *f);

/* env TFCC_MODEL_FILES_IMMUTABLE=1|on: every model file is treated as immutable (mapped). */
bool tfcc_model_files_immutable_env(void);
/* opts->file_immutable (read only if the caller's struct has the field), or the env. */
bool tfcc_model_opts_file_immutable(const tfcc_model_options *opts);

#endif
