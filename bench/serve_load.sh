#!/usr/bin/env bash
# Load test of `tfcc serve` on loopback with wrk (Debian package `wrk`): KServe v2 infer
# requests with binary tensors (zero-copy input, binary output), at several concurrency
# levels. Prints throughput, p50/p90/p99 per level, the server's own compute time (mean
# tfcc_session_run from /metrics), the server's CPU time per request (all its threads, from
# /proc), the serving overhead at concurrency 1 against `tfcc bench` measured in the same
# minutes (below) and the transport floor at concurrency 1 (the same request to a model the
# server does not have: body read, routed, 404, no inference; these 404s show in the final
# "non-200 by code" line), failed requests, and RSS growth after warm-up.
#
#   bench/serve_load.sh [--model FILE.tflite] [--levels "1 8 64"] [--seconds 10]
#                       [--sessions N] [--threads N] [--reload | --hot-reload] [--warmup 10]
#                       [--server-side] [--client-cpus LIST] [--server-cpus LIST] [--client-setsid]
#                       [--c1-rounds N] [--bench-seconds S] [--swap-every S] [--weights-cache DIR]
#
# Serving overhead at concurrency 1: `tfcc bench` on the same model with the server's session
# settings (runtime threads as logged by the server, same CPUs as the server, TFCC_ISA from the
# environment like the server) runs for --bench-seconds (default 2) immediately before the
# c=1 level and again right after it; with --c1-rounds N (default 2) the c=1 level is N rounds
# of seconds/N, each between two bench runs (bench, c=1, bench, c=1, ..., bench). Per round it
# prints client p50/p99, the bench p50 before and after, the server's compute (p50 with
# --server-side, else the mean), overhead = client p50 - mean(bench before, bench after), and
# the server's CPU time per request (all threads, /proc) minus bench's CPU time per run; then
# the medians over the rounds. The c=1 row of the table is the median of the rounds.
#
# How latency is measured: wrk (closed loop: each of c connections sends its next request
# when the previous answer arrives) on the same machine, so the client competes with the
# server for the CPUs. Each level prints the load average at its start (other processes).
# --server-side also logs every request (access log) and prints the server's own p50/p99 of
# the queue wait, the compute (tfcc_session_run), the total and the own time (total - queue -
# compute: HTTP, parsing, encoding) per level, which the client's scheduling does not touch. --client-cpus / --server-cpus pin wrk / the server (taskset);
# --client-setsid starts wrk in its own session, i.e. its own scheduler autogroup when the
# kernel has sched_autogroup_enabled, so wrk and the server get separate CPU shares.
#
# RSS is compared between the end of the warm-up (--warmup seconds at the highest
# concurrency: connection threads, malloc arenas, body buffers) and the end of the run, and,
# with the connections open, between 1/6 of the highest level's run and its last second.
#
# --reload publishes a new model version (repository layout, write-then-rename) in the
# middle of the highest level and reports the failed requests (target: 0): a whole-model
# swap. --hot-reload instead publishes new weights (a copy of the model) over version 1: the
# server applies it as a hot weight update (tfcc_model_update_weights, MODEL_UPDATED).
# --threads 0 (default) lets the server pick CPUs / sessions runtime threads; the tfcc bench
# comparison uses the count the server logged.
# --swap-every S replaces the served file (repo/m/1/model.tflite: a copy of the model written
# beside it, then renamed over it, as a deploy does) every S seconds during the highest level;
# the server applies each as a hot weight update. It reports the p99 of the server's own total
# time (access log) of the requests overlapping a swap window (from the update's start,
# MODEL_UPDATED's time - prepare_ms - 50 ms, to 100 ms after it) against the other requests
# (steady state), and the ratio (issue 18 point 6: within 1.5x). --weights-cache DIR serves with
# `tfcc serve --weights-cache DIR` (each update takes its packed blocks from the cache, written by
# the first load: the same bytes, as a replica whose peer wrote the cache). Run it with and
# without the cache in interleaved rounds; the medians are bench/README.md's.
# Without --model it builds modelgen's mobilenet_v1_025_128_float.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TFCC=${TFCC:-$ROOT/build/tools/tfcc}
MODEL="" LEVELS="1 8 64" SECONDS_PER=10 SESSIONS=2 THREADS=0 RELOAD=0 WARMUP=10 SERVER_SIDE=0
CLIENT_CPUS="" SERVER_CPUS="" CLIENT_SETSID=0 C1_ROUNDS=2 BENCH_SECONDS=2 SWAP_EVERY=0 WCACHE=""
while [ $# -gt 0 ]; do
  case $1 in
    --model) MODEL=$2; shift 2 ;;
    --levels) LEVELS=$2; shift 2 ;;
    --seconds) SECONDS_PER=$2; shift 2 ;;
    --sessions) SESSIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --reload) RELOAD=1; shift ;;
    --hot-reload) RELOAD=2; shift ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --server-side) SERVER_SIDE=1; shift ;;
    --client-cpus) CLIENT_CPUS=$2; shift 2 ;;
    --server-cpus) SERVER_CPUS=$2; shift 2 ;;
    --client-setsid) CLIENT_SETSID=1; shift ;;
    --c1-rounds) C1_ROUNDS=$2; shift 2 ;;
    --bench-seconds) BENCH_SECONDS=$2; shift 2 ;;
    --swap-every) SWAP_EVERY=$2; SERVER_SIDE=1; shift 2 ;;
    --weights-cache) WCACHE=$2; shift 2 ;;
    *) echo "usage: $0 [--model F] [--levels \"1 8 64\"] [--seconds S] [--sessions N] [--threads N] [--reload|--hot-reload] [--warmup S] [--server-side] [--client-cpus L] [--server-cpus L] [--client-setsid] [--c1-rounds N] [--bench-seconds S]" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_serve_load.XXXXXX")
