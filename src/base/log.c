#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>

void tfcc_log(const tfcc_logger *lg, tfcc_log_level level, const char *tag, const char *fmt, ...) {
  tfcc_log_level max = lg ? lg->level : TFCC_LOG_WARN;
  if (level > max) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (lg && lg->fn) {
    lg->fn(lg->user, level, tag, msg);
    return;
  }
  static const char *const names[] = {"error", "warn", "info", "debug"};
  fprintf(stderr, "tfcc %s [%s] %s\n", names[level <= TFCC_LOG_DEBUG ? level : 0], tag, msg);
}
