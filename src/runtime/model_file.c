/* Model file bytes: a checked read into private memory, or a mapping of an immutable file. */
#include "runtime/model_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "base/hash64.h"
#include "base/kernel_copy.h"
#include "base/private_map.h"

/* Read and re-read in steps (the re-read's buffer stays in L2 while it is compared). */
#define READ_STEP ((size_t)256 << 10)
/* Skipped ranges smaller than this are read anyway: each range skipped costs a read() more,
 * about what reading a few pages costs. Not when ranges are mapped from a weights cache too
 * (tfcc_model_file_open_holes_maps): the reads are cut by the mapped ranges anyway, so a
 * skipped page saves its copy and its fault (MobileNetV2 f32: 0.43 MB of small consumed
 * constants, biases and depthwise filters, between kept pages). */
#define HOLE_MIN ((size_t)32 << 10)
/* Ranges read between skipped ones from this size on are populated in one call first. */
#define HOLE_POPULATE_MIN ((size_t)256 << 10)
#define PUBLISH_HINT \
  "; publish model files by writing a temporary file and renaming it over the old one"

/* Content checksum of a mapping (base/hash64.h): detects in-place rewrites of a file declared
 * immutable between mapping and switching. */
static uint64_t checksum(const uint8_t *p, size_t n) { return tfcc_hash64(p, n); }

/* ---------------------------------------------------------------- helpers */

bool tfcc_model_files_immutable_env(void) {
  const char *e = getenv("TFCC_MODEL_FILES_IMMUTABLE");
  return e && (strcmp(e, "1") == 0 || strcmp(e, "on") == 0);
}

bool tfcc_model_opts_file_immutable(const tfcc_model_options *opts) {
  size_t need = offsetof(tfcc_model_options, file_immutable) + sizeof opts->file_immutable;
  if (opts && opts->struct_size >= need && opts->file_immutable) return true;
  return tfcc_model_files_immutable_env();
}

/* What makes the open file immutable, or NULL. Not a read-only mount (ST_RDONLY): that is a
 * read-only view of a file system another mount (the host, another container) may still
 * rewrite in place. */
static const char *immutable_reason(int fd) {
#ifdef F_GET_SEALS
  int seals = fcntl(fd, F_GET_SEALS);
  if (seals >= 0 && (seals & F_SEAL_SHRINK) && (seals & F_SEAL_WRITE)) return "sealed memfd";
#endif
  struct statfs sfs;
  if (fstatfs(fd, &sfs) != 0) return NULL;
  switch ((uint32_t)sfs.f_type) {
    case 0x73717368u: return "squashfs";
    case 0xE0F5E1E2u: return "erofs";
    case 0x9660u: return "iso9660";
    case 0x28cd3d45u: return "cramfs";
    case 0x7275u: return "romfs";
    default: return NULL;
  }
}

