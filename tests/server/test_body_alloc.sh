#!/usr/bin/env bash
# Body buffers grow as the bytes arrive, not from Content-Length: 60 connections that only send
# the headers of a POST announcing 64 MiB - 1 bytes must not grow the server's virtual size by
# 64 MiB each (before: +4 GiB; now: the connection threads' stacks, < 24 MiB per connection).
# Then a real 1.5 MiB body on one connection still works (the buffer grows to its size).
source "$(dirname "$0")/lib_server.bash"
net=mobilenet_v1_025_128_float
build_net $net
start_server "$TMP/log" "$TMP/nets/$net.tflite" --name net || { bad "start"; finish; }
vm() { awk '/^VmSize/ {print $2}' "/proc/$PID/status"; }
conns=60
before=$(vm)
"$PYTHON" "$SRV_HERE/srv_attack.py" headers --port "$PORT" --conns $conns --content-length 67108863 --seconds 8 >"$TMP/att" &
att=$!
for _ in $(seq 1 80); do grep -q '^open' "$TMP/att" && break; sleep 0.1; done
sleep 1
after=$(vm)
grow_kib=$((after - before))
echo "VmSize $before -> $after KiB with $(cat "$TMP/att") connections announcing 64 MiB bodies"
if [ "$grow_kib" -lt $((conns * 24 * 1024)) ]; then ok; else bad "VmSize grew by $((grow_kib / 1024)) MiB for $conns connections that sent only headers"; fi
kill "$att" 2>/dev/null; wait "$att" 2>/dev/null
expect_http 200 "live" GET /v2/health/live
client rand "$TMP/in.npy" FP32 1,128,128,3 --seed 3
"$TFCC" run "$TMP/nets/$net.tflite" -i "$TMP/in.npy" -o "$TMP/ref" >/dev/null
client check --port "$PORT" --model net --ref "$TMP/ref" "$TMP/in.npy" >/dev/null && ok || bad "requests after the idle bodies"
stop_server && ok || bad "exit status after SIGTERM"
finish
