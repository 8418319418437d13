/* tfcc serve: runs tfcc-serve (tools/serve/), the server program installed next to tfcc, with
 * the same arguments in the same process (exec: same pid, signals and exit status). */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common/cli.h"

#define CMD "serve"
#define SERVE_PROGRAM "tfcc-serve"

/* DIR/tfcc-serve where DIR holds the running tfcc (/proc/self/exe); "" if unknown. */
static void serve_path_next_to_self(char *out, size_t size) {
  out[0] = '\0';
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return;
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (!slash) return;
  slash[1] = '\0';
  if (strlen(self) + sizeof SERVE_PROGRAM > size) return;
  strcpy(out, self);
  strcat(out, SERVE_PROGRAM);
}

int cmd_serve(int argc, char **argv) {
  (void)argc; /* argv is main's, NULL-terminated; argv[0] is "serve" */
  char path[PATH_MAX];
  serve_path_next_to_self(path, sizeof path);
  if (path[0]) {
    argv[0] = path;
    execv(path, argv);
    if (errno != ENOENT)
      return cli_error(CMD, CLI_EXIT_FAIL, "cannot run %s: %s", path, strerror(errno));
  }
  argv[0] = (char *)SERVE_PROGRAM;
  execvp(SERVE_PROGRAM, argv);
  return cli_error(CMD, CLI_EXIT_FAIL, "cannot run %s (looked next to tfcc%s%s, then in PATH): %s",
                   SERVE_PROGRAM, path[0] ? ": " : "", path, strerror(errno));
}
