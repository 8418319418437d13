/* Small command-line option parser for the tfcc subcommands.
 *
 * Accepts "-o VALUE", "-oVALUE", "--out VALUE", "--out=VALUE", flags ("--json"), positional arguments
 * anywhere, and "--" to end options. */
#ifndef TFCC_TOOLS_ARGS_H
#define TFCC_TOOLS_ARGS_H

#include <stddef.h>
#include <stdint.h>

typedef struct arg_opt {
  int id;                 /* > 0, returned by args_next */
  const char *short_name; /* "-o" or NULL */
  const char *long_name;  /* "--out" or NULL */
  int takes_value;
} arg_opt;

typedef struct args {
  int argc;
  char **argv;
  int pos;             /* next argv index */
  int only_positional; /* after "--" */
  char err[256];
} args;

#define ARGS_END 0 /* no more arguments */
#define ARGS_POSITIONAL (-1)
#define ARGS_ERROR (-2)

/* argv[0] is skipped (the subcommand name). */
void args_init(args *a, int argc, char **argv);

/* Returns an option id (value set for options that take one), ARGS_POSITIONAL (value = the
 * argument), ARGS_END, or ARGS_ERROR (a->err says why: unknown option, missing value).
 * opts ends with an entry whose id is 0. */
int args_next(args *a, const arg_opt *opts, const char **value);

/* Strict number parsing: the whole string must be a number within [min, max].
 * Return 0, or -1 with err set ("--top: 'x' is not an integer"). */
int args_int(const char *opt, const char *s, long min, long max, long *out, char *err, size_t n);
int args_float(const char *opt, const char *s, double *out, char *err, size_t n);

#endif