static bool same_file_state(const struct stat *a, const struct stat *b) {
  return a->st_size == b->st_size && a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* Private anonymous memory for size bytes, whole huge pages where the size allows, populated
 * in one call (out of memory is then a clean error, not the OOM killer later); whole_huge
 * (TFCC_MF_WHOLE_HUGE): rounded up to whole 2 MiB pages. */
static void *private_alloc(size_t size, bool populate, bool whole_huge, size_t *region_size) {
  size_t pg =
      whole_huge && size >= TFCC_PRIVATE_MAP_HUGE ? TFCC_PRIVATE_MAP_HUGE : tfcc_page_size();
  size_t len = (size + pg - 1) / pg * pg;
  if (len < size) return NULL;
  void *p = tfcc_map_private(len, populate);
  if (p) *region_size = len;
  return p;
}

/* read() until n bytes or end of file; returns the count, or -1 with errno. */
static ssize_t read_full(int fd, uint8_t *p, size_t n, off_t at, bool positioned) {
  size_t got = 0;
  while (got < n) {
    ssize_t r =
        positioned ? pread(fd, p + got, n - got, at + (off_t)got) : read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (ssize_t)got;
}

/* Reads the whole file (f->size bytes from offset 0) into f->region: one pass, no other copy. */
static tfcc_status read_copy(tfcc_model_file *f, tfcc_err *err) {
  uint8_t *dst = (uint8_t *)f->data;
  size_t done = 0;
  while (done < f->size) {
    size_t step = f->size - done < READ_STEP ? f->size - done : READ_STEP;
    ssize_t r = read_full(f->fd, dst + done, step, 0, false);
    if (r < 0)
      return tfcc_err_set(err, TFCC_ERR_IO, "read failed after %zu of %zu bytes: %s", done, f->size,
                          strerror(errno));
    done += (size_t)r;
    if ((size_t)r < step)
      return tfcc_err_set(
          err, TFCC_ERR_INTEGRITY,
          "file shrank while being read: %zu of %zu bytes, then end of file (truncated or "
          "rewritten in place)" PUBLISH_HINT,
          done, f->size);
  }
  uint8_t extra;
  ssize_t r = read_full(f->fd, &extra, 1, 0, false);
  if (r > 0)
    return tfcc_err_set(
        err, TFCC_ERR_INTEGRITY,
        "file grew while being read: more than the %zu bytes it had when opened" PUBLISH_HINT,
        f->size);
  return TFCC_OK;
}

static tfcc_status changed_error(const struct stat *a, const struct stat *b, const char *when,
                                 tfcc_err *err) {
  if (a->st_size != b->st_size)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY,
                        "file changed %s (size %lld -> %lld bytes)" PUBLISH_HINT, when,
                        (long long)a->st_size, (long long)b->st_size);
  return tfcc_err_set(
      err, TFCC_ERR_INTEGRITY, "file changed %s (same size, %s differs)" PUBLISH_HINT, when,
      a->st_ino != b->st_ino || a->st_dev != b->st_dev ? "inode" : "modification time");
}

/* ---------------------------------------------------------------- open */

/* Reads the file into f->region except the ranges gaps[0..n) (f->holes and f->maps, merged):
 * each range between them is populated (its pages made resident in one call) and read with
 * pread; the file must end where fstat said. */
static tfcc_status read_around_holes(tfcc_model_file *f, const tfcc_mf_range *gaps, size_t n,
                                     tfcc_err *err) {
  const size_t pg = tfcc_page_size();
  uint8_t *dst = (uint8_t *)f->data;
  size_t at = 0;
  for (size_t i = 0; i <= n; i++) {
    const size_t end = i < n ? gaps[i].off : f->size;
    if (end > at) {
      /* a large range populated in one call; a few pages are faulted in by the read itself
       * (a system call costs more than the faults it would save) */
      const size_t a = at / pg * pg, b = (end + pg - 1) / pg * pg;
      if (b - a >= HOLE_POPULATE_MIN) (void)madvise(dst + a, b - a, MADV_POPULATE_WRITE);
      for (size_t done = at; done < end;) {
        const size_t step = end - done < READ_STEP ? end - done : READ_STEP;
        ssize_t r = read_full(f->fd, dst + done, step, (off_t)done, true);
        if (r < 0)
          return tfcc_err_set(err, TFCC_ERR_IO, "read failed at byte %zu of %zu: %s", done, f->size,
                              strerror(errno));
        if ((size_t)r < step)
          return tfcc_err_set(
              err, TFCC_ERR_INTEGRITY,
              "file shrank while being read: %zu of %zu bytes, then end of file (truncated or "
              "rewritten in place)" PUBLISH_HINT,
              done + (size_t)r, f->size);
        done += step;
      }
    }
    if (i < n) at = gaps[i].off + gaps[i].len;
  }
  uint8_t extra;
  if (read_full(f->fd, &extra, 1, (off_t)f->size, true) > 0)
    return tfcc_err_set(
        err, TFCC_ERR_INTEGRITY,
        "file grew while being read: more than the %zu bytes it had when opened" PUBLISH_HINT,
        f->size);
  return TFCC_OK;
}

static tfcc_status open_impl(const char *path, bool immutable, unsigned flags,
                             const tfcc_mf_range *holes, size_t n_holes, const tfcc_mf_map *maps,
                             size_t n_maps, int map_fd, tfcc_model_file *f, tfcc_err *err);

tfcc_status tfcc_model_file_open(const char *path, bool immutable, unsigned flags,
                                 tfcc_model_file *f, tfcc_err *err) {
  return open_impl(path, immutable, flags, NULL, 0, NULL, 0, -1, f, err);
}

tfcc_status tfcc_model_file_open_holes(const char *path, unsigned flags, const tfcc_mf_range *holes,
                                       size_t n, tfcc_model_file *f, tfcc_err *err) {
  return open_impl(path, false, flags & ~TFCC_MF_COW, holes, n, NULL, 0, -1, f, err);
}

tfcc_status tfcc_model_file_open_holes_maps(const char *path, unsigned flags,
                                            const tfcc_mf_range *holes, size_t n,
                                            const tfcc_mf_map *maps, size_t n_maps, int map_fd,
                                            tfcc_model_file *f, tfcc_err *err) {
  return open_impl(path, false, flags & ~TFCC_MF_COW, holes, n, maps, n_maps, map_fd, f, err);
}

/* Does [a, b) overlap one of f's holes? */
static bool hits_hole(const tfcc_model_file *f, size_t a, size_t b) {
  for (size_t i = 0; i < f->n_holes; i++)
    if (a < f->holes[i].off + f->holes[i].len && f->holes[i].off < b) return true;
  return false;
}

/* Maps the ranges maps[0..n) from fd over f->region (each one call: MAP_FIXED over untouched
 * private pages); records those mapped in f->maps. A range that failed to map gets private
 * pages back (read with the rest). Not populated: the load reads the constants' lengths there
 * through the descriptor (tfcc_model_file_peek), and two runs of a zoo model read 1-3 of the
 * 76-242 pages mapped (/proc/self/smaps "Referenced"); populated, every range cost the mmap
 * more and every page counted in the process's RSS (branch load9, bench/README.md). */
static void map_ranges(tfcc_model_file *f, const tfcc_mf_map *maps, size_t n, int fd) {
  const size_t pg = tfcc_page_size();
  if (!n || fd < 0 || n > SIZE_MAX / sizeof *f->maps || !(f->maps = malloc(n * sizeof *f->maps)))
    return;
  f->maps_at = malloc(n * sizeof *f->maps_at); /* NULL: the lengths are read from the model */
  uint8_t *base = (uint8_t *)f->region;
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const size_t a = maps[i].off, b = maps[i].off + maps[i].len;
    if (a % pg || maps[i].len % pg || maps[i].at % pg || a < at || b < a || b > f->region_size ||
        hits_hole(f, a, b))
      continue;
    at = b;
    void *p = mmap(base + a, b - a, PROT_READ, MAP_SHARED | MAP_FIXED, fd, (off_t)maps[i].at);
    if (p == MAP_FAILED) {
      /* MAP_FIXED may have unmapped the range: private pages again (read with the rest) */
      if (mmap(base + a, b - a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
               0) == MAP_FAILED)
        break; /* the region has a hole now: the read fails with EFAULT */
      continue;
    }
    if (f->maps_at) f->maps_at[f->n_maps] = maps[i].at;
    f->maps[f->n_maps++] = (tfcc_mf_range){a, b - a};
    f->mapped_bytes += b - a;
  }
  if (!f->n_maps) {
    free(f->maps);
    f->maps = NULL;
  }
  /* the lengths the reader asks for are read from fd (tfcc_model_file_peek) */
  if (f->maps && f->maps_at && (f->map_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) >= 0) return;
  free(f->maps_at);
  f->maps_at = NULL;
}

