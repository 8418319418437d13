#!/usr/bin/env bash
# YAML config: unknown keys and bad values fail at start naming FILE:LINE and the key;
# SIGHUP re-reads the config (a model added, a bad edit rejected while serving goes on, a
# changed model that fails to load) and logs one "reload requested" line and one result line.
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
m=$TMP/nets/$net.tflite
c=$TMP/c.yaml
check_reject "unknown top key" "c.yaml:2: colour: unknown key" "models: [{name: a, path: $m}]" "colour: red"
check_reject "unknown nested key" "c.yaml:3: server.prot: unknown key" "models: [{name: a, path: $m}]" "server:" "  prot: 80"
check_reject "bad port" "c.yaml:2: server.port: 70000 is out of range [0, 65535]" "models: [{name: a, path: $m}]" "server: {port: 70000}"
check_reject "port not a number" "server.port: 'eighty' is not an integer" "models: [{name: a, path: $m}]" "server: {port: eighty}"
check_reject "bad log format" "log.format: expected text or json" "models: [{name: a, path: $m}]" "log: {format: xml}"
check_reject "bad isa" "runtime.isa: 'avx9' is not one of" "runtime: {isa: avx9}" "models: [{name: a, path: $m}]"
check_reject "model without path" "models[0]: 'path' is required" "models:" "  - name: a"
check_reject "unknown model key" "c.yaml:3: models[0].sesions: unknown key" "models:" "  - name: a" "    sesions: 2" "    path: $m"
check_reject "duplicate names" "the name 'a' is used twice" "models: [{name: a, path: $m}, {name: a, path: $m}]"
check_reject "YAML syntax" "c.yaml:2: YAML error" "models: [{name: a" "server: {"
check_reject "no models" "no models" "server: {port: 1}"
check_reject "repository sessions" "c.yaml:1: repository.sessions: 0 is out of range [1, 256]" "repository: {path: $TMP, sessions: 0}"
check_reject "repository unknown key" "c.yaml:1: repository.max_bach: unknown key" "repository: {path: $TMP, max_bach: 4}"
check_reject "max_batch range" "models[0].max_batch: 2000 is out of range [0, 1024]" "models: [{name: a, path: $m, max_batch: 2000}]"
check_reject "receive_s range" "server.timeouts.receive_s: 0 is out of range [1, 3600]" "models: [{name: a, path: $m}]" "server: {timeouts: {receive_s: 0}}"
check_reject "per-client range" "server.max_connections_per_client: -2 is out of range [0, 65536]" "models: [{name: a, path: $m}]" "server: {max_connections_per_client: -2}"
check_reject "health_port range" "server.health_port: 70000 is out of range [-1, 65535]" "models: [{name: a, path: $m}]" "server: {health_port: 70000}"
# nesting depth is capped (64) before libyaml builds the document: a file nested 100,000 levels
# deep (flow or block style) is refused at once instead of taking over 15 s
"$PYTHON" -c "import sys; d=100000; sys.stdout.write('models: [{name: a, path: $m}]\nx: ' + '[' * d + ']' * d + '\n')" >"$c"
t0=$(date +%s%N)
expect_rc 2 "deep flow nesting" -- timeout 10 "$TFCC" serve --config "$c"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_in "$TMP/err" "c.yaml:2: nested more than 64 levels deep" "deep flow nesting"
[ "$ms" -lt 5000 ] && ok || bad "deep flow nesting took $ms ms"
"$PYTHON" -c "import sys; sys.stdout.write('models: [{name: a, path: $m}]\n' + ''.join(' ' * i + 'k%d:\n' % i for i in range(5000)))" >"$c"
expect_rc 2 "deep block nesting" -- timeout 10 "$TFCC" serve --config "$c"
expect_in "$TMP/err" "c.yaml:66: nested more than 64 levels deep" "deep block nesting"
expect_rc 2 "no arguments" -- "$TFCC" serve
expect_rc 0 "help" -- "$TFCC" serve --help
expect_in "$TMP/out" "usage: tfcc serve MODEL.tflite" "help"

