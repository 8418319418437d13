#!/usr/bin/env bash
# Slowloris: connections that send a request one byte at a time must not make the server
# unreachable. (1) A whole-request deadline (timeouts.receive_s) closes a connection whose
# request line, headers or body have not arrived in time: 408 once the request line is in,
# silently before. (2) A cap per client address (max_connections_per_client) keeps one address
# from taking every connection: others are still served. (3) With every connection taken by
# many addresses, the health listener (health_port) still answers live, ready and metrics.
# Bounded: at most 80 connections and ~20 s of traffic, all to 127.0.0.1 (sources 127.0.0.x).
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
cat >"$TMP/config.yaml" <<YAML
server: {max_connections: 40, max_connections_per_client: 10, health_port: 0, timeouts: {read_s: 30, receive_s: 3}}
log: {access: false}
models:
  - {name: net, path: $TMP/nets/$net.tflite, sessions: 1}
YAML
start_server "$TMP/log" --config "$TMP/config.yaml" || { bad "start"; finish; }
[ -n "$HEALTH_PORT" ] && ok || bad "no health port in the port file"
atk() { "$PYTHON" "$SRV_HERE/srv_attack.py" "$@"; }
I=/v2/models/net/infer

# (1) deadline: trickled headers -> 408 after ~3 s; trickled body -> 408; trickled request line -> closed
atk trickle --port "$PORT" --prefix "GET /v2/health/live HTTP/1.1\r\n" --rest "Host: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n" --seconds 10 >"$TMP/t1" &
t1=$!
atk trickle --port "$PORT" --prefix "POST $I HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n{" --rest "$(printf '%0200d' 0)" --seconds 10 >"$TMP/t2" &
t2=$!
atk trickle --port "$PORT" --prefix "G" --rest "ET /v2/health/live/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\n" --seconds 10 >"$TMP/t3"
wait $t1 $t2
case "$(cat "$TMP/t1")" in "HTTP/1.1 408 Request Timeout after "[3-5].*) ok ;; *) bad "trickled headers: $(cat "$TMP/t1"), wanted 408 after 3-5 s" ;; esac
case "$(cat "$TMP/t2")" in "HTTP/1.1 408 Request Timeout after "[3-5].*) ok ;; *) bad "trickled body: $(cat "$TMP/t2"), wanted 408 after 3-5 s" ;; esac
case "$(cat "$TMP/t3")" in "CLOSED after "[3-5].*) ok ;; *) bad "trickled request line: $(cat "$TMP/t3"), wanted closed after 3-5 s" ;; esac
grep -q "REQUEST_DEADLINE" "$TMP/log" && ok || bad "no REQUEST_DEADLINE log line"

# (2) one address opens 60 slow connections: 10 held, 50 refused, then closed by the deadline;
# another address is served all along
atk slowloris --port "$PORT" --conns 60 --seconds 5 --interval 0.5 --probe-source 127.0.0.2 --probe-every 0.5 >"$TMP/s1"
echo "one address: $(cat "$TMP/s1")"
read -r _ held _ refused _ closed _ pok _ pfail _ pmax <"$TMP/s1"
[ "$refused" -ge 50 ] && ok || bad "per-client cap: $refused of 60 refused, wanted >= 50 ($(cat "$TMP/s1"))"
[ "$closed" -ge 10 ] && [ "$held" -eq 0 ] && ok || bad "deadline: $closed closed by the server, $held still held after 5 s"
[ "$pfail" -eq 0 ] && [ "$pok" -ge 5 ] && ok || bad "other address not served during the attack: $(cat "$TMP/s1")"

# (3) 20 addresses x 4 connections take all 40 connections; the health port answers
atk slowloris --port "$PORT" --conns 80 --sources 20 --seconds 2.5 --interval 0.5 --probe-port "$HEALTH_PORT" --probe-every 0.5 >"$TMP/s2"
echo "20 addresses: $(cat "$TMP/s2")"
read -r _ held _ refused _ closed _ pok _ pfail _ pmax <"$TMP/s2"
[ "$refused" -ge 30 ] && ok || bad "max_connections: only $refused of 80 refused"
[ "$pfail" -eq 0 ] && [ "$pok" -ge 3 ] && ok || bad "health port not answering under exhaustion: $(cat "$TMP/s2")"

URL="http://127.0.0.1:$HEALTH_PORT"
expect_http 200 "health port: live" GET /v2/health/live
expect_http 200 "health port: ready" GET /v2/health/ready
expect_http 200 "health port: metrics" GET /metrics
body_has 'tfcc_http_responses_total{code="408"}' "408 counted"
expect_http 404 "health port: no inference" POST $I --data-binary '{}'
body_has "on the health port" "health port 404"
URL="http://127.0.0.1:$PORT"
expect_http 200 "main port after the attacks" GET /v2/health/live
expect_http 200 "model ready after the attacks" GET /v2/models/net/ready
stop_server && ok || bad "exit status after SIGTERM"
finish
