#!/usr/bin/env bash
# Load test of `tfcc serve` on loopback with wrk (Debian package `wrk`): KServe v2 infer
# requests with binary tensors (zero-copy input, binary output), at several concurrency
# levels. Prints throughput, p50/p90/p99 per level, the server's own compute time (mean
# tfcc_session_run from /metrics) and the serving overhead at concurrency 1 (p50 - compute),
# failed requests, and RSS growth after warm-up.
#
#   bench/serve_load.sh [--model FILE.tflite] [--levels "1 8 64"] [--seconds 10]
#                       [--sessions N] [--threads N] [--reload | --hot-reload] [--warmup 10]
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
# Without --model it builds modelgen's mobilenet_v1_025_128_float.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TFCC=${TFCC:-$ROOT/build/tools/tfcc}
MODEL="" LEVELS="1 8 64" SECONDS_PER=10 SESSIONS=2 THREADS=0 RELOAD=0 WARMUP=10
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
    *) echo "usage: $0 [--model F] [--levels \"1 8 64\"] [--seconds S] [--sessions N] [--threads N] [--reload|--hot-reload] [--warmup S]" >&2; exit 2 ;;
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
"$TFCC" serve --model-repository "$WORK/repo" --port 0 --port-file "$WORK/port" --sessions "$SESSIONS" \
  --threads "$THREADS" --poll-ms 200 --no-access-log --max-queue 4096 >"$WORK/server.log" 2>&1 &
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
metric() { curl -s "$URL/metrics" | awk -v k="$1" '$1 == k {print $2}'; }
compute_mean_ms() { # mean tfcc_session_run time since the last call
  local s c; s=$(metric 'tfcc_request_compute_seconds_sum{model="m",version="'"$1"'"}'); c=$(metric 'tfcc_request_compute_seconds_count{model="m",version="'"$1"'"}')
  awk -v s="${s:-0}" -v c="${c:-0}" -v ps="$PREV_S" -v pc="$PREV_C" 'BEGIN { if (c > pc) printf "%.3f", (s - ps) * 1000 / (c - pc); else print "n/a" }'
  PREV_S=${s:-0}; PREV_C=${c:-0}
}
PREV_S=0 PREV_C=0
echo "model: $MODEL"
echo "server: sessions=$SESSIONS threads=$THREADS (runtime threads ${RT_THREADS:-?}), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
max_level=$(echo $LEVELS | tr ' ' '\n' | sort -n | tail -1)
# warm-up at the highest concurrency (connection threads, buffers), then RSS is the baseline
wrk -t1 -c"$max_level" -d"${WARMUP}s" -s "$HERE/serve_request.lua" "$URL" >/dev/null
compute_mean_ms 1 >/dev/null
rss0=$(metric process_resident_memory_bytes)
printf '%-6s %10s %9s %9s %9s %9s %8s %12s\n' conc req/s p50_ms p90_ms p99_ms compute_ms failed rss_MiB
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
  rss_in=""
  if [ "$c" = "$max_level" ]; then
    ( sleep $(( SECONDS_PER / 6 > 0 ? SECONDS_PER / 6 : 1 )); metric process_resident_memory_bytes >"$WORK/rss_a"
      sleep $(( SECONDS_PER - SECONDS_PER / 6 - 1 > 0 ? SECONDS_PER - SECONDS_PER / 6 - 1 : 1 ))
      metric process_resident_memory_bytes >"$WORK/rss_b" ) &
    rss_in=$!
  fi
  line=$(wrk -t$t -c"$c" -d"${SECONDS_PER}s" --timeout 10s -s "$HERE/serve_request.lua" "$URL" | grep RESULT)
  [ -z "$pub" ] || wait "$pub"
  [ -z "$rss_in" ] || wait "$rss_in"
  eval "$(echo "$line" | sed 's/^RESULT //')"
  v=1; [ "$RELOAD" = 1 ] && [ "$c" = "$max_level" ] && v=2
  cm=$(compute_mean_ms $v)
  rss=$(metric process_resident_memory_bytes)
  printf '%-6s %10s %9s %9s %9s %9s %8s %12.1f\n' "$c" "$rps" "$p50_ms" "$p90_ms" "$p99_ms" "$cm" \
    $((errors_http + errors_socket)) "$(awk -v r="$rss" 'BEGIN{print r/1048576}')"
  if [ "$c" = 1 ]; then
    echo "  serving overhead at concurrency 1: p50 - mean compute = $(awk -v a="$p50_ms" -v b="$cm" 'BEGIN{printf "%.3f", a-b}') ms"
    if "$TFCC" bench --help >/dev/null 2>&1; then
      bt=${RT_THREADS:-$THREADS}
      bp50=$("$TFCC" bench "$MODEL" --threads "$bt" --duration 3 --profile-runs 0 --json 2>/dev/null |
        python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["latency_ms"]["p50"])' || echo n/a)
      echo "  tfcc bench p50 (same model, --threads $bt): $bp50 ms -> serving overhead p50 = $(awk -v a="$p50_ms" -v b="$bp50" 'BEGIN{printf "%.3f", a-b}') ms (target < 0.3)"
    fi
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