# SIGHUP: add a model
cat >"$c" <<YAML
log: {format: text, access: false}
models:
  - {name: a, path: $m, sessions: 1}
YAML
start_server "$TMP/log" --config "$c" || { bad start; finish; }
expect_http 404 "b before SIGHUP" GET /v2/models/b
cat >>"$c" <<YAML
  - {name: b, path: $m, sessions: 1}
YAML
kill -HUP "$PID"
for _ in $(seq 1 50); do [ "$(http GET /v2/models/b/ready)" = 200 ] && break; sleep 0.1; done
expect_http 200 "b after SIGHUP" GET /v2/models/b/ready
echo "bogus: 1" >>"$c"
kill -HUP "$PID"
for _ in $(seq 1 50); do grep -q "CONFIG_RELOAD.*bogus: unknown key" "$TMP/log" && break; sleep 0.1; done
grep -q "CONFIG_RELOAD.*bogus: unknown key (keeping the running config)" "$TMP/log" && ok || bad "bad config on SIGHUP not reported"
expect_http 200 "still serving after a bad SIGHUP" GET /v2/models/b/ready
# one line says a reload was requested, one line its result
wait_log() { for _ in $(seq 1 100); do grep -qF -- "$1" "$TMP/log" && return 0; sleep 0.1; done; return 1; }
log_has() { if wait_log "$1"; then ok; else bad "$2: '$1' not in the log: $(grep CONFIG_RELOAD "$TMP/log" | tail -5)"; fi; }
log_has "CONFIG_RELOAD SIGHUP: reload requested (re-reading $c)" "reload requested line"
log_has "CONFIG_RELOAD reload done: $c applied: 1 model(s) added, 0 changed, 0 removed; all 2 model(s) ready" "reload result line"
log_has "CONFIG_RELOAD reload failed: $c:" "failed reload line"
[ "$(grep -c 'reload requested' "$TMP/log")" = 2 ] && ok || bad "one 'reload requested' line per SIGHUP: $(grep -c 'reload requested' "$TMP/log")"
# a changed model whose new file does not load: the result says so
head -c 1000 /dev/urandom >"$TMP/corrupt.tflite"
cat >"$c" <<YAML
log: {format: text, access: false}
models:
  - {name: a, path: $m, sessions: 1}
  - {name: b, path: $TMP/corrupt.tflite, sessions: 1}
YAML
kill -HUP "$PID"
log_has "CONFIG_RELOAD reload done with errors: $c applied: 0 model(s) added, 1 changed, 0 removed; 1 load(s) failed (MODEL_LOAD_FAILED above" "reload with a failed load"
grep -q "MODEL_LOAD_FAILED model=b" "$TMP/log" && ok || bad "MODEL_LOAD_FAILED for b"
# new log settings apply after the result line: this reload logs in text, the next lines in JSON
cat >"$c" <<YAML
log: {format: json, access: false}
models:
  - {name: a, path: $m, sessions: 1}
YAML
kill -HUP "$PID"
log_has "CONFIG_RELOAD reload done: $c applied: 0 model(s) added, 0 changed, 1 removed; all 1 model(s) ready" "text result before the switch to JSON"
stop_server && ok || bad "exit status"
grep -q '"tag":"SHUTDOWN"' "$TMP/log" && ok || bad "JSON log lines after the reload"

# without a config file SIGHUP rescans the model files, with the same two lines
start_server "$TMP/log2" "$m" || { bad "start without config"; finish; }
kill -HUP "$PID"
for _ in $(seq 1 100); do grep -q "reload done" "$TMP/log2" && break; sleep 0.1; done
grep -qF "CONFIG_RELOAD SIGHUP: reload requested (no config file: rescanning the model files)" "$TMP/log2" && ok || bad "no-config reload requested line"
grep -qF "CONFIG_RELOAD reload done: all 1 model(s) ready" "$TMP/log2" && ok || bad "no-config reload result: $(grep CONFIG_RELOAD "$TMP/log2")"
stop_server && ok || bad "exit status (no config)"
finish
