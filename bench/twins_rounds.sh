# Sourced by bench/hybrid_twins.sh and bench/int16x8_twins.sh: their options, the interleaved
# rounds over a network's twins and the table of their medians. Not run on its own.
#
# twins_parse NAME HELP_LAST WITH_BEFORE ARG...
#   The scripts' options: --rounds N, --runs R, --threads T, --zoo DIR, --build DIR,
#   --tfcc PATH, --before PATH (where WITH_BEFORE is 1), -h / --help (prints lines 2 to
#   HELP_LAST of the script), the rest ARCH names. Sets ROUNDS RUNS THREADS ZOO BUILD TFCC
#   BEFORE and appends to ARCHS (the caller sets the defaults); an unknown option exits 2.
# twins_rounds TMP ROUNDS RUNS THREADS TFCC BEFORE SUBJECT ARCH...
#   TMP/<arch>.list holds "label path" lines (one per twin). Each round runs
#   `TFCC bench path -t THREADS -r RUNS --json` on every twin of every network in turn
#   (interleaved, so that load changes hit all alike) and appends its CPU ms per run to
#   TMP/<arch>.<label>; with BEFORE (another tfcc binary, or empty) the SUBJECT twin also runs
#   under it first, into TMP/<arch>.before.
# twins_table TMP ROUNDS THREADS SUBJECT ARCH...
#   The markdown table: per network the median over the rounds of CPU ms per run of float32,
#   ("SUBJECT before",) SUBJECT and int8, and the ratios SUBJECT / float32 and SUBJECT / int8.

twins_parse() {
  local name=$1 help=$2 with_before=$3
  shift 3
  while [ $# -gt 0 ]; do
    case $1 in
      --rounds) ROUNDS=$2; shift 2 ;;
      --runs) RUNS=$2; shift 2 ;;
      --threads) THREADS=$2; shift 2 ;;
      --zoo) ZOO=$2; shift 2 ;;
      --build) BUILD=$2; shift 2 ;;
      --tfcc) TFCC=$2; shift 2 ;;
      --before) [ "$with_before" = 1 ] || break; BEFORE=$2; shift 2 ;;
      -h|--help) sed -n "2,${help}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
      -*) break ;;
      *) ARCHS+=("$1"); shift ;;
    esac
  done
  if [ $# -gt 0 ]; then
    echo "$name: error: unknown option '$1' (see --help)" >&2
    exit 2
  fi
}

twins_cpu_ms() { # TFCC MODEL THREADS RUNS -> CPU ms per run
  "$1" bench "$2" -t "$3" -r "$4" --profile-runs 0 --json 2>/dev/null |
    "$PY" -c 'import json,sys; print(json.load(sys.stdin)["cpu_ms_per_run"])'
}

twins_rounds() {
  local tmp=$1 rounds=$2 runs=$3 threads=$4 tfcc=$5 before=$6 subject=$7 r a label path
  shift 7
  for r in $(seq 1 "$rounds"); do
    for a in "$@"; do
      while read -r label path; do
        if [ -n "$before" ] && [ "$label" = "$subject" ]; then
          twins_cpu_ms "$before" "$path" "$threads" "$runs" >> "$tmp/$a.before"
        fi
        twins_cpu_ms "$tfcc" "$path" "$threads" "$runs" >> "$tmp/$a.$label"
      done < "$tmp/$a.list"
    done
  done
}

twins_table() {
  "$PY" - "$@" <<'PYEOF'
import os, statistics, sys
tmp, rounds, threads, subject, archs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
print("CPU ms per run, median of %s rounds, %s thread(s)" % (rounds, threads))
before = any(os.path.exists(os.path.join(tmp, a + ".before")) for a in archs)
s = subject
print("| network | float32 | %s%s | int8 | %s / float32 | %s / int8 |"
      % (s + " before | " if before else "", s, s, s))
print("|---|---|---|---|---|---|" + ("---|" if before else ""))
fmt = lambda v: "%.2f" % v if v is not None else "-"
for a in archs:
    med = {}
    for label in ("float32", "before", subject, "int8"):
        p = os.path.join(tmp, "%s.%s" % (a, label))
        if os.path.exists(p):
            med[label] = statistics.median(float(x) for x in open(p).read().split())
    f, h, i = med.get("float32"), med.get(subject), med.get("int8")
    print("| %s | %s | %s%s | %s | %s | %s |" % (a, fmt(f),
          fmt(med.get("before")) + " | " if before else "", fmt(h), fmt(i),
          "%.2f" % (h / f) if f and h else "-", "%.2f" % (h / i) if i and h else "-"))
PYEOF
}
