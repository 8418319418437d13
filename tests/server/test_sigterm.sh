#!/usr/bin/env bash
# Graceful shutdown and backpressure. One session, slow model (MobileNet v2 float): requests
# beyond max_queue get 503 + Retry-After; SIGTERM while requests are running and queued:
# every accepted request still gets its answer, new connections are refused, exit 0.
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
client rand "$TMP/in.npy" FP32 1,128,128,3 --seed 3
# Reference kernels keep each request slow enough (tens of ms) that the queue really fills,
# whatever SIMD kernels this CPU would otherwise get (the expected output is made with them too).
export TFCC_ISA=generic
"$TFCC" run "$TMP/nets/$net.tflite" -i "$TMP/in.npy" -o "$TMP/ref" >/dev/null
start_server "$TMP/log" "$TMP/nets/$net.tflite" --name net --sessions 1 --max-queue 2 --threads 1 ||
  { bad "start"; finish; }

# backpressure: 24 concurrent clients, 1 session, queue of 2 -> some 503 with Retry-After
"$PYTHON" - "$PORT" "$TMP/in.npy" >"$TMP/bp.txt" <<'PY'
import json, struct, sys, threading, http.client
sys.path.insert(0, __import__('os').environ['SRV_HERE'])
import srv_client as c
port = int(sys.argv[1])
meta = c.metadata(port, 'net')
body, headers = c.build_v2(meta, [sys.argv[2]], True, True, None)
res = []
def go():
    st, h, d = c.request(port, 'POST', '/v2/models/net/infer', body, headers)
    res.append((st, h.get('retry-after'), d[:200] if st != 200 else b''))
ts = [threading.Thread(target=go) for _ in range(24)]
[t.start() for t in ts]; [t.join() for t in ts]
n503 = [r for r in res if r[0] == 503]
print('200:%d 503:%d retry_after:%s other:%d' % (sum(r[0] == 200 for r in res), len(n503),
      all(r[1] == '1' for r in n503), sum(r[0] not in (200, 503) for r in res)))
for r in n503[:1]: print(r[2].decode())
PY
cat "$TMP/bp.txt"
grep -q "503:[1-9]" "$TMP/bp.txt" && grep -q "retry_after:True" "$TMP/bp.txt" && grep -q "other:0" "$TMP/bp.txt" && ok ||
  bad "backpressure: wanted some 503 with Retry-After: $(cat "$TMP/bp.txt")"
grep -q "requests already queued (max_queue)" "$TMP/bp.txt" && ok || bad "503 message"

# drain: 3 requests in flight (1 running, 2 queued), then SIGTERM
client load --port "$PORT" --model net --threads 3 --requests 1 --expect "$TMP/ref" "$TMP/in.npy" >"$TMP/drain.txt" 2>&1 &
lp=$!
for _ in $(seq 1 100); do
  q=$(curl -s "$URL/metrics" | awk '$1 == "tfcc_inflight_requests{model=\"net\"}" {print $2}')
  [ "${q:-0}" -ge 2 ] && break
  kill -0 "$lp" 2>/dev/null || break # the requests are done already: no use polling on
  sleep 0.02
done
kill -TERM "$PID"
sleep 0.2
if curl -s -o /dev/null --max-time 2 "$URL/v2/health/live"; then bad "new connection accepted while draining"; else ok; fi
wait $lp && ok || bad "in-flight requests lost on SIGTERM: $(cat "$TMP/drain.txt")"
cat "$TMP/drain.txt"
wait "$PID"; rc=$?
[ $rc -eq 0 ] && ok || bad "exit status $rc after drain (wanted 0)"
grep -q "SHUTDOWN SIGTERM: draining" "$TMP/log" && ok || bad "no drain log line"
finish
