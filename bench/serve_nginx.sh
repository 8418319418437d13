#!/usr/bin/env bash
# End-to-end scale-out on loopback: two tfcc serve replicas behind nginx (the shape of
# deploy/nginx/tfcc-upstream.conf), load with wrk through nginx, then one replica is drained
# with SIGTERM mid-run. Prints wrk's figures and the requests each replica served.
#   bench/serve_nginx.sh [--seconds 10] [--conc 16] [--model FILE.tflite]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TFCC=${TFCC:-$ROOT/build/tools/tfcc}
SECS=10 CONC=16 MODEL=""
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) SECS=$2; shift 2 ;; --conc) CONC=$2; shift 2 ;; --model) MODEL=$2; shift 2 ;;
    *) echo "usage: $0 [--seconds S] [--conc N] [--model F]" >&2; exit 2 ;;
  esac
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] && command -v wrk >/dev/null || { echo "needs nginx and wrk (scripts/install-deps.sh)" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_nginx.XXXXXX")
chmod 755 "$WORK"  # nginx workers run as an unprivileged user
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  sleep 0.3; rm -rf "$WORK"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
if [ -z "$MODEL" ]; then
  python3 "$ROOT/modelgen/build.py" --out "$WORK" --net mobilenet_v1_025_128_float --quiet
  MODEL=$WORK/mobilenet_v1_025_128_float.tflite
fi
ports=()
for r in 1 2; do
  "$TFCC" serve "$MODEL" --name m --port 0 --port-file "$WORK/port$r" --sessions 1 --threads 1 \
    --no-access-log >"$WORK/replica$r.log" 2>&1 &
  PIDS+=($!)
done
for r in 1 2; do for _ in $(seq 1 100); do [ -s "$WORK/port$r" ] && break; sleep 0.1; done; ports+=("$(cat "$WORK/port$r")"); done
NPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
sed -e "s/127.0.0.1:8001/127.0.0.1:${ports[0]}/; s/127.0.0.1:8002/127.0.0.1:${ports[1]}/; s/listen 8000;/listen 127.0.0.1:$NPORT;/" \
  "$ROOT/deploy/nginx/tfcc-upstream.conf" >"$WORK/upstream.conf"
cat >"$WORK/nginx.conf" <<NG
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx_error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_buffer_size 1m;
  client_body_temp_path $WORK/tmp_body; proxy_temp_path $WORK/tmp_proxy;
  fastcgi_temp_path $WORK/tmp_f; uwsgi_temp_path $WORK/tmp_u; scgi_temp_path $WORK/tmp_s;
  include $WORK/upstream.conf;
}
NG
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK"
sleep 0.3
URL=http://127.0.0.1:$NPORT
python3 - "$URL" "$WORK" <<'PY'
import json, random, struct, sys, urllib.request
url, work = sys.argv[1], sys.argv[2]
meta = json.load(urllib.request.urlopen(url + '/v2/models/m'))
io = meta['inputs'][0]
shape = [d if d > 0 else 1 for d in io['shape']]
n = 1
for d in shape: n *= d
rng = random.Random(1)
raw = struct.pack('<%df' % n, *[rng.uniform(-1, 1) for _ in range(n)])
h = json.dumps({'inputs': [{'name': io['name'], 'datatype': 'FP32', 'shape': shape,
                'parameters': {'binary_data_size': len(raw)}}], 'parameters': {'binary_data_output': True}}).encode()
open(work + '/body.bin', 'wb').write(h + raw)
open(work + '/hlen', 'w').write(str(len(h)))
PY
export BODY=$WORK/body.bin HLEN=$(cat "$WORK/hlen") PATH_INFER=/v2/models/m/infer
echo "2 replicas (ports ${ports[*]}) behind nginx on $NPORT; wrk -c $CONC for ${SECS}s; replica 2 gets SIGTERM halfway"
( sleep $((SECS / 2)); kill -TERM "${PIDS[1]}" ) &
killer=$!
wrk -t2 -c"$CONC" -d"${SECS}s" --timeout 10s -s "$HERE/serve_request.lua" "$URL" | grep -E "RESULT|Non-2xx|Socket"
wait $killer
wait "${PIDS[1]}" && echo "replica 2 drained and exited 0" || echo "replica 2 exit status $?"
echo "replica 2 at SIGTERM: $(grep -o 'finishing [0-9]* in-flight request(s)' "$WORK/replica2.log" || true)"
echo "nginx upstream errors: $(grep -c . "$WORK/nginx_error.log" 2>/dev/null || echo 0) log lines"
curl -s "http://127.0.0.1:${ports[0]}/metrics" | grep '^tfcc_inference_requests_total' | sed 's/^/  replica 1 /'