SERVER=""
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
if [ -z "$MODEL" ]; then
  python3 "$ROOT/modelgen/build.py" --out "$WORK" --net mobilenet_v1_025_128_float --quiet
  MODEL=$WORK/mobilenet_v1_025_128_float.tflite
fi
mkdir -p "$WORK/repo/m/1"
cp "$MODEL" "$WORK/repo/m/1/model.tflite"
SERVER_PREFIX=() CLIENT_PREFIX=() ACCESS=(--no-access-log) CACHE_ARGS=()
[ -z "$WCACHE" ] || { mkdir -p "$WCACHE"; CACHE_ARGS=(--weights-cache "$WCACHE"); }
[ -z "$SERVER_CPUS" ] || SERVER_PREFIX=(taskset -c "$SERVER_CPUS")
[ -z "$CLIENT_CPUS" ] || CLIENT_PREFIX=(taskset -c "$CLIENT_CPUS")
[ "$CLIENT_SETSID" = 0 ] || CLIENT_PREFIX=(setsid -w "${CLIENT_PREFIX[@]}")
[ "$SERVER_SIDE" = 0 ] || ACCESS=()
"${SERVER_PREFIX[@]}" "$TFCC" serve --model-repository "$WORK/repo" --port 0 --port-file "$WORK/port" --sessions "$SESSIONS" \
  --threads "$THREADS" --poll-ms 200 "${ACCESS[@]}" "${CACHE_ARGS[@]}" --max-queue 4096 >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do [ -s "$WORK/port" ] && break; sleep 0.1; done
PORT=$(cat "$WORK/port")
RT_THREADS=$(sed -n 's/.* RUNTIME \([0-9]*\) thread.*/\1/p' "$WORK/server.log" | head -1)
URL=http://127.0.0.1:$PORT
# one request body: JSON header + binary input (first input, seeded random data)
python3 - "$URL" "$WORK" <<'PY'
import json, random, struct, sys, urllib.request
url, work = sys.argv[1], sys.argv[2]
meta = json.load(urllib.request.urlopen(url + '/v2/models/m'))
fmt = {'FP32': 'f', 'INT8': 'b', 'UINT8': 'B', 'INT32': 'i', 'INT64': 'q', 'FP16': 'e', 'INT16': 'h'}
rng = random.Random(1)
inputs, chunks = [], []
for io in meta['inputs']:
    shape = [d if d > 0 else 1 for d in io['shape']]
    n = 1
    for d in shape: n *= d
    f = fmt[io['datatype']]
    if f in 'fe': vals = [rng.uniform(-1, 1) for _ in range(n)]
    else:
        bits = struct.calcsize(f) * 8
        vals = [rng.randint(0, 127) for _ in range(n)]
    raw = struct.pack('<%d%s' % (n, f), *vals)
    inputs.append({'name': io['name'], 'datatype': io['datatype'], 'shape': shape,
                   'parameters': {'binary_data_size': len(raw)}})
    chunks.append(raw)
