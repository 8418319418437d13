#!/usr/bin/env bash
# Queued requests (more concurrent requests than sessions): they wait first come, first served
# and run on the session's worker thread (server/srv_pool.c), which encodes each answer into
# its own request's response: six clients with six different inputs on one session each get
# exactly their own `tfcc run` answer, byte for byte, and the access log shows real queue
# waits. A request that waits longer than timeouts.request_ms gets 503 naming the wait, the
# others still get their answers, and the server keeps serving.
source "$(dirname "$0")/lib_server.bash"
# Reference kernels and 300 rows per request keep each run slow enough (milliseconds) that the
# requests really queue, whatever SIMD kernels this CPU has (the expected outputs use them too).
export TFCC_ISA=generic
"$PYTHON" "$SRV_HERE/make_dynbatch.py" "$TMP/m.tflite" --hidden 1024 || { bad "make model"; finish; }
"$PYTHON" - "$SRV_HERE" "$TMP" <<'PY' || bad "make inputs"
import random, sys
sys.path.insert(0, sys.argv[1])
import srv_client as c
for k in range(1, 7):
    r = random.Random(k)
    c.npy_write('%s/in%d.npy' % (sys.argv[2], k), 'FP32', [300, 16], c.pack("FP32", [r.uniform(-1, 1) for _ in range(300 * 16)]))
PY
cases=()
for k in 1 2 3 4 5 6; do
  "$TFCC" run "$TMP/m.tflite" -i "$TMP/in$k.npy" -o "$TMP/ref$k" >/dev/null || bad "tfcc run $k"
  cases+=(--case "$TMP/in$k.npy=$TMP/ref$k")
done
start_server "$TMP/log" "$TMP/m.tflite" --name m --sessions 1 --threads 1 --max-queue 64 || { bad "start"; finish; }
client batch --port "$PORT" --model m --rounds 2 "${cases[@]}" >"$TMP/q.txt" 2>&1 && ok ||
  bad "queued requests: $(cat "$TMP/q.txt")"
client batch --port "$PORT" --model m --rounds 1 --json "${cases[@]}" >"$TMP/qj.txt" 2>&1 && ok ||
  bad "queued requests (JSON): $(cat "$TMP/qj.txt")"
queued=$(sed -n 's/.* 200 .*queue_ms=\([0-9.]*\) .*/\1/p' "$TMP/log" | awk '$1 > 0.5' | wc -l)
[ "$queued" -ge 1 ] && ok || bad "no request waited in the queue (access log): the test did not exercise the worker"
stop_server && ok || bad "exit status"

# queue timeout: request_ms 1 with one session; waiting requests get 503, none a wrong answer
cat >"$TMP/c.yaml" <<YAML
server: {timeouts: {request_ms: 1}}
log: {access: false}
models:
  - {name: m, path: $TMP/m.tflite, sessions: 1, max_queue: 64}
runtime: {num_threads: 1}
YAML
start_server "$TMP/log2" --config "$TMP/c.yaml" || { bad "start (timeout)"; finish; }
"$PYTHON" - "$PORT" "$TMP" >"$TMP/to.txt" <<'PY'
import sys, threading
sys.path.insert(0, __import__('os').environ['SRV_HERE'])
import srv_client as c
port, tmp = int(sys.argv[1]), sys.argv[2]
meta = c.metadata(port, 'm')
res = []
def go(k):
    body, headers = c.build_v2(meta, ['%s/in%d.npy' % (tmp, k)], True, True, None)
    want = c.read_expect('%s/ref%d' % (tmp, k), meta)
    for _ in range(3):
        st, h, d = c.request(port, 'POST', '/v2/models/m/infer', body, headers)
        if st == 200:
            outs, _ = c.decode_v2(st, h, d)
            res.append('ok' if all(raw == want[name] for name, _, _, raw in outs) else 'wrong')
        else:
            res.append('%d %s' % (st, d[:120].decode(errors='replace')))
ts = [threading.Thread(target=go, args=(k,)) for k in range(1, 7)]
[t.start() for t in ts]; [t.join() for t in ts]
print('ok:%d wrong:%d 503:%d other:%d' % (res.count('ok'), res.count('wrong'), sum(r.startswith('503') for r in res),
      sum(r not in ('ok', 'wrong') and not r.startswith('503') for r in res)))
for r in res:
    if r.startswith('503'): print(r); break
PY
cat "$TMP/to.txt"
grep -q "ok:[1-9].* wrong:0 503:[1-9][0-9]* other:0" "$TMP/to.txt" && ok || bad "queue timeout: wanted some 503 and only right answers: $(cat "$TMP/to.txt")"
grep -q "no session became free within 1 ms" "$TMP/to.txt" && ok || bad "503 message for the queue timeout"
client batch --port "$PORT" --model m --rounds 1 --case "$TMP/in1.npy=$TMP/ref1" >"$TMP/after.txt" 2>&1 && ok ||
  bad "serving after queue timeouts: $(cat "$TMP/after.txt")"
stop_server && ok || bad "exit status (timeout)"
finish
