# Helpers sourced by tests/server/*.sh (not a test itself). Builds on tests/cli/lib.bash
# (ok/bad/finish, $TMP, $TFCC, $MODELS). Servers listen on 127.0.0.1 on a free port (--port 0).
source "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.bash"
SRV_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export SRV_HERE
SRC=${TFCC_SOURCE_DIR:-$SRV_HERE/../..}
command -v curl >/dev/null || { echo "SKIP: curl needed"; exit 77; }
have_python || { echo "SKIP: python3 needed"; exit 77; }
# The interpreter behind python3, resolved once: a version-manager shim on PATH can take
# seconds per start on a loaded machine, and these tests start Python many times.
PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
[ -x "$PYTHON" ] || PYTHON=python3
export PYTHON
client() { "$PYTHON" "$SRV_HERE/srv_client.py" "$@"; }

SERVER_PIDS=()
SERVER_LOGS=()
cleanup_servers() {
  for p in "${SERVER_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  if [ "$FAILS" -gt 0 ]; then
    for l in "${SERVER_LOGS[@]}"; do echo "--- last lines of $(basename "$l"):" >&2; grep -v ' ACCESS ' "$l" | tail -40 >&2; done
  fi
  rm -rf "$TMP"
}
trap cleanup_servers EXIT

# start_server LOG ARGS...: starts tfcc serve, waits (<= 20 s) until it listens; sets PORT,
# HEALTH_PORT (empty without a health listener), PID.
start_server() {
  local log=$1; shift
  rm -f "$TMP/port"
  "$TFCC" serve --port 0 --port-file "$TMP/port" "$@" >"$log" 2>&1 &
  PID=$!
  SERVER_PIDS+=("$PID")
  SERVER_LOGS+=("$log")
  for _ in $(seq 1 200); do
    [ -s "$TMP/port" ] && break
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ ! -s "$TMP/port" ]; then
    echo "server did not start: $(tail -5 "$log")" >&2
    return 1
  fi
  PORT=$(head -1 "$TMP/port")
  HEALTH_PORT=$(sed -n 2p "$TMP/port") # set with --health-port / server.health_port
  URL="http://127.0.0.1:$PORT"
}
# stop_server: SIGTERM, wait <= 20 s; returns the exit status.
stop_server() {
  kill -TERM "$PID" 2>/dev/null
  local rc
  for _ in $(seq 1 200); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
  wait "$PID"; rc=$?
  return $rc
}
# http METHOD PATH [curl args...]: body in $TMP/body, status echoed.
http() {
  local m=$1 p=$2; shift 2
  curl -s -o "$TMP/body" -w '%{http_code}' -X "$m" "$URL$p" --max-time 30 "$@"
}
# expect_http WANT DESC METHOD PATH [curl args]
expect_http() {
  local want=$1 desc=$2; shift 2
  local got; got=$(http "$@")
  if [ "$got" = "$want" ]; then ok; else bad "$desc: HTTP $got, wanted $want; body: $(head -c 300 "$TMP/body")"; fi
}
body_has() { if grep -qF -- "$1" "$TMP/body"; then ok; else bad "$2: '$1' not in body: $(head -c 400 "$TMP/body")"; fi; }
build_net() { # build_net NAME -> $TMP/nets/NAME.tflite
  [ -f "$TMP/nets/$1.tflite" ] || "$PYTHON" "$SRC/modelgen/build.py" --out "$TMP/nets" --net "$1" --quiet >/dev/null
}
# check_reject DESC TEXT YAML_LINE...: writes the lines to the config file $c; `tfcc serve
# --config $c` must stop with exit 2 and one error line containing TEXT.
check_reject() {
  local desc=$1 text=$2; shift 2
  printf '%s\n' "$@" >"$c"
  expect_rc 2 "$desc" -- "$TFCC" serve --config "$c"
  expect_error_line serve "$desc"
  expect_in "$TMP/err" "$text" "$desc"
}
# reload_config: SIGHUP to the server ($PID) and a wait (<= 10 s) for "CONFIG_RELOAD reload
# done" in LOG.
reload_config() {
  kill -HUP "$PID"
  for _ in $(seq 1 100); do grep -q "CONFIG_RELOAD reload done" "$1" && break; sleep 0.1; done
}
# check_repo_setting DESC SETTING MODEL REF_DIR IN.npy: a repository holding MODEL as model
# "r" version 1, served with `repository: {path, SETTING}`, answers like REF_DIR.
check_repo_setting() {
  local desc=$1 setting=$2 model=$3 ref=$4 in=$5
  rm -rf "$TMP/repo" && mkdir -p "$TMP/repo/r/1" && cp "$model" "$TMP/repo/r/1/model.tflite"
  printf 'repository: {path: %s, %s}\nlog: {access: false}\n' "$TMP/repo" "$setting" >"$c"
  start_server "$TMP/log_repo" --config "$c" || { bad "$desc: start"; return; }
  client check --port "$PORT" --model r --ref "$ref" "$in" && ok || bad "$desc: responses differ"
  stop_server && ok || bad "$desc: exit status"
}
# two_weight_versions: the same small network with two sets of weights ($TMP/w1.tflite,
# $TMP/w2.tflite; make_dynbatch.py seeds 1 and 2), a seeded input $TMP/in.npy (FP32 [2, 16])
# and each one's `tfcc run` outputs in $TMP/ref_w1, $TMP/ref_w2. Tests use mk() for more.
mk() { "$PYTHON" "$SRV_HERE/make_dynbatch.py" "$@" || bad "make model $*"; }
two_weight_versions() {
  mk "$TMP/w1.tflite" --seed 1
  mk "$TMP/w2.tflite" --seed 2
  "$PYTHON" - "$SRV_HERE" "$TMP/in.npy" <<'PY' || bad "make input"
import random, sys
sys.path.insert(0, sys.argv[1])
import srv_client as c
r = random.Random(5)
c.npy_write(sys.argv[2], 'FP32', [2, 16], c.pack('FP32', [r.uniform(-1, 1) for _ in range(32)]))
PY
  for m in w1 w2; do "$TFCC" run "$TMP/$m.tflite" -i "$TMP/in.npy" -o "$TMP/ref_$m" >/dev/null || bad "tfcc run $m"; done
}
# serves MODEL REFDIR: a fresh request to MODEL with $TMP/in.npy answers with REFDIR's outputs
# (polled up to 10 s: reloads and hot updates land in the background)
serves() {
  for _ in $(seq 1 100); do
    client check --port "$PORT" --model "$1" --ref "$2" "$TMP/in.npy" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}
# publish_dyn FILE: FILE becomes $TMP/repo/dyn/1/model.tflite by a rename (never a torn file)
publish_dyn() { cp "$1" "$TMP/repo/dyn/.partial" && mv "$TMP/repo/dyn/.partial" "$TMP/repo/dyn/1/model.tflite"; }
