/* Class label files: one label per line, line number (from 0) = class index.
 * Trailing '\r' and '\n' are stripped; empty lines are kept as empty labels. */
#ifndef TFCC_TOOLS_LABELS_H
#define TFCC_TOOLS_LABELS_H

#include <stddef.h>

typedef struct labels {
  char **lines;
  size_t count;
  char *text; /* one buffer holding every line */
} labels;

int labels_load(const char *path, labels *out, char *err, size_t err_size);
/* Label of class index, or NULL when out of range. */
const char *labels_get(const labels *l, long index);
void labels_free(labels *l);

#endif
