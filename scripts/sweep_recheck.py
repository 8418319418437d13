#!/usr/bin/python3
"""Re-runs the files of earlier model sweeps on the inputs those sweeps stored, and says which
outputs the current tfcc changed since: a regression net over every swept real model.

scripts/sweep_models.py leaves, per model, WORK/NAME/in*.npy (the inputs), WORK/NAME/ref/ (the
TensorFlow Lite outputs; ref_*/ for the copies it also asked LiteRT.js about) and WORK/NAME/tfcc/
(tfcc's outputs then). This script runs `tfcc run` on the same inputs again and compares, per
output:
  same       bit for bit what tfcc gave then (NaN payloads included);
  closer     changed, and no farther from any stored TensorFlow Lite output than before;
  farther    changed, and farther from every stored TensorFlow Lite output than before (the
             tolerance of sweep_models.py still met: a drift to look at, not a failure);
  inexact    changed, and no longer bit-identical with a stored TensorFlow Lite output it was
             bit-identical with (still within tolerance: an exactness regression to look at);
  MISMATCH   changed, and out of sweep_models.py's tolerance against every stored reference
             that the earlier output met;
  REFUSED    tfcc no longer runs the model (or gives another number of outputs).
A model whose earlier run failed or whose files are missing is listed as skipped.

Usage (Debian's Python, which has NumPy):
  /usr/bin/python3 scripts/sweep_recheck.py --tfcc build/tools/tfcc \
      --pair MODELS_DIR:WORK_DIR [--pair ...] [--timeout 120] [--json OUT.json] [--only NAME ...]
  /usr/bin/python3 scripts/sweep_recheck.py --tfcc build/tools/tfcc --net /work/net
--net DIR is the whole regression net in one: every DIR/BATCH/work* folder, its models taken from
every DIR/BATCH/raw* folder beside it (a batch's names are unique, so raw/, raw_new/, raw_late/
share one work/; a raw* folder whose files were never swept, such as raw_movidnn/, adds no rows).
MODELS_DIR is searched recursively for NAME.tflite; where two files have that name (two
repositories' mnist_float), the one in the folder of WORK_DIR's part is taken (work_m3: m3,
work_a: raw_a, work_m1: raw1). --custom-ops LIB.so as in sweep_models.py. Exit status 1 when any model is MISMATCH or
REFUSED, else 0. Standard library and NumPy only."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_models import compare  # noqa: E402  (the sweep's tolerances)


def out_index(path):
    return int(os.path.basename(path).split("_")[0])


def stored_outputs(d):
    return sorted(glob.glob(os.path.join(d, "*.npy")), key=out_index)


def ref_dirs(work):
    """Every stored TensorFlow Lite output folder of one model: ref/ and the copies' ref_*/."""
    return [d for d in sorted(glob.glob(os.path.join(work, "ref*"))) if os.path.isdir(d)]


def ref_output(d, i):
    f = os.path.join(d, "output_%d.npy" % i)
    return np.load(f) if os.path.exists(f) else None


def bits_equal(a, b):
    if a.shape != b.shape and a.size == b.size:
        b = b.reshape(a.shape)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def distance(ref, got):
    """Largest |got - ref| (NaN against NaN and equal infinities count 0), or None where the two
    cannot be compared."""
    if ref.size != got.size or ref.dtype != got.dtype:
        return None
    r = ref.reshape(-1).astype(np.float64)
    g = got.reshape(-1).astype(np.float64)
    if r.size == 0:
        return 0.0
    both_nan = np.isnan(r) & np.isnan(g)
    same_inf = np.isinf(r) & (r == g)
    err = np.where(both_nan | same_inf, 0.0, np.abs(g - r))
    return float(np.nan_to_num(err, nan=np.inf).max())


def judge(work, old, new, i):
    """One changed output against every stored reference: (verdict, text)."""
    notes, closer, farther, broke, left_exact = [], False, False, False, False
    for d in ref_dirs(work):
        ref = ref_output(d, i)
        if ref is None:
            continue
        d_old, d_new = distance(ref, old), distance(ref, new)
        ok_old, _ = compare(ref, old)
        ok_new, text = compare(ref, new)
        if d_old is None or d_new is None:
            continue
        notes.append("%s: %.3g -> %.3g" % (os.path.basename(d), d_old, d_new))
        if ok_old and not ok_new:
            broke = True
        elif d_old == 0 and d_new > 0:
            left_exact = True
        elif d_new <= d_old:
            closer = True
        else:
            farther = True
    if broke and not closer:
        return "MISMATCH", "; ".join(notes)
    if left_exact:
        return "inexact", "; ".join(notes)
    if closer:
        return "closer", "; ".join(notes)
    if farther:
        return "farther", "; ".join(notes)
    return "changed", "no reference to compare"