/* Forgets where the mapped ranges came from (closes the other file's descriptor). */
static void drop_maps_at(tfcc_model_file *f) {
  if (!f->maps_at) return;
  free(f->maps_at);
  f->maps_at = NULL;
  close(f->map_fd);
  f->map_fd = -1;
}

void tfcc_model_file_peek_window(tfcc_model_file *f, uint8_t *buf, size_t cap) {
  if (!f) return;
  f->peek_buf = buf && cap ? buf : NULL;
  f->peek_cap = f->peek_buf ? cap : 0;
  f->peek_len = 0;
  f->peek_lo = 0;
}

/* f->holes and f->maps merged, sorted by offset (malloc'ed; NULL with *n 0 when both empty or
 * out of memory: then *n is SIZE_MAX). */
static tfcc_mf_range *merged_gaps(const tfcc_model_file *f, size_t *n) {
  *n = 0;
  const size_t total = f->n_holes + f->n_maps;
  if (!total) return NULL;
  tfcc_mf_range *g = malloc(total * sizeof *g);
  if (!g) {
    *n = SIZE_MAX;
    return NULL;
  }
  size_t i = 0, j = 0;
  while (i < f->n_holes || j < f->n_maps)
    g[(*n)++] = j >= f->n_maps || (i < f->n_holes && f->holes[i].off < f->maps[j].off)
                    ? f->holes[i++]
                    : f->maps[j++];
  return g;
}

