/* Logging: levels, grep-able tags, and the runtime's callback. Never on the run() path. */
#ifndef TFCC_BASE_LOG_H
#define TFCC_BASE_LOG_H

#include "base/err.h"
#include "tfcc/tfcc.h"

typedef struct tfcc_logger {
  tfcc_log_level level;
  tfcc_log_fn fn; /* NULL: stderr */
  void *user;
} tfcc_logger;

/* Tags users grep for. */
#define TFCC_TAG_KERNEL_FALLBACK "KERNEL_FALLBACK"
#define TFCC_TAG_MEM_ALLOC_FAIL "MEM_ALLOC_FAIL"
#define TFCC_TAG_HOT_UPDATE_DELAY "HOT_UPDATE_DELAY"
#define TFCC_TAG_MODEL_INVALID "MODEL_INVALID"
#define TFCC_TAG_MODEL_LOAD "MODEL_LOAD"
#define TFCC_TAG_SESSION "SESSION"

void tfcc_log(const tfcc_logger *lg, tfcc_log_level level, const char *tag, const char *fmt, ...)
    TFCC_PRINTF(4, 5);

#endif
