#!/usr/bin/env bash
# scripts/sweep_recheck.py: earlier sweeps' stored inputs run again, each output compared with
# what tfcc gave then and with the stored TensorFlow Lite output. Tiny models made here with
# modelgen; the "earlier" outputs are written so that each verdict must come out: same (bit for
# bit), closer, farther (still within tolerance), inexact (bit-identical with TFLite before, not
# now, within tolerance), MISMATCH (out of tolerance where the earlier
# output was within), REFUSED (tfcc no longer runs it), skipped (no earlier output), and the
# file of the right folder taken where two folders hold a model of the same name; --net DIR over a
# net of batch folders (each batch's raw* folders sharing its work/, a batch's own file taken where
# two batches hold a model of the same name, a raw* folder never swept adding no rows).
# Needs Debian's Python with NumPy (TFCC_SWEEP_PYTHON names another; skips, 77, without it).
source "$(dirname "$0")/lib.bash"
SRC=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
PY=${TFCC_SWEEP_PYTHON:-/usr/bin/python3}
"$PY" -c 'import numpy' 2>/dev/null || { echo "SKIP: $PY with NumPy needed (sweep_recheck.py uses it)"; exit 77; }
S=$TMP/sweep
mkdir -p "$S/m1" "$S/m2" "$S/work_m1" "$S/work_m2"
"$PY" - "$SRC/modelgen" "$S" <<'PY' || { bad "modelgen did not write the models"; finish; }
import os, struct, sys
sys.path.insert(0, sys.argv[1])
import tflite_schema as T
root = sys.argv[2]

def relu(scale):
    m = T.Model()
    x, y = m.add_tensor("x", T.FLOAT32, [1, 8]), m.add_tensor("y", T.FLOAT32, [1, 8])
    if scale == 1.0:
        m.add_op("RELU", [x], [y])
    else:  # y = x * scale: another model of the same name in another folder
        c = m.add_tensor("c", T.FLOAT32, [1], data=T.pack(T.FLOAT32, [scale]))
        m.add_op("MUL", [x, c], [y])
    m.inputs, m.outputs = [x], [y]
    return T.serialize(m)

for name in ("a_same", "b_closer", "c_farther", "c_inexact", "d_mismatch", "f_skipped"):
    open("%s/m1/%s.tflite" % (root, name), "wb").write(relu(1.0))
# e_refused: the TFL3 identifier and a Model table holding only version 3 (no subgraph)
open("%s/m1/e_refused.tflite" % root, "wb").write(
    struct.pack("<I4sHHHHiI", 16, b"TFL3", 6, 8, 4, 0, 8, 3))
# g_twin: RELU in m1, x * 2 in m2; work_m2 must take m2's
open("%s/m1/g_twin.tflite" % root, "wb").write(relu(1.0))
open("%s/m2/g_twin.tflite" % root, "wb").write(relu(2.0))
PY
# the earlier sweep's folders: inputs, TFLite's outputs, tfcc's outputs (from numpy: the models
# are RELU and x * 2, so the exact outputs are known)
"$PY" - "$S" <<'PY' || { bad "the work folders were not written"; finish; }
import os, sys
import numpy as np
root = sys.argv[1]
x = np.array([[-1.5, -0.25, 0.0, 0.5, 1.0, 2.0, -3.0, 0.125]], np.float32)
y = np.maximum(x, 0)

def work(folder, name, ref, old):
    d = os.path.join(root, folder, name)
    os.makedirs(d + "/ref")
    np.save(d + "/in0.npy", x)
    np.save(d + "/ref/output_0.npy", ref.astype(np.float32))
    if old is not None:
        os.makedirs(d + "/tfcc")
        np.save(d + "/tfcc/0_y.npy", old.astype(np.float32))

