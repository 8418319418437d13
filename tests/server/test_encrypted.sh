#!/usr/bin/env bash
# Encrypted models in tfcc serve (a model's key_file / key_env; --key-file / --key-env):
#  1. a config model given as a .tfcce container with key_file serves the plain model's exact
#     outputs; with runtime.weights_cache its cache file is an encrypted container;
#  2. a rewritten container (write elsewhere, rename) is picked up like a plain file: the new
#     weights serve (the whole model swapped), no request fails, every answer is one file's;
#  3. a container under another key is refused (MODEL_LOAD_FAILED naming the wrong key) and the
#     loaded version keeps serving; a container without a key in the config is not loaded and
#     the log says how to give one; a key_env model and the command-line form serve too;
#  4. key_file together with key_env is a config error naming the line;
#  5. in a <path>/<version>/ layout a version's file may be model.tfcce: a config model's
#     directory and --model-repository with --key-file find and serve it; where both files
#     are, model.tflite is the one loaded (here refused: a key with a plain file).
# Skipped (77) only when this tfcc has no encryption support.
source "$(dirname "$0")/lib_server.bash"
"$TFCC" encrypt --help >/dev/null 2>&1 || { echo "SKIP: tfcc built without encryption support"; exit 77; }
two_weight_versions
head -c 32 /dev/urandom >"$TMP/k.bin"
head -c 32 /dev/urandom >"$TMP/k2.bin"
export TFCC_SRV_TEST_KEY=$(od -An -tx1 -v "$TMP/k.bin" | tr -d ' \n')
enc() { "$TFCC" encrypt "$1" -o "$2" --key-file "$3" --key-id srv-test >/dev/null || bad "encrypt $1"; }
enc "$TMP/w1.tflite" "$TMP/enc.tfcce" "$TMP/k.bin"
enc "$TMP/w1.tflite" "$TMP/env.tfcce" "$TMP/k.bin"
enc "$TMP/w1.tflite" "$TMP/nokey.tfcce" "$TMP/k.bin"
# publish SRC: encrypted under KEY next to the served file, then renamed over it
publish() { enc "$1" "$TMP/.partial.tfcce" "$2" && mv "$TMP/.partial.tfcce" "$TMP/enc.tfcce"; }
WC=$TMP/wc
mkdir -p "$WC"
cat >"$TMP/config.yaml" <<YAML
runtime:
  weights_cache: $WC
models:
  - name: enc
    path: $TMP/enc.tfcce
    key_file: $TMP/k.bin
    sessions: 2
  - name: env
    path: $TMP/env.tfcce
    key_env: TFCC_SRV_TEST_KEY
  - name: nokey
    path: $TMP/nokey.tfcce
YAML

# 1. served from the containers (TFCC_ENC_CACHE_FLOAT=1: a float model's encrypted cache holds
#    its float packings too, so that there is a cache file to check; docs/weights_cache.md)
export TFCC_ENC_CACHE_FLOAT=1
start_server "$TMP/log" --config "$TMP/config.yaml" --poll-ms 100 --no-access-log || { bad "start"; finish; }
expect_http 200 "enc ready" GET /v2/models/enc/ready
expect_http 200 "env ready" GET /v2/models/env/ready
serves enc "$TMP/ref_w1" && ok || bad "enc does not serve the plain model's outputs"
serves env "$TMP/ref_w1" && ok || bad "env (key_env) does not serve the plain model's outputs"
[ "$(head -c 7 "$WC/enc-1.wc" 2>/dev/null)" = TFCCENC ] && ok || bad "no encrypted weights cache: $(ls -la "$WC")"
# 3. no key: not loaded, the log says how to give one
[ "$(http GET /v2/models/nokey/ready)" != 200 ] && ok || bad "a container without a key is ready"
grep -q "MODEL_LOAD_FAILED model=nokey version=1: .*nokey.tfcce: an encrypted model (tfcc encrypt container, key id 'srv-test'): give its key with key_file or key_env in the model's config" "$TMP/log" && ok ||
  bad "no MODEL_LOAD_FAILED line for the model without a key: $(grep nokey "$TMP/log" | tail -2)"

# 2. a rewritten container under load: picked up, the whole model swapped
client load --port "$PORT" --model enc --threads 4 --until-file "$TMP/stop" --expect "$TMP/ref_w1" \
  --expect "$TMP/ref_w2" "$TMP/in.npy" >"$TMP/load.txt" 2>&1 &