h = json.dumps({'inputs': inputs, 'parameters': {'binary_data_output': True}}).encode()
open(work + '/body.bin', 'wb').write(h + b''.join(chunks))
open(work + '/hlen', 'w').write(str(len(h)))
PY
export BODY=$WORK/body.bin HLEN=$(cat "$WORK/hlen") PATH_INFER=/v2/models/m/infer
CLK_TCK=$(getconf CLK_TCK)
server_cpu_ms() { awk -v t="$CLK_TCK" '{printf "%.1f", ($14 + $15) * 1000 / t}' "/proc/$SERVER/stat"; }
metric() { curl -s "$URL/metrics" | awk -v k="$1" '$1 == k {print $2}'; }
compute_mean_ms() { # mean tfcc_session_run time since the last call
  local s c; s=$(metric 'tfcc_request_compute_seconds_sum{model="m",version="'"$1"'"}'); c=$(metric 'tfcc_request_compute_seconds_count{model="m",version="'"$1"'"}')
  awk -v s="${s:-0}" -v c="${c:-0}" -v ps="$PREV_S" -v pc="$PREV_C" 'BEGIN { if (c > pc) printf "%.3f", (s - ps) * 1000 / (c - pc); else print "n/a" }'
  PREV_S=${s:-0}; PREV_C=${c:-0}
}
PREV_S=0 PREV_C=0
echo "model: $MODEL"
echo "server: sessions=$SESSIONS threads=$THREADS (runtime threads ${RT_THREADS:-?}), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "client: wrk closed loop${CLIENT_CPUS:+, pinned to CPUs $CLIENT_CPUS}${SERVER_CPUS:+, server pinned to CPUs $SERVER_CPUS}$([ "$CLIENT_SETSID" = 0 ] || echo ', own session (autogroup)')"
# server-side percentiles (queue, compute, total ms) of the ACCESS lines after line $1 of the log
server_side() {
  tail -n +"$(( $1 + 1 ))" "$WORK/server.log" | grep ' ACCESS ' | grep ' 200 ' |
    sed -n 's/.*queue_ms=\([0-9.]*\) compute_ms=\([0-9.]*\) total_ms=\([0-9.]*\).*/\1 \2 \3/p' |
    awk '{print $1, $2, $3, $3 - $1 - $2}' >"$WORK/ss"
  local out="" col name
  for col in 1 2 3 4; do
    name=$(echo "queue compute total own" | cut -d' ' -f$col)
    out="$out $name $(cut -d' ' -f$col "$WORK/ss" | sort -g | awk '{v[NR]=$1} END {if (NR) { a = int(NR*0.5)+1; b = int(NR*0.99)+1; if (a > NR) a = NR; if (b > NR) b = NR; printf "p50 %.3f p99 %.3f", v[a], v[b] } else printf "n/a"}');"
  done
  echo "  server side ($(wc -l <"$WORK/ss") requests, ms):$out"
  [ -z "${2:-}" ] || return 0 # c=1 in rounds: the bench runs between them leave empty windows
  # answers per 100 ms window (access log time stamps): in a closed loop with a FIFO queue the
  # queue wait is (requests ahead) / throughput, so its tail follows the slowest windows
  tail -n +"$(( $1 + 1 ))" "$WORK/server.log" | grep ' ACCESS ' | grep ' 200 ' |
    sed -n 's/^[0-9-]*T\([0-9]*\):\([0-9]*\):\([0-9]*\)\.\([0-9]\).*/\1 \2 \3 \4/p' |
    awk '{w = (($1 * 60 + $2) * 60 + $3) * 10 + $4; n[w]++; if (!lo || w < lo) lo = w; if (w > hi) hi = w}
         END {for (w = lo + 1; w < hi; w++) print (w in n ? n[w] : 0) * 10}' | sort -n |
    awk '{c[NR] = $1} END {if (NR < 3) exit; printf "  answers/s per 100 ms window: min %d, p1 %d, p10 %d, p50 %d (%d windows)\n", c[1], c[int(NR / 100) + 1], c[int(NR / 10) + 1], c[int(NR / 2) + 1], NR}' 2>/dev/null || true
}
# `tfcc bench` p50 on the same model with the server's session settings: the runtime threads the
# server logged, the server's CPUs (taskset), TFCC_ISA from the environment like the server
BT=${RT_THREADS:-$THREADS}
HAVE_BENCH=0
"$TFCC" bench --help >/dev/null 2>&1 && HAVE_BENCH=1
bench_p50() { # "p50_ms cpu_ms_per_run"
  "${SERVER_PREFIX[@]}" "$TFCC" bench "$MODEL" --threads "$BT" --duration "$BENCH_SECONDS" --profile-runs 0 --json 2>/dev/null |
    python3 -c 'import json,sys; d = json.load(sys.stdin); print("%.3f %.3f" % (d["latency_ms"]["p50"], d["cpu_ms_per_run"]))' 2>/dev/null || echo n/a n/a
}
compute_sums() { # "sum_seconds count" of tfcc_request_compute_seconds for version $1
  local s c; s=$(metric 'tfcc_request_compute_seconds_sum{model="m",version="'"$1"'"}'); c=$(metric 'tfcc_request_compute_seconds_count{model="m",version="'"$1"'"}')
  echo "${s:-0} ${c:-0}"
}
# p50 of the access log's compute_ms and total_ms (200 answers) after line $1 of the log
log_p50s() {
  tail -n +"$(( $1 + 1 ))" "$WORK/server.log" | grep ' ACCESS ' | grep ' 200 ' |
    sed -n 's/.*compute_ms=\([0-9.]*\) total_ms=\([0-9.]*\).*/\1 \2/p' |
    python3 -c 'import sys
r = [l.split() for l in sys.stdin]
c = sorted(float(x[0]) for x in r); t = sorted(float(x[1]) for x in r)
print("%.3f %.3f" % (c[len(c) // 2], t[len(t) // 2]) if r else "n/a n/a")'
}
# The c=1 level as C1_ROUNDS rounds between tfcc bench runs (bench, c=1, bench, ...). Writes one
# line per round to $WORK/c1 and sets `line` to a RESULT line of the medians over the rounds.
c1_rounds() {
  local secs=$(( SECONDS_PER / C1_ROUNDS )) b_prev b_next r l rl sums0 sums1 cmean p50s cpu0 cpu1
  [ "$secs" -ge 1 ] || secs=1
  : >"$WORK/c1"
  b_prev=$(bench_p50)
  for r in $(seq 1 "$C1_ROUNDS"); do
    rl=$(wc -l <"$WORK/server.log")
    sums0=$(compute_sums 1)
    cpu0=$(server_cpu_ms)
    l=$("${CLIENT_PREFIX[@]}" wrk -t1 -c1 -d"${secs}s" --timeout 10s -s "$HERE/serve_request.lua" "$URL" | grep RESULT)
    cpu1=$(server_cpu_ms)
    sums1=$(compute_sums 1)
    cmean=$(awk -v a="$sums0" -v b="$sums1" 'BEGIN { split(a, x, " "); split(b, y, " "); if (y[2] > x[2]) printf "%.3f", (y[1] - x[1]) * 1000 / (y[2] - x[2]); else print "n/a" }')
    p50s="n/a n/a"
    [ "$SERVER_SIDE" = 0 ] || p50s=$(log_p50s "$rl")
    b_next=$(bench_p50)
    # fields: round, bench p50 before / after, compute mean, compute p50, total p50, load, then
    # key=value: wrk's RESULT, server CPU ms in the round, bench CPU ms per run before / after
    echo "$r ${b_prev% *} ${b_next% *} $cmean $p50s $(cut -d' ' -f1 /proc/loadavg) $(echo "$l" | sed 's/^RESULT //')" \
      "srv_cpu_ms=$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN{printf "%.1f", b - a}') bench_cpu_bef=${b_prev#* } bench_cpu_aft=${b_next#* }" >>"$WORK/c1"
    b_prev=$b_next
  done
  line=$(python3 - "$WORK/c1" "$secs" <<'PY2'
import statistics, sys
rows = []
for l in open(sys.argv[1]):
    f = l.split()
    rows.append(dict(kv.split('=') for kv in f[7:]))
med = lambda k: statistics.median(float(r[k]) for r in rows)
tot = lambda k: sum(int(r[k]) for r in rows)
print("RESULT requests=%d errors_http=%d errors_socket=%d rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f" % (
    tot('requests'), tot('errors_http'), tot('errors_socket'), tot('requests') / (len(rows) * float(sys.argv[2])),
    med('p50_ms'), med('p90_ms'), med('p99_ms'), max(float(r['max_ms']) for r in rows)))
PY2
)
}
# Per round and median: client p50/p99, bench p50 before/after, server compute, overhead.
c1_report() {
  python3 - "$WORK/c1" "$BT" <<'PY2'
import statistics, sys
print("  c=1 against `tfcc bench` in the same minutes (same model, --threads %s, same CPUs as the server):" % sys.argv[2])
print("  %-6s %8s %8s %9s %9s %10s %10s %10s %9s %11s %13s %12s %14s" % ("round", "load", "p50_ms", "p99_ms", "bench_bef", "bench_aft",
      "compute", "cmp_p50", "total_p50", "overhead", "compute-bench", "srv_cpu/req", "cpu-bench_cpu"))
num = lambda v: None if v == 'n/a' else float(v)
rows = []
for l in open(sys.argv[1]):
    f = l.split()
    kv = dict(x.split('=') for x in f[7:])
    r = dict(round=f[0], bb=num(f[1]), ba=num(f[2]), cmean=num(f[3]), cp50=num(f[4]), tp50=num(f[5]), load=f[6],
             p50=float(kv['p50_ms']), p99=float(kv['p99_ms']))
    b = [x for x in (r['bb'], r['ba']) if x is not None]
    r['bench'] = sum(b) / len(b) if b else None
    r['over'] = r['p50'] - r['bench'] if b else None
    c = r['cp50'] if r['cp50'] is not None else r['cmean']
    r['cvb'] = c - r['bench'] if b and c is not None else None
    n = int(kv['requests'])
    r['scpu'] = float(kv['srv_cpu_ms']) / n if n else None
    bc = [num(kv[k]) for k in ('bench_cpu_bef', 'bench_cpu_aft') if num(kv[k]) is not None]
    r['ocpu'] = r['scpu'] - sum(bc) / len(bc) if bc and r['scpu'] is not None else None
    rows.append(r)
f3 = lambda v: 'n/a' if v is None else '%.3f' % v
for r in rows:
    print("  %-6s %8s %8.3f %9.3f %9s %10s %10s %10s %9s %11s %13s %12s %14s" % (r['round'], r['load'], r['p50'], r['p99'], f3(r['bb']),
          f3(r['ba']), f3(r['cmean']), f3(r['cp50']), f3(r['tp50']), f3(r['over']), f3(r['cvb']), f3(r['scpu']), f3(r['ocpu'])))
def med(k):
    v = [r[k] for r in rows if r[k] is not None]
    return statistics.median(v) if v else None
print("  %-6s %8s %8.3f %9.3f %9s %10s %10s %10s %9s %11s %13s %12s %14s" % ("median", "", med('p50'), med('p99'), f3(med('bb')), f3(med('ba')),
      f3(med('cmean')), f3(med('cp50')), f3(med('tp50')), f3(med('over')), f3(med('cvb')), f3(med('scpu')), f3(med('ocpu'))))
o = med('over')
print("  (compute = mean tfcc_session_run from /metrics, cmp_p50 / total_p50 = the server's compute / total p50 from the access log")
print("   with --server-side; overhead = client p50 - mean(bench before, after); compute-bench = server compute p50 (else mean) -")
print("   bench p50; srv_cpu/req = the server's CPU time (all threads, /proc) per request of the round, cpu-bench_cpu = that")
print("   minus tfcc bench's cpu_ms_per_run: the server's own CPU cost per request, HTTP and kernel included; other processes")
print("   still move it through shared caches and cores)")
if o is not None:
    print("  serving overhead at concurrency 1 (median of rounds): %.3f ms (target < 0.3)" % o)
PY2
}
max_level=$(echo $LEVELS | tr ' ' '\n' | sort -n | tail -1)
# warm-up at the highest concurrency (connection threads, buffers), then RSS is the baseline
"${CLIENT_PREFIX[@]}" wrk -t1 -c"$max_level" -d"${WARMUP}s" -s "$HERE/serve_request.lua" "$URL" >/dev/null
compute_mean_ms 1 >/dev/null
rss0=$(metric process_resident_memory_bytes)
printf '%-6s %10s %9s %9s %9s %7s %9s %8s %12s %s\n' conc req/s p50_ms p90_ms p99_ms p99/p50 compute_ms failed rss_MiB loadavg
for c in $LEVELS; do
  t=$(( c < 2 ? 1 : 2 ))
  pub=""
  if [ "$RELOAD" = 1 ] && [ "$c" = "$max_level" ]; then
    ( sleep $(( SECONDS_PER / 2 )); mkdir -p "$WORK/repo/m/2"; cp "$MODEL" "$WORK/repo/m/.new"; mv "$WORK/repo/m/.new" "$WORK/repo/m/2/model.tflite" ) &
    pub=$!
  elif [ "$RELOAD" = 2 ] && [ "$c" = "$max_level" ]; then
    ( sleep $(( SECONDS_PER / 2 )); cp "$MODEL" "$WORK/repo/m/.new"; mv "$WORK/repo/m/.new" "$WORK/repo/m/1/model.tflite" ) &
    pub=$!
  fi
  if [ "$SWAP_EVERY" != 0 ] && [ "$c" = "$max_level" ]; then
    ( end=$(( $(date +%s) + SECONDS_PER - 1 ))
      while sleep "$SWAP_EVERY" && [ "$(date +%s)" -lt "$end" ]; do
        cp "$MODEL" "$WORK/repo/m/.new" && mv "$WORK/repo/m/.new" "$WORK/repo/m/1/model.tflite"
      done ) &
    pub=$!
  fi
  rss_in=""
  if [ "$c" = "$max_level" ]; then
    ( sleep $(( SECONDS_PER / 6 > 0 ? SECONDS_PER / 6 : 1 )); metric process_resident_memory_bytes >"$WORK/rss_a"
      sleep $(( SECONDS_PER - SECONDS_PER / 6 - 1 > 0 ? SECONDS_PER - SECONDS_PER / 6 - 1 : 1 ))
      metric process_resident_memory_bytes >"$WORK/rss_b" ) &
    rss_in=$!
  fi
  load_at=$(cut -d' ' -f1 /proc/loadavg)
  log_at=$(wc -l <"$WORK/server.log")
  cpu_at=$(server_cpu_ms)
  if [ "$c" = 1 ] && [ "$HAVE_BENCH" = 1 ]; then
    c1_rounds
  else
    line=$("${CLIENT_PREFIX[@]}" wrk -t$t -c"$c" -d"${SECONDS_PER}s" --timeout 10s -s "$HERE/serve_request.lua" "$URL" | grep RESULT)
  fi
  cpu_end=$(server_cpu_ms)
  [ -z "$pub" ] || wait "$pub"
  [ -z "$rss_in" ] || wait "$rss_in"
  eval "$(echo "$line" | sed 's/^RESULT //')"
  v=1; [ "$RELOAD" = 1 ] && [ "$c" = "$max_level" ] && v=2
  cm=$(compute_mean_ms $v)
  rss=$(metric process_resident_memory_bytes)
  printf '%-6s %10s %9s %9s %9s %7s %9s %8s %12.1f %s\n' "$c" "$rps" "$p50_ms" "$p90_ms" "$p99_ms" \
    "$(awk -v a="$p99_ms" -v b="$p50_ms" 'BEGIN{r = 0; if (b > 0) r = a / b; printf "%.2f", r}')" "$cm" \
    $((errors_http + errors_socket)) "$(awk -v r="$rss" 'BEGIN{print r/1048576}')" "$load_at"
  echo "  server CPU time per request (all its threads): $(awk -v a="$cpu_at" -v b="$cpu_end" -v n="$requests" 'BEGIN{if (n > 0) printf "%.3f", (b - a) / n; else print "n/a"}') ms"
  [ "$SERVER_SIDE" = 0 ] || server_side "$log_at" $([ "$c" = 1 ] && [ "$HAVE_BENCH" = 1 ] && echo no-windows)
  if [ "$SWAP_EVERY" != 0 ] && [ "$c" = "$max_level" ]; then
    tail -n +"$(( log_at + 1 ))" "$WORK/server.log" | python3 -c '
import re, sys
from datetime import datetime
def t(s): return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp() * 1000
win, req = [], []
for l in sys.stdin:
    m = re.match(r"(\S+Z) .*MODEL_UPDATED .*prepare_ms=([0-9.]+)", l)
    if m: win.append((t(m.group(1)) - float(m.group(2)) - 50, t(m.group(1)) + 100)); continue
    m = re.match(r"(\S+Z) .* ACCESS .* 200 .*total_ms=([0-9.]+)", l)
    if m: e = t(m.group(1)); req.append((e - float(m.group(2)), e, float(m.group(2))))
def p99(v):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * 0.99))] if v else float("nan")
inw = [d for a, b, d in req if any(a < y and b > x for x, y in win)]
out = [d for a, b, d in req if not any(a < y and b > x for x, y in win)]
print("  swaps: %d hot updates; requests in swap windows %d, steady %d; server total p99 in swap windows %.3f ms, steady %.3f ms, ratio %.2f (target <= 1.5)" % (
    len(win), len(inw), len(out), p99(inw), p99(out), p99(inw) / p99(out) if out and inw else float("nan")))
