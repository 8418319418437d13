#!/usr/bin/env bash
# Request smuggling leniency (RFC 9112): two different Content-Length headers, Transfer-Encoding
# together with Content-Length, an unsupported transfer coding, a bare CR in a header, HTTP/1.1
# without Host (or with two), %00 or a control character in the target: each is a 400 (501 for
# the coding) naming the cause, with the connection closed. Well-formed requests still work.
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
start_server "$TMP/log" "$TMP/nets/$net.tflite" --name net || { bad "start"; finish; }
# attack REQUEST: sends the bytes (printf %b escapes) on a new connection; the answer, read until
# the server closes (at most 5 s), in $TMP/raw.
attack() {
  : >"$TMP/raw"
  exec 3<>"/dev/tcp/127.0.0.1/$PORT" || return
  (printf '%b' "$1" >&3) 2>/dev/null # the server may close before the last bytes (SIGPIPE)
  timeout 5 cat <&3 >"$TMP/raw" 2>/dev/null
  exec 3<&- 3>&-
}
expect_raw() { # expect_raw CODE TEXT DESC REQUEST
  attack "$4"
  local line; line=$(head -1 "$TMP/raw")
  case "$line" in
    *" $1 "*) if grep -qF -- "$2" "$TMP/raw"; then ok; else bad "$3: '$2' not in: $(head -c 300 "$TMP/raw")"; fi ;;
    *) bad "$3: got '$line', wanted $1; $(head -c 300 "$TMP/raw")" ;;
  esac
}
L=/v2/health/live
expect_raw 200 "" "plain GET" "GET $L HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
expect_raw 200 "" "HTTP/1.0 without Host" "GET $L HTTP/1.0\r\n\r\n"
expect_raw 200 "" "repeated equal Content-Length" \
  "POST /v2/repository/index HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
expect_raw 400 "two different Content-Length headers ('2' and '30')" "two Content-Length" \
  "POST /v2/repository/index HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 30\r\n\r\n{}GET $L HTTP/1.1\r\nHost: x\r\n\r\n"
expect_raw 400 "both Transfer-Encoding and Content-Length" "TE + CL" \
  "POST /v2/repository/index HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
expect_raw 400 "both Transfer-Encoding and Content-Length" "CL + TE" \
  "POST /v2/repository/index HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
expect_raw 501 "Transfer-Encoding 'gzip, chunked'" "unknown coding" \
  "POST /v2/repository/index HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"
expect_raw 200 "" "chunked alone" \
  "POST /v2/repository/index HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
expect_raw 400 "header 'X-A' contains a bare CR in its value" "bare CR" \
  "GET $L HTTP/1.1\r\nHost: x\r\nX-A: 1\rContent-Length: 5\r\n\r\n"
expect_raw 400 "HTTP/1.1 request without a Host header" "no Host" "GET $L HTTP/1.1\r\n\r\n"
expect_raw 400 "more than one Host header" "two Host" "GET $L HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"
expect_raw 400 "contains %00" "%00 in path" "GET /v2/health/live%00/../x HTTP/1.1\r\nHost: x\r\n\r\n"
expect_raw 400 "contains %00" "%00 in model name" "GET /v2/models/net%00junk HTTP/1.1\r\nHost: x\r\n\r\n"
expect_raw 400 "contains a control character" "control character in target" "GET /v2/health/live\x01 HTTP/1.1\r\nHost: x\r\n\r\n"
# the connection is closed after a framing error: the smuggled second request is not answered
attack "POST /v2/repository/index HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 30\r\n\r\n{}GET $L HTTP/1.1\r\nHost: x\r\n\r\n"
if [ "$(grep -c '^HTTP/1.1' "$TMP/raw")" = 1 ]; then ok; else bad "smuggled request answered: $(cat "$TMP/raw")"; fi
expect_http 200 "live after" GET $L
expect_http 200 metrics GET /metrics
body_has 'tfcc_http_responses_total{code="400"}' "400 counted"
stop_server && ok || bad "exit status after SIGTERM"
finish
