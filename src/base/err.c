#include "base/err.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char g_last_error[TFCC_ERR_MSG_MAX];

tfcc_status tfcc_err_set(tfcc_err *err, tfcc_status code, const char *fmt, ...) {
  if (!err) return code;
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return code;
}

tfcc_status tfcc_err_prefix(tfcc_err *err, const char *fmt, ...) {
  if (!err) return TFCC_ERR_RUNTIME;
  char prefix[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  char old[TFCC_ERR_MSG_MAX];
  memcpy(old, err->msg, sizeof old);
  old[sizeof old - 1] = 0;
  snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
  return err->code;
}

void tfcc_err_clear(tfcc_err *err) {
  if (!err) return;
  err->code = TFCC_OK;
  err->msg[0] = 0;
}

void tfcc_last_error_set(const char *msg) {
  snprintf(g_last_error, sizeof g_last_error, "%s", msg ? msg : "");
}

const char *tfcc_last_error(void) { return g_last_error; }

const char *tfcc_status_str(tfcc_status s) {
  static const char *const texts[] = {
#define TFCC_STATUS_TEXT_(name, text) text,
      TFCC_STATUS_LIST(TFCC_STATUS_TEXT_)
#undef TFCC_STATUS_TEXT_
  };
  if ((unsigned)s >= sizeof texts / sizeof texts[0]) return "unknown status";
  return texts[s];
}
