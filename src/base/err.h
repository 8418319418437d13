/* Error reporting inside the library: a status code plus a message that names the cause.
 * Every internal fallible function takes a tfcc_err* and returns a tfcc_status. */
#ifndef TFCC_BASE_ERR_H
#define TFCC_BASE_ERR_H

#include <stdarg.h>

#include "tfcc/tfcc.h"

#define TFCC_ERR_MSG_MAX 1024

typedef struct tfcc_err {
  tfcc_status code;
  char msg[TFCC_ERR_MSG_MAX];
} tfcc_err;

#if defined(__GNUC__)
#define TFCC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TFCC_PRINTF(a, b)
#endif

/* Sets err (if not NULL) to code and the formatted message; returns code. */
tfcc_status tfcc_err_set(tfcc_err *err, tfcc_status code, const char *fmt, ...) TFCC_PRINTF(3, 4);
/* Prefixes the existing message: "<prefix>: <old message>". Returns err->code. */
tfcc_status tfcc_err_prefix(tfcc_err *err, const char *fmt, ...) TFCC_PRINTF(2, 3);
void tfcc_err_clear(tfcc_err *err);

/* Per-thread message behind tfcc_last_error(). */
void tfcc_last_error_set(const char *msg);

#endif