load_pid=$!
sleep 0.5
publish "$TMP/w2.tflite" "$TMP/k.bin"
serves enc "$TMP/ref_w2" && ok || bad "the rewritten container does not serve"
[ "$(grep -c "MODEL_LOADED model=enc version=1 path=$TMP/enc.tfcce" "$TMP/log")" -ge 2 ] && ok || bad "no MODEL_LOADED line for the swap"
grep -q "MODEL_UPDATED model=enc" "$TMP/log" && bad "an encrypted model was hot-updated in place" || ok
# 3. another key: refused, the loaded version keeps serving
publish "$TMP/w1.tflite" "$TMP/k2.bin"
for _ in $(seq 1 100); do grep -q "MODEL_LOAD_FAILED model=enc" "$TMP/log" && break; sleep 0.1; done
grep -q "MODEL_LOAD_FAILED model=enc version=1: .*enc.tfcce: wrong key" "$TMP/log" && ok ||
  bad "the wrong key is not named: $(grep 'model=enc' "$TMP/log" | tail -2)"
serves enc "$TMP/ref_w2" && ok || bad "the loaded version stopped serving after a refused container"
touch "$TMP/stop"
wait $load_pid && ok || bad "requests failed during the swaps: $(cat "$TMP/load.txt")"
stop_server && ok || bad "exit status after SIGTERM"

# the command-line form: tfcc serve MODEL.tfcce --key-env VAR (name without .tfcce)
enc "$TMP/w2.tflite" "$TMP/cli.tfcce" "$TMP/k.bin"
start_server "$TMP/log2" "$TMP/cli.tfcce" --key-env TFCC_SRV_TEST_KEY --no-access-log || { bad "start (command line)"; finish; }
expect_http 200 "cli ready" GET /v2/models/cli/ready
serves cli "$TMP/ref_w2" && ok || bad "the command-line container does not serve"
stop_server && ok || bad "exit status after SIGTERM"

# 5. <path>/<version>/model.tfcce: a config model's versions, then a repository of models
mkdir -p "$TMP/encdir/1" "$TMP/encdir/2" "$TMP/repo/encm/1" "$TMP/repo/both/1"
enc "$TMP/w1.tflite" "$TMP/encdir/1/model.tfcce" "$TMP/k.bin"
enc "$TMP/w2.tflite" "$TMP/encdir/2/model.tfcce" "$TMP/k.bin"
enc "$TMP/w2.tflite" "$TMP/repo/encm/1/model.tfcce" "$TMP/k.bin"
cp "$TMP/w1.tflite" "$TMP/repo/both/1/model.tflite"
enc "$TMP/w2.tflite" "$TMP/repo/both/1/model.tfcce" "$TMP/k.bin"
cat >"$TMP/dir.yaml" <<YAML
models:
  - name: encdir
    path: $TMP/encdir
    key_file: $TMP/k.bin
YAML
start_server "$TMP/log3" --config "$TMP/dir.yaml" --no-access-log || { bad "start (version directories)"; finish; }
expect_http 200 "encdir ready" GET /v2/models/encdir/ready
serves encdir "$TMP/ref_w2" && ok || bad "the newest version's model.tfcce does not serve"
grep -q "MODEL_LOADED model=encdir version=2 path=$TMP/encdir/2/model.tfcce" "$TMP/log3" && ok ||
  bad "no MODEL_LOADED line for encdir/2/model.tfcce: $(grep encdir "$TMP/log3" | tail -2)"
stop_server && ok || bad "exit status after SIGTERM"
start_server "$TMP/log4" --model-repository "$TMP/repo" --key-file "$TMP/k.bin" --no-access-log ||
  { bad "start (repository)"; finish; }
expect_http 200 "encm ready" GET /v2/models/encm/ready
serves encm "$TMP/ref_w2" && ok || bad "the repository's model.tfcce does not serve"
grep -q "MODEL_LOAD_FAILED model=both version=1: $TMP/repo/both/1/model.tflite: a key was given, but this is not an encrypted model" "$TMP/log4" && ok ||
  bad "model.tflite is not the one loaded where both files are: $(grep both "$TMP/log4" | tail -2)"
stop_server && ok || bad "exit status after SIGTERM"

# 4. both keys: a config error naming the line
cat >"$TMP/both.yaml" <<YAML
models:
  - name: enc
    path: $TMP/enc.tfcce
    key_file: $TMP/k.bin
    key_env: TFCC_SRV_TEST_KEY
YAML
expect_rc 2 "key_file and key_env" -- "$TFCC" serve --config "$TMP/both.yaml" --port 0
expect_in "$TMP/err" "both.yaml:5: models[0].key_env: give key_file or key_env, not both" "both keys named"
finish