def folder_key(folder):
    """work_m3, m3 -> "3"; work_a, raw_a -> "a"; raw1, work_m1 -> "1": a work folder and the
    model folder of the same part of a sweep have the same key."""
    for prefix in ("work", "raw", "_", "m"):
        if folder.startswith(prefix) and len(folder) > len(prefix):
            folder = folder[len(prefix):]
    return folder


def recheck(name, model, work, args):
    inputs = sorted(glob.glob(os.path.join(work, "in*.npy")),
                    key=lambda p: int(os.path.basename(p)[2:].split(".")[0]))
    old = stored_outputs(os.path.join(work, "tfcc"))
    if not old or not os.path.isdir(os.path.join(work, "ref")):
        return {"model": name, "verdict": "skipped", "text": "no earlier tfcc or TFLite output"}
    tmp = tempfile.mkdtemp(prefix="tfcc_recheck_")
    try:
        cmd = [args.tfcc, "run", model, "-o", tmp, "-t", "1"]
        for lib in args.custom_ops or []:
            cmd += ["--custom-ops", lib]
        for f in inputs:
            cmd += ["-i", f]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            rc, log = p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            rc, log = 124, "timed out after %d s" % args.timeout
        if rc != 0:
            msg = " ".join(ln.strip() for ln in log.splitlines() if ln.strip())[:200]
            return {"model": name, "verdict": "REFUSED", "text": msg}
        new = stored_outputs(tmp)
        if len(new) != len(old):
            return {"model": name, "verdict": "REFUSED",
                    "text": "%d outputs, %d before" % (len(new), len(old))}
        worst, texts = "same", []
        rank = {"same": 0, "closer": 1, "changed": 2, "farther": 3, "inexact": 4, "MISMATCH": 5}
        for i, (fo, fn) in enumerate(zip(old, new)):
            a, b = np.load(fo), np.load(fn)
            if bits_equal(a, b):
                continue
            v, text = judge(work, a, b, i)
            texts.append("out%d %s (%s)" % (i, v, text))
            if rank[v] > rank[worst]:
                worst = v
        return {"model": name, "verdict": worst, "text": "; ".join(texts)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def net_pairs(net):
    """--net DIR: (the raw* folders, work folder) of every batch folder under DIR."""
    pairs = []
    for batch in sorted(glob.glob(os.path.join(net, "*", ""))):
        models = [d for d in sorted(glob.glob(os.path.join(batch, "raw*"))) if os.path.isdir(d)]
        for work in sorted(glob.glob(os.path.join(batch, "work*"))):
            if os.path.isdir(work):
                pairs.append((models, work))
    return pairs


def model_index(models_dirs):
    index = {}
    for models_dir in models_dirs:
        pattern = os.path.join(models_dir, "**", "*.tflite")
        for f in sorted(glob.glob(pattern, recursive=True)):
            index.setdefault(os.path.splitext(os.path.basename(f))[0], []).append(f)
    return index


def count(rows):
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfcc", default="build/tools/tfcc")
    ap.add_argument("--pair", action="append", default=[], help="MODELS_DIR:WORK_DIR")
    ap.add_argument("--net", action="append", default=[],
                    help="DIR: every DIR/BATCH/work* with the raw* folders beside it")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--json")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--custom-ops", action="append")
    args = ap.parse_args()
    pairs = []
    for pair in args.pair:
        models_dir, work_dir = pair.split(":", 1)
        pairs.append(([models_dir], work_dir))
    for net in args.net:
        found = net_pairs(net)
        if not found:
            print("sweep_recheck.py: --net %s: no BATCH/work* folder under it" % net,
                  file=sys.stderr)
            return 2
        pairs += found
    if not pairs:
        ap.error("give --pair MODELS_DIR:WORK_DIR or --net DIR")
    rows = []
    for models_dirs, work_dir in pairs:
        index = model_index(models_dirs)
        suffix = folder_key(os.path.basename(os.path.normpath(work_dir)))
        pair_rows = []
        for name in sorted(os.listdir(work_dir)):
            work = os.path.join(work_dir, name)
            if not os.path.isdir(work) or (args.only and name not in args.only):
                continue
            found = index.get(name, [])
            mine = [f for f in found if folder_key(os.path.basename(os.path.dirname(f))) == suffix]
            model = (mine or found or [None])[0]
            if model is None:
                row = {"model": name, "verdict": "skipped", "text": "no %s.tflite" % name}
            else:
                row = recheck(name, model, work, args)
            row["work"] = work
            pair_rows.append(row)
            print("%-8s %s %s" % (row["verdict"], name, row["text"][:160]), flush=True)
        if len(pairs) > 1:
            totals = sorted(count(pair_rows).items())
            print("%s: " % work_dir + ", ".join("%s %d" % kv for kv in totals))
        rows += pair_rows
    counts = count(rows)
    print("totals: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 1 if counts.get("MISMATCH") or counts.get("REFUSED") else 0


if __name__ == "__main__":
    sys.exit(main())
