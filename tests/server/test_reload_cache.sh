#!/usr/bin/env bash
# Hot weight update with a packed-weights cache (--weights-cache DIR, issue 18 point 6):
#  1. the first load writes DIR/<model>-<version>.wc;
#  2. a new file with the same graph under the same version: the hot update refuses the old
#     weights' cache (stale), serves the new weights and rewrites the cache for them;
#  3. a restarted server on the new file takes that cache (nothing rewritten) and serves the
#     new weights' exact outputs; publishing the first file again rewrites it once more.
# No request fails and every answer equals exactly one published file's `tfcc run` output.
source "$(dirname "$0")/lib_server.bash"
two_weight_versions

WC="$TMP/wc"
mkdir -p "$TMP/repo/dyn/1" "$WC"
cp "$TMP/w1.tflite" "$TMP/repo/dyn/1/model.tflite"
sum() { cksum <"$WC/dyn-1.wc" 2>/dev/null; }
changed_from() { # changed_from SUM: the cache file's content differs from SUM (<= 10 s)
  for _ in $(seq 1 100); do
    [ -s "$WC/dyn-1.wc" ] && [ "$(sum)" != "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

# 1. first load: the cache is written
start_server "$TMP/log" --model-repository "$TMP/repo" --poll-ms 100 --sessions 2 --no-access-log \
  --weights-cache "$WC" || { bad "start"; finish; }
expect_http 200 "ready" GET /v2/models/dyn/ready
[ -s "$WC/dyn-1.wc" ] && ok || bad "no cache file after the first load: $(ls -la "$WC")"
s1=$(sum)
client load --port "$PORT" --model dyn --threads 4 --until-file "$TMP/stop" --expect "$TMP/ref_w1" \
  --expect "$TMP/ref_w2" "$TMP/in.npy" >"$TMP/load.txt" 2>&1 &
load_pid=$!
sleep 0.5
# 2. new weights, same graph: hot update through the cache (stale: rewritten for w2)
publish_dyn "$TMP/w2.tflite"
serves dyn "$TMP/ref_w2" && ok || bad "the new weights do not serve"
grep -q "MODEL_UPDATED model=dyn version=1 path=.* hot weight update generation=1 " "$TMP/log" && ok ||
  bad "no MODEL_UPDATED line: $(grep -v ACCESS "$TMP/log" | tail -3)"
changed_from "$s1" && ok || bad "the hot update did not rewrite the cache for the new weights"
grep -q "dyn-1.wc ignored (made from other model bytes (stale))" "$TMP/log" && ok ||
  bad "the old weights' cache was not refused as stale: $(grep -v ACCESS "$TMP/log" | grep -i cache | tail -3)"
s2=$(sum)
touch "$TMP/stop"
wait $load_pid && ok || bad "requests failed during the update: $(cat "$TMP/load.txt")"
stop_server && ok || bad "exit status after SIGTERM"

# 3. restarted on the new file: the cache the update wrote is taken as it is
rm -f "$TMP/stop"
start_server "$TMP/log2" --model-repository "$TMP/repo" --poll-ms 100 --sessions 2 --no-access-log \
  --weights-cache "$WC" || { bad "restart"; finish; }
expect_http 200 "ready" GET /v2/models/dyn/ready
serves dyn "$TMP/ref_w2" && ok || bad "the restarted server does not serve the new weights"
grep -q "dyn-1.wc ignored\|dyn-1.wc: wrote" "$TMP/log2" && bad "the restart did not take the cache: $(grep -i cache "$TMP/log2" | tail -3)" || ok
[ "$(sum)" = "$s2" ] && ok || bad "the restart rewrote the cache"
# and back to the first weights: refused as stale again, rewritten, served exactly
publish_dyn "$TMP/w1.tflite"
serves dyn "$TMP/ref_w1" && ok || bad "the first weights do not serve again"
changed_from "$s2" && ok || bad "the second update did not rewrite the cache"
stop_server && ok || bad "exit status after SIGTERM"
finish
