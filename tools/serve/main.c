/* tfcc-serve: the HTTP inference server as a program of its own. `tfcc serve ARGS` runs
 * `tfcc-serve ARGS` (tools/cmd_serve_exec.c), so that the tfcc command's other subcommands do
 * not map the server's libraries (libmicrohttpd with GnuTLS, jansson, libyaml: about 2.3 MB
 * resident in every `tfcc bench` or `tfcc run` before). */
#include "commands.h"

int main(int argc, char **argv) { return cmd_serve(argc, argv); }