work("work_m1", "a_same", y, y)
work("work_m1", "b_closer", y, y + 1e-4)       # then 1e-4 from TFLite, now 0
work("work_m1", "c_farther", y + 1e-4, y + 5e-5)  # then 5e-5 from TFLite, now 1e-4 (within)
work("work_m1", "c_inexact", y + 1e-4, y + 1e-4)  # then 0 from TFLite, now 1e-4 (within)
work("work_m1", "d_mismatch", y + 0.5, y + 0.5)  # then 0, now 0.5 (out of tolerance)
work("work_m1", "e_refused", y, y)
work("work_m1", "f_skipped", y, None)
work("work_m2", "g_twin", 2 * x, 2 * x)         # m2's x * 2, not m1's RELU
PY
expect_rc 1 "sweep_recheck.py over the folders" -- "$PY" "$SRC/scripts/sweep_recheck.py" \
  --tfcc "$TFCC" --pair "$S:$S/work_m1" --pair "$S:$S/work_m2" --json "$TMP/r.json"
for want in "same     a_same" "closer   b_closer" "farther  c_farther" "inexact  c_inexact" "MISMATCH d_mismatch" \
  "REFUSED  e_refused" "skipped  f_skipped" "same     g_twin" \
  "totals: MISMATCH 1, REFUSED 1, closer 1, farther 1, inexact 1, same 2, skipped 1"; do
  expect_in "$TMP/out" "$want" "verdict"
done
expect_in "$TMP/out" "ref: 0.0001 -> 0" "the distances of b_closer"
# without the failing two: exit 0
expect_rc 0 "sweep_recheck.py, the passing models only" -- "$PY" "$SRC/scripts/sweep_recheck.py" \
  --tfcc "$TFCC" --pair "$S:$S/work_m1" --only a_same b_closer c_farther f_skipped
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if len(r) == 8 and {x["verdict"] for x in r} == {"same","closer","farther","inexact","MISMATCH","REFUSED","skipped"} else 1)' "$TMP/r.json" && ok || bad "the JSON rows"
# --net: batch01 has raw/ and raw_new/ sharing work/ (RELU in both) and raw_apart/ never swept;
# batch02's raw/ holds x * 2 under batch01's name a; a folder without work/ adds nothing
N=$S/net
mkdir -p "$N/batch01/raw" "$N/batch01/raw_new" "$N/batch01/raw_apart" "$N/batch02/raw" "$N/notes"
cp "$S/m1/a_same.tflite" "$N/batch01/raw/a.tflite"
cp "$S/m1/a_same.tflite" "$N/batch01/raw_new/b.tflite"
cp "$S/m1/a_same.tflite" "$N/batch01/raw_apart/c.tflite"
cp "$S/m2/g_twin.tflite" "$N/batch02/raw/a.tflite"
"$PY" - "$N" <<'PY' || { bad "the net's work folders were not written"; finish; }
import os, sys
import numpy as np
root = sys.argv[1]
x = np.array([[-1.5, -0.25, 0.0, 0.5, 1.0, 2.0, -3.0, 0.125]], np.float32)
for batch, name, y in (("batch01", "a", np.maximum(x, 0)), ("batch01", "b", np.maximum(x, 0)),
                       ("batch02", "a", 2 * x)):
    d = os.path.join(root, batch, "work", name)
    os.makedirs(d + "/ref")
    os.makedirs(d + "/tfcc")
    np.save(d + "/in0.npy", x)
    np.save(d + "/ref/output_0.npy", y)
    np.save(d + "/tfcc/0_y.npy", y)
PY
expect_rc 0 "sweep_recheck.py --net" -- "$PY" "$SRC/scripts/sweep_recheck.py" --tfcc "$TFCC" --net "$N" \
  --json "$TMP/net.json"
for want in "$N/batch01/work: same 2" "$N/batch02/work: same 1" "totals: same 3"; do
  expect_in "$TMP/out" "$want" "--net verdicts"
done
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if [x["model"] for x in r] == ["a", "b", "a"] else 1)' "$TMP/net.json" && ok || bad "--net's rows: batch01's a and b, batch02's a"
expect_rc 2 "sweep_recheck.py --net over a folder with no batch" -- "$PY" "$SRC/scripts/sweep_recheck.py" \
  --tfcc "$TFCC" --net "$N/notes"
expect_in "$TMP/err" "no BATCH/work* folder under it" "--net's message"
finish