tfcc_status tfcc_model_file_unmap_ranges(tfcc_model_file *f, tfcc_err *err) {
  tfcc_status st = TFCC_OK;
  uint8_t *base = (uint8_t *)f->region;
  for (size_t i = 0; i < f->n_maps && st == TFCC_OK; i++) {
    const tfcc_mf_range r = f->maps[i];
    if (mmap(base + r.off, r.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
             -1, 0) == MAP_FAILED)
      st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory for %zu bytes of the model", r.len);
    else
      st = tfcc_model_file_fill(f, r.off, r.off + r.len <= f->size ? r.len : f->size - r.off, err);
  }
  free(f->maps);
  f->maps = NULL;
  f->n_maps = 0;
  f->mapped_bytes = 0;
  drop_maps_at(f);
  return st;
}

bool tfcc_model_file_peek(void *user, size_t off, void *dst, size_t n) {
  tfcc_model_file *f = user; /* the window fields below are written */
  if (!f || f->fd < 0 || !f->n_maps || off > f->size || n > f->size - off) return false;
  size_t lo = 0, hi = f->n_maps; /* the last range starting at or before off (sorted) */
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    if (f->maps[mid].off <= off)
      lo = mid;
    else
      hi = mid;
  }
  const tfcc_mf_range r = f->maps[lo];
  if (off < r.off || off - r.off >= r.len || n > r.len - (off - r.off)) return false;
  if (f->maps_at && f->peek_buf && n <= f->peek_cap) {
    /* the same bytes as the mapping shows, where they lie in the file mapped from */
    const uint64_t at = f->maps_at[lo] + (off - r.off);
    if (at < f->peek_lo || at - f->peek_lo > f->peek_len || n > f->peek_len - (at - f->peek_lo)) {
      const uint64_t a = at / tfcc_page_size() * tfcc_page_size();
      const ssize_t got = read_full(f->map_fd, f->peek_buf, f->peek_cap, (off_t)a, true);
      f->peek_lo = a;
      f->peek_len = got > 0 ? (size_t)got : 0;
      if (at - a > f->peek_len || n > f->peek_len - (at - a)) {
        f->peek_len = 0;
        return read_full(f->fd, dst, n, (off_t)off, true) == (ssize_t)n;
      }
    }
    memcpy(dst, f->peek_buf + (at - f->peek_lo), n);
    return true;
  }
  return read_full(f->fd, dst, n, (off_t)off, true) == (ssize_t)n;
}

/* Reads [off, off + len) of f's open file into dst; the file must still hold those bytes. */
static tfcc_status read_at(const tfcc_model_file *f, uint8_t *dst, size_t off, size_t len,
                           tfcc_err *err) {
  ssize_t r = f->fd < 0 ? -1 : read_full(f->fd, dst, len, (off_t)off, true);
  if (r < 0)
    return tfcc_err_set(err, TFCC_ERR_IO, "read failed at byte %zu: %s", off,
                        f->fd < 0 ? "file closed" : strerror(errno));
  if ((size_t)r < len)
    return tfcc_err_set(err, TFCC_ERR_INTEGRITY,
                        "file shrank while being loaded: %zu of %zu bytes (truncated or "
                        "rewritten in place)" PUBLISH_HINT,
                        off + (size_t)r, f->size);
  return TFCC_OK;
}