print("SWAP_RESULT windows=%d in=%d steady=%d p99_swap=%.3f p99_steady=%.3f ratio=%.3f" % (
    len(win), len(inw), len(out), p99(inw), p99(out), p99(inw) / p99(out) if out and inw else float("nan")))'
  fi
  if [ "$c" = 1 ]; then
    echo "  serving overhead at concurrency 1: p50 - mean compute = $(awk -v a="$p50_ms" -v b="$cm" 'BEGIN{printf "%.3f", a-b}') ms"
    # the same request to a model the server does not have: read, routed, answered 404, no
    # inference: what wrk, loopback and HTTP cost on this machine without the model
    fl=$(PATH_INFER=/v2/models/no_such_model/infer "${CLIENT_PREFIX[@]}" wrk -t1 -c1 -d"$(( SECONDS_PER < 5 ? SECONDS_PER : 5 ))s" --timeout 10s -s "$HERE/serve_request.lua" "$URL" | grep RESULT)
    echo "  transport floor (same request, unknown model: body read, 404, no inference): p50 $(echo "$fl" | sed 's/.*p50_ms=\([0-9.]*\).*/\1/') ms p99 $(echo "$fl" | sed 's/.*p99_ms=\([0-9.]*\).*/\1/') ms"
    [ "$HAVE_BENCH" = 0 ] || c1_report
  fi
