#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void args_init(args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->argc = argc;
  a->argv = argv;
  a->pos = 1;
}

int args_next(args *a, const arg_opt *opts, const char **value) {
  *value = NULL;
  if (a->pos >= a->argc) return ARGS_END;
  const char *arg = a->argv[a->pos++];
  if (a->only_positional || arg[0] != '-' || arg[1] == '\0') {
    *value = arg;
    return ARGS_POSITIONAL;
  }
  if (strcmp(arg, "--") == 0) {
    a->only_positional = 1;
    return args_next(a, opts, value);
  }
  /* "--name=value" */
  const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
  size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
  for (const arg_opt *o = opts; o->id != 0; o++) {
    int match = (o->short_name && strlen(o->short_name) == name_len &&
                 strncmp(o->short_name, arg, name_len) == 0) ||
                (o->long_name && strlen(o->long_name) == name_len &&
                 strncmp(o->long_name, arg, name_len) == 0);
    if (!match) continue;
    if (!o->takes_value) {
      if (eq) {
        snprintf(a->err, sizeof a->err, "option '%.*s' takes no value", (int)name_len, arg);
        return ARGS_ERROR;
      }
      return o->id;
    }
    if (eq) {
      *value = eq + 1;
    } else if (a->pos < a->argc) {
      *value = a->argv[a->pos++];
    } else {
      snprintf(a->err, sizeof a->err, "option '%s' needs a value", arg);
      return ARGS_ERROR;
    }
    return o->id;
  }
  /* "-k5": a short option with its value attached */
  if (arg[1] != '-' && arg[2] != '\0') {
    for (const arg_opt *o = opts; o->id != 0; o++) {
      if (o->takes_value && o->short_name && strlen(o->short_name) == 2 &&
          strncmp(o->short_name, arg, 2) == 0) {
        *value = arg + 2;
        return o->id;
      }
    }
  }
  snprintf(a->err, sizeof a->err, "unknown option '%.*s' (see --help)", (int)name_len, arg);
  return ARGS_ERROR;
}

int args_int(const char *opt, const char *s, long min, long max, long *out, char *err, size_t n) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || !end || *end != '\0' || errno == ERANGE) {
    snprintf(err, n, "%s: '%s' is not an integer", opt, s);
    return -1;
  }
  if (v < min || v > max) {
    snprintf(err, n, "%s: %ld is out of range [%ld, %ld]", opt, v, min, max);
    return -1;
  }
  *out = v;
  return 0;
}

int args_float(const char *opt, const char *s, double *out, char *err, size_t n) {
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || !end || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    snprintf(err, n, "%s: '%s' is not a finite number", opt, s);
    return -1;
  }
  *out = v;
  return 0;
}