tfcc_status tfcc_model_file_read_ends(const tfcc_model_file *f, size_t lo, size_t hi,
                                      tfcc_mf_piece_fn piece, void *user, bool *same,
                                      tfcc_err *err) {
  /* on the stack: a fresh allocation would cost page faults of its own (each 4 KiB page on a
   * VM costs more than reading it) */
  uint8_t buf[16 << 10];
  *same = true;
  if (lo > hi || hi > f->size) return tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "bad file ends");
  size_t j = 0; /* the first mapped range that may reach the current piece (sorted) */
  for (int part = 0; part < 2 && *same; part++) {
    size_t a = part ? hi : 0;
    const size_t b = part ? f->size : lo;
    while (a < b && *same) {
      const size_t step = b - a < sizeof buf ? b - a : sizeof buf;
      const tfcc_status st = read_at(f, buf, a, step, err);
      if (st != TFCC_OK) return st;
      if (piece) piece(user, a, buf, step);
      while (j < f->n_maps && f->maps[j].off + f->maps[j].len <= a) j++;
      for (size_t i = j; i < f->n_maps && f->maps[i].off < a + step && *same; i++) {
        const size_t x = f->maps[i].off > a ? f->maps[i].off : a;
        const size_t e = f->maps[i].off + f->maps[i].len;
        const size_t y = e < a + step ? e : a + step;
        *same = memcmp(buf + (x - a), f->data + x, y - x) == 0;
      }
      a += step;
    }
  }
  return TFCC_OK;
}

/* The holes that lie inside size bytes, trimmed inward to whole pages, sorted and disjoint
 * (anything else drops the list: everything is read). */
static void take_holes(tfcc_model_file *f, const tfcc_mf_range *h, size_t n, size_t min) {
  const size_t pg = tfcc_page_size();
  if (!n || n > SIZE_MAX / sizeof *h || !(f->holes = malloc(n * sizeof *h))) return;
  size_t k = 0, at = 0;
  for (size_t i = 0; i < n; i++) {
    if (h[i].off < at || h[i].len > f->size || h[i].off > f->size - h[i].len) {
      k = 0;
      break;
    }
    const size_t a = (h[i].off + pg - 1) / pg * pg, b = (h[i].off + h[i].len) / pg * pg;
    at = h[i].off + h[i].len;
    if (a + min <= b) f->holes[k++] = (tfcc_mf_range){a, b - a};
  }
  f->n_holes = k;
  if (!k) {
    free(f->holes);
    f->holes = NULL;
  }
}

void tfcc_model_file_trim_tail(const tfcc_model_file *f) {
  const size_t pg = tfcc_page_size();
  const size_t end = (f->size + pg - 1) / pg * pg;
  if (!f->region || f->mapped || f->cow || f->region_size <= end) return;
  uint8_t *a = (uint8_t *)f->region + end, *b = (uint8_t *)f->region + f->region_size;
  if (madvise(a, (size_t)(b - a), MADV_DONTNEED) == 0) tfcc_kernel_copy_split(a, b);
}

tfcc_status tfcc_model_file_fill(tfcc_model_file *f, size_t off, size_t len, tfcc_err *err) {
  uint8_t *dst = (uint8_t *)f->data;
  if (f->holes_trap && mprotect(dst + off, len, PROT_READ | PROT_WRITE) != 0)
    return tfcc_err_set(err, TFCC_ERR_IO, "mprotect failed: %s", strerror(errno));
  return read_at(f, dst + off, off, len, err);
}

