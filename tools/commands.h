/* The tfcc subcommands. Each takes argv with argv[0] = the subcommand name and returns the
 * process exit code. */
#ifndef TFCC_TOOLS_COMMANDS_H
#define TFCC_TOOLS_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_cpu_info(int argc, char **argv);
int cmd_gpu_info(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_watermark(int argc, char **argv);
int cmd_encrypt(int argc, char **argv);
int cmd_decrypt(int argc, char **argv);

#endif
