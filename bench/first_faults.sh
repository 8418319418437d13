#!/bin/bash
# The first run's page faults by mapping (issue 18 point 5): runs build/bench/first_run under
# `perf record -e exceptions:page_fault_user` and counts the faults between its MARK and MARKEND
# by the mapping they hit (/proc/self/maps written right before the first run). Needs perf with
# tracepoints (perf_event_paranoid <= 1 or root).
#
#   bench/first_faults.sh [--bin build/bench/first_run] MODEL [first_run flags: --cache PATH
#       --threads N --prefault N]
#
# Prints first_run's JSON line, then "count mapping perms range" lines, most first. Mappings:
# the weights cache file (its 2 MiB folios: one fault per span), [anon] 2 MiB-aligned regions
# (the arena: one fault per huge page, or per 4 KiB of a part not on a huge page), [stack],
# libtfcc's text (code run the first time).
set -e
BIN=build/bench/first_run
if [ "$1" = "--bin" ]; then BIN=$2; shift 2; fi
[ $# -ge 1 ] || { sed -n '2,13p' "$0"; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
perf record -q -k CLOCK_MONOTONIC -e exceptions:page_fault_user -o "$T/perf.data" \
  "$BIN" "$@" --maps "$T/maps" 2>"$T/mark"
perf script -i "$T/perf.data" -F time,trace 2>/dev/null >"$T/faults"
/usr/bin/python3 - "$T/maps" "$T/faults" "$T/mark" <<'EOF'
import collections, re, sys
maps = []
for l in open(sys.argv[1]):
    p = l.split()
    a, b = (int(x, 16) for x in p[0].split("-"))
    maps.append((a, b, p[1], p[5] if len(p) > 5 else "[anon]"))
lo = hi = None
for l in open(sys.argv[3]):
    if l.startswith("MARK "): lo = float(l.split()[1])
    elif l.startswith("MARKEND "): hi = float(l.split()[1])
    else: sys.stderr.write(l)
n = collections.Counter()
for l in open(sys.argv[2]):
    m = re.search(r"(\d+\.\d+):\s+address=(0x[0-9a-f]+)", l)
    if not m or lo is None or hi is None or not lo <= float(m.group(1)) <= hi: continue
    ad = int(m.group(2), 16)
    k = next(("%s %s %x-%x" % (nm, pr, a, b) for a, b, pr, nm in maps if a <= ad < b), "?")
    n[k] += 1
for k, v in n.most_common(): print(v, k)
EOF