done
rss1=$(metric process_resident_memory_bytes)
echo "RSS after warm-up $(awk -v r="$rss0" 'BEGIN{printf "%.1f", r/1048576}') MiB, at the end $(awk -v r="$rss1" 'BEGIN{printf "%.1f", r/1048576}') MiB ($(awk -v a="$rss0" -v b="$rss1" 'BEGIN{printf "%+.1f", (b-a)*100/a}')%)"
if [ -s "$WORK/rss_a" ] && [ -s "$WORK/rss_b" ]; then
  a=$(cat "$WORK/rss_a") b=$(cat "$WORK/rss_b")
  echo "RSS under load (concurrency $max_level, connections open): $(awk -v r="$a" 'BEGIN{printf "%.1f", r/1048576}') MiB at $(( SECONDS_PER / 6 )) s, $(awk -v r="$b" 'BEGIN{printf "%.1f", r/1048576}') MiB at $(( SECONDS_PER - 1 )) s ($(awk -v a="$a" -v b="$b" 'BEGIN{printf "%+.1f", (b-a)*100/a}')%)"
fi
if [ "$RELOAD" != 0 ]; then
  grep -E "MODEL_LOADED|MODEL_UPDATED|HOT_UPDATE|MODEL_RELEASED" "$WORK/server.log" | sed 's/^/  /'
fi
echo "non-200 by code: $(curl -s "$URL/metrics" | grep '^tfcc_http_responses_total' | grep -v '} 0$' | tr '\n' ' ')"
