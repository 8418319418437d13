# Writes man pages from the tfcc command's own help text, so they say what --help says:
#   OUT/tfcc.1            from `tfcc --help`, plus environment, exit status, see also
#   OUT/tfcc-<cmd>.1      from `tfcc <cmd> --help` (usage lines -> SYNOPSIS, the rest verbatim)
# cmake -DTFCC=path/to/tfcc -DOUT=dir -DVERSION=x.y.z -DCOMMANDS=run,inspect,... -P TfccMan.cmake
cmake_minimum_required(VERSION 3.18)
foreach(v TFCC OUT VERSION COMMANDS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "TfccMan.cmake: -D${v}= missing")
  endif()
endforeach()
string(REPLACE "," ";" COMMANDS "${COMMANDS}")
file(MAKE_DIRECTORY ${OUT})

# Text -> roff lines kept as they are (inside .nf): backslashes escaped, '-' as \-, and lines
# that start with '.' or '\'' protected.
function(roff_verbatim text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(help_of out)
  execute_process(COMMAND ${TFCC} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "TfccMan.cmake: '${TFCC} ${ARGN} --help' failed (${rc})")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(TIMESTAMP year "%Y")
set(th_tail "\"tfcc ${VERSION}\" \"tfcc manual\"")
help_of(main)
set(see_also "")

# ------------------------------------------------------------ one page per command
foreach(cmd ${COMMANDS})
  # the command's one-line summary from `tfcc --help` ("  run       run a model ...")
  string(REGEX MATCH "\n  ${cmd} +[^\n]*" line "${main}")
  string(REGEX REPLACE "^\n  ${cmd} +" "" summary "${line}")
  help_of(text ${cmd})
  # leading "usage:" block (up to the first blank line) -> SYNOPSIS
  string(FIND "${text}" "\n\n" cut)
  if(cut LESS 0)
    set(usage "${text}")
    set(body "")
  else()
    string(SUBSTRING "${text}" 0 ${cut} usage)
    math(EXPR from "${cut} + 2")
    string(SUBSTRING "${text}" ${from} -1 body)
  endif()
  string(REGEX REPLACE "(^|\n)usage: " "\\1" usage "${usage}")
  string(REGEX REPLACE "(^|\n)       " "\\1" usage "${usage}")
  roff_verbatim("${usage}" usage)
  roff_verbatim("${body}" body)
  roff_verbatim("${summary}" summary)
  string(TOUPPER "${cmd}" CMD)
  file(WRITE ${OUT}/tfcc-${cmd}.1
".TH TFCC-${CMD} 1 \"\" ${th_tail}
.SH NAME
tfcc\\-${cmd} \\- ${summary}
.SH SYNOPSIS
.nf
${usage}
.fi
.SH DESCRIPTION
.nf
${body}.fi
.SH EXIT STATUS
0 on success; 1 on failure, 2 for a bad command line, each failure with one line on standard
error that names the cause.
.SH SEE ALSO
.BR tfcc (1)
")
  if(see_also)
    string(APPEND see_also ",\n")
  endif()
  string(APPEND see_also ".BR tfcc\\-${cmd} (1)")
endforeach()

# ------------------------------------------------------------ tfcc.1
string(REGEX REPLACE "^usage: [^\n]*\n[^\n]*\n\n" "" main_body "${main}")
roff_verbatim("${main_body}" main_body)
file(WRITE ${OUT}/tfcc.1
".TH TFCC 1 \"\" ${th_tail}
.SH NAME
tfcc \\- TensorFlow Lite inference engine: run, inspect, benchmark and serve .tflite models
.SH SYNOPSIS
.B tfcc
.I command
.RI [ options ]
.br
.B tfcc \\-\\-help
|
.B \\-\\-version
.SH DESCRIPTION
tfcc loads a .tflite model, checks the whole file, and runs it on the CPU with kernels chosen
for this CPU at run time. Each command has its own page,
.BR tfcc\\-<command> (1),
and its own
.BR \\-\\-help .
.PP
.nf
${main_body}.fi
.SH ENVIRONMENT
.TP
.B TFCC_ISA
Caps kernel dispatch: generic, sse4, avx2, avx512 (x86\\-64) or neon (aarch64).
A kernel never runs on a CPU without its instruction set.
.TP
.B TFCC_LOG
When set, the library's log lines are printed to standard error.
.TP
.B TFCC_WINOGRAD
off: float32 3x3 convolutions stay on the im2col GEMM.
.SH EXIT STATUS
0 on success; 1 on failure; 2 for a bad command line. A failure prints one line on standard
error, \"tfcc <command>: error: ...\", that names the cause.
.SH FILES
The C library: libtfcc.so, tfcc/tfcc.h; pkg\\-config tfcc; CMake find_package(tfcc).
.SH SEE ALSO
${see_also}
")
