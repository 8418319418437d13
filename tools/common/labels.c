#include "labels.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int labels_load(const char *path, labels *out, char *err, size_t n) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, n, "%s: %s", path, strerror(errno));
    return -1;
  }
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    snprintf(err, n, "%s: cannot determine size", path);
    return -1;
  }
  char *text = (char *)malloc((size_t)len + 1);
  if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
    fclose(f);
    free(text);
    snprintf(err, n, "%s: read error", path);
    return -1;
  }
  fclose(f);
  text[len] = '\0';
  size_t lines = 0;
  for (long i = 0; i < len; i++) lines += text[i] == '\n';
  if (len > 0 && text[len - 1] != '\n') lines++; /* last line without newline */
  char **v = (char **)calloc(lines ? lines : 1, sizeof *v);
  if (!v) {
    free(text);
    snprintf(err, n, "%s: out of memory", path);
    return -1;
  }
  size_t k = 0;
  char *p = text, *end = text + len;
  while (p < end && k < lines) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *stop = nl ? nl : end;
    *stop = '\0';
    if (stop > p && stop[-1] == '\r') stop[-1] = '\0';
    v[k++] = p;
    p = stop + 1;
  }
  out->lines = v;
  out->count = k;
  out->text = text;
  return 0;
}

const char *labels_get(const labels *l, long index) {
  if (!l || !l->lines || index < 0 || (size_t)index >= l->count) return NULL;
  return l->lines[index];
}

void labels_free(labels *l) {
  if (!l) return;
  free(l->lines);
  free(l->text);
  memset(l, 0, sizeof *l);
}