static tfcc_status open_impl(const char *path, bool immutable, unsigned flags,
                             const tfcc_mf_range *holes, size_t n_holes, const tfcc_mf_map *maps,
                             size_t n_maps, int map_fd, tfcc_model_file *f, tfcc_err *err) {
  memset(f, 0, sizeof *f);
  f->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (f->fd < 0) return tfcc_err_set(err, TFCC_ERR_IO, "%s", strerror(errno));
  tfcc_status st = TFCC_OK;
  if (fstat(f->fd, &f->st) != 0)
    st = tfcc_err_set(err, TFCC_ERR_IO, "%s", strerror(errno));
  else if (!S_ISREG(f->st.st_mode))
    st = tfcc_err_set(err, TFCC_ERR_IO, "not a regular file");
  else if (f->st.st_size < 8)
    st = tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                      "file is %lld bytes, too small for a TFLite model", (long long)f->st.st_size);
  else if ((unsigned long long)f->st.st_size > (unsigned long long)(SIZE_MAX / 2))
    st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "file of %lld bytes is too large",
                      (long long)f->st.st_size);
  if (st != TFCC_OK) {
    tfcc_model_file_release(f);
    return st;
  }
  f->size = (size_t)f->st.st_size;
  struct timespec t;
  if (clock_gettime(CLOCK_REALTIME, &t) == 0) {
    time_t last =
        f->st.st_mtim.tv_sec > f->st.st_ctim.tv_sec ? f->st.st_mtim.tv_sec : f->st.st_ctim.tv_sec;
    f->settled = t.tv_sec - last >= TFCC_MF_SETTLED_S;
  }
  const char *why = immutable ? "declared immutable" : immutable_reason(f->fd);
  if (!why && (flags & TFCC_MF_COW) && f->settled) {
    void *map = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, f->fd, 0);
    if (map != MAP_FAILED) {
      f->region = map;
      f->region_size = f->size;
      f->data = map;
      f->cow = true;
      f->why_mapped = "";
      if (!(flags & TFCC_MF_KEEP_FD)) tfcc_model_file_close_fd(f);
      return TFCC_OK;
    }
  }
  if (why) {
    /* Zero-copy: the file's pages are the model's bytes. */
    void *map = mmap(NULL, f->size, PROT_READ,
                     MAP_PRIVATE | ((flags & TFCC_MF_POPULATE) ? MAP_POPULATE : 0), f->fd, 0);
    if (map == MAP_FAILED) {
      st = tfcc_err_set(err, TFCC_ERR_IO, "mmap failed: %s", strerror(errno));
    } else {
      f->region = map;
      f->region_size = f->size;
      f->data = map;
      f->mapped = true;
      f->why_mapped = why;
      if (flags & TFCC_MF_CHECKSUM) f->checksum = checksum(f->data, f->size);
    }
  } else {
    f->why_mapped = "";
    take_holes(f, holes, n_holes, n_maps ? tfcc_page_size() : HOLE_MIN);
    const bool whole = !f->holes && !n_maps;
    const bool huge = whole && (flags & TFCC_MF_WHOLE_HUGE) && f->size >= TFCC_PRIVATE_MAP_HUGE;
    f->region = private_alloc(f->size, whole, huge, &f->region_size);
    /* every 2 MiB of it a huge page (the kernel may have had none to give), asked of the
     * copy's own range (not a process-wide count that another thread's memory could move) */
    if (f->region && huge) f->whole_huge = tfcc_huge_pages_whole(f->region, f->region_size);
    if (!f->region) {
      st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory for a private copy of %zu bytes",
                        f->size);
    } else {
      f->data = f->region;
#ifdef MADV_NOHUGEPAGE
      /* what is read lies scattered between the holes (tables, biases): in huge pages each
       * piece would make the kernel zero a whole 2 MiB page (ResNet-50: ~100 MB zeroed for
       * 0.4 MB read) */
      if (f->holes || n_maps) (void)madvise(f->region, f->region_size, MADV_NOHUGEPAGE);
#endif
      map_ranges(f, maps, n_maps, map_fd);
      size_t ng = 0;
      tfcc_mf_range *gaps = merged_gaps(f, &ng);
      if (ng == SIZE_MAX)
        st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
      else
        st = f->holes || f->maps ? read_around_holes(f, gaps, ng, err) : read_copy(f, err);
      free(gaps);
      const char *trap = getenv("TFCC_DEBUG_RELEASE_TRAP");
      if (st == TFCC_OK && f->holes && trap && strcmp(trap, "1") == 0) {
        f->holes_trap = true; /* a read of a byte not read from the file faults */
        for (size_t i = 0; i < f->n_holes; i++)
          (void)mprotect((uint8_t *)f->region + f->holes[i].off, f->holes[i].len, PROT_NONE);
      }
      struct stat now;
      if (st == TFCC_OK && fstat(f->fd, &now) != 0)
        st = tfcc_err_set(err, TFCC_ERR_IO, "%s", strerror(errno));
      else if (st == TFCC_OK && !same_file_state(&f->st, &now))
        st = changed_error(&f->st, &now, "while being read", err);
    }
  }
  if (st != TFCC_OK) {
    tfcc_model_file_release(f);
    return st;
  }
  if (!(flags & TFCC_MF_KEEP_FD)) tfcc_model_file_close_fd(f);
  return TFCC_OK;
}

tfcc_status tfcc_model_file_recheck(tfcc_model_file *f, tfcc_err *err) {
  struct stat now;
  if (f->fd < 0 || fstat(f->fd, &now) != 0 || !same_file_state(&f->st, &now))
    return changed_error(&f->st, f->fd < 0 ? &f->st : &now, "while being loaded", err);
  if (f->mapped) {
    if (checksum(f->data, f->size) != f->checksum)
      return tfcc_err_set(
          err, TFCC_ERR_INTEGRITY,
          "file content changed while being loaded (checksum differs)" PUBLISH_HINT);
    return TFCC_OK;
  }
  /* Unchanged for seconds before it was opened: any write since (however small, however soon)
   * stamps a later mtime and ctime, which the fstat above compared; only a file changed within
   * the clock tick of its last stamp needs the bytes compared. */
  if (f->settled) return TFCC_OK;
  {
    /* The copy cannot change; the file can: read it again, in steps through a small buffer,
     * and compare (memcmp: cheaper than checksumming both). */
    uint8_t *buf = malloc(READ_STEP);
    if (!buf) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
    size_t done = 0;
    tfcc_status st = TFCC_OK;
    while (done < f->size && st == TFCC_OK) {
      size_t step = f->size - done < READ_STEP ? f->size - done : READ_STEP;
      ssize_t r = read_full(f->fd, buf, step, (off_t)done, true);
      if (r != (ssize_t)step)
        st = r < 0 ? tfcc_err_set(err, TFCC_ERR_IO, "read failed: %s", strerror(errno))
                   : tfcc_err_set(
                         err, TFCC_ERR_INTEGRITY,
                         "file changed while being loaded (%zu of %zu bytes left)" PUBLISH_HINT,
                         done + (size_t)r, f->size);
      else if (memcmp(buf, f->data + done, step) != 0)
        st = tfcc_err_set(
            err, TFCC_ERR_INTEGRITY,
            "file content changed while being loaded (bytes %zu..%zu differ)" PUBLISH_HINT, done,
            done + step);
      done += step;
    }
    free(buf);
    return st;
  }
}

void tfcc_model_file_close_fd(tfcc_model_file *f) {
  if (f->fd >= 0) close(f->fd);
  f->fd = -1;
  free(f->holes); /* nothing can be read into them any more */
  f->holes = NULL;
  f->n_holes = 0;
  free(f->maps); /* nor the mapped ranges replaced (mapped_bytes stays) */
  f->maps = NULL;
  f->n_maps = 0;
  drop_maps_at(f);
  f->peek_buf = NULL;
}

void tfcc_model_file_release(tfcc_model_file *f) {
  tfcc_model_file_close_fd(f);
  if (f->region) munmap(f->region, f->region_size);
  f->region = NULL;
  f->data = NULL;
}
