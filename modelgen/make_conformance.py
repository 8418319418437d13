#!/usr/bin/env python3
"""Writes the operator conformance data set: for each case of op_cases.py
  <case>.tflite, <case>.in<i>.npy (seeded random inputs) and <case>.out<i>.npy
(the outputs of TensorFlow Lite itself, run by the tflite-ref oracle), plus
cases.txt: one line per case "name inputs outputs exact|float"; cases TFLite
rejects are dropped and listed as comments.

usage: python3 modelgen/make_conformance.py --out tests/ops/conformance
          [--oracle /tmp/tflite-ref/run_ref.mjs] [--jobs 2] [--only SUBSTRING ...]
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402
import tflite_schema as S  # noqa: E402
import op_cases  # noqa: E402
import seq_cases  # noqa: E402


def run_case(case, out_dir, oracle, engine):
    model, feeds = case.build()
    mpath = os.path.join(out_dir, case.name + ".tflite")
    with open(mpath, "wb") as f:
        f.write(model)
    in_paths = []
    for i, (dtype, shape, values) in enumerate(feeds):
        p = os.path.join(out_dir, "%s.in%d.npy" % (case.name, i))
        npy.save(p, dtype, shape, values)
        in_paths.append(p)
    ref = getattr(case, "reference", None)
    if ref is not None:  # ops: outputs computed in Python where no TFLite build is the reference
        for i, (key, values) in enumerate(zip(case.outputs, ref(case, feeds))):
            t = case.tensors[key]
            npy.save(os.path.join(out_dir, "%s.out%d.npy" % (case.name, i)), S.DTYPE_NAME[t.dtype], t.shape, values)
        return None
    tmp = tempfile.mkdtemp(prefix="tfcc_conf_")
    try:
        # a case may name its engine (LiteRT.js leaves dynamic outputs unread: tfweb for those)
        engine = getattr(case, "engine", None) or engine
        if engine == "auto" and case.name.startswith(seq_cases.TFWEB_PREFIXES):
            engine = "tfweb"  # variable tensors: LiteRT.js rejects them
        # spfc60: a case may name a twin model that TFLite runs right, on the same inputs (FULLY_CONNECTED
        # reading sparse weights itself: both engines' XNNPACK reads the stored values as dense)
        twin = getattr(case, "reference_twin", None)
        if twin is not None:
            mpath = os.path.join(tmp, "twin.tflite")
            with open(mpath, "wb") as f:
                f.write(twin())
        cmd = ["node", oracle, mpath, tmp] + in_paths + ["--engine", engine]  # no --quiet: its log is read below
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        # LiteRT.js logs a failed prepare / invoke and still exits 0 with unwritten outputs
        silent = [ln for ln in (r.stderr or "").splitlines()
                  if "Failed to invoke" in ln or "Failed to allocate tensors" in ln]
        if r.returncode == 0 and silent:
            errs = [ln for ln in r.stderr.splitlines() if ln.startswith("ERROR:")]
            return (errs[0] if errs else silent[0]).strip()[:300]
        if r.returncode != 0:
            lines = [ln for ln in (r.stderr or "").splitlines() if ln.strip()]
            errs = [ln for ln in lines if ln.startswith("ERROR:") and "WebGPU" not in ln]
            why = errs[0] if errs else (lines[-1] if lines else "?")
            return why.strip()[:300]
        for i, key in enumerate(case.outputs):
            src = os.path.join(tmp, "output_%d.npy" % i)
            dtype, shape, _ = npy.load(src)
            want = case.tensors[key].shape
            if list(shape) != list(want) and not (list(shape) == [] and want == [1]):
                return "output %d shape %s, the case declares %s" % (i, list(shape), want)
            # builtin_only: the classic interpreter's builtin hybrid kernels made the output,
            # which tfcc matches in REFERENCE mode only: kept beside the other such outputs
            # (tests/ops/hybrid_builtin, checked by ops.test_hybrid), not listed in cases.txt
            dst = out_dir
            if getattr(case, "builtin_only", False):
                dst = os.path.join(out_dir, "..", "hybrid_builtin")
            shutil.copyfile(src, os.path.join(dst, "%s.out%d.npy" % (case.name, i)))
        return None
    except subprocess.TimeoutExpired:
        return "oracle timed out"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def remove_case_files(out_dir, name):
    for fn in os.listdir(out_dir):
        if fn == name + ".tflite" or (fn.startswith(name + ".in") or fn.startswith(name + ".out")) and fn.endswith(".npy"):
            os.remove(os.path.join(out_dir, fn))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--oracle", default="/tmp/tflite-ref/run_ref.mjs")
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="only cases whose name contains one of these")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cases = op_cases.cases()
    if args.only:
        cases = [c for c in cases if any(s in c.name for s in args.only)]
    else:
        for fn in os.listdir(args.out):
            if fn.endswith(".tflite") or fn.endswith(".npy"):
                os.remove(os.path.join(args.out, fn))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(run_case, c, args.out, args.oracle, args.engine): c for c in cases}
        for n, fut in enumerate(concurrent.futures.as_completed(futs)):
            c = futs[fut]
            try:
                results[c.name] = fut.result()
            except Exception as e:  # a case that cannot even be built is a bug here
                results[c.name] = "modelgen error: %r" % e
            if results[c.name]:
                print("[%d/%d] dropped %s: %s" % (n + 1, len(cases), c.name, results[c.name]), flush=True)
    kept, dropped = [], []
    for c in cases:
        if results[c.name] is None:
            kept.append(c)
        else:
            dropped.append((c.name, results[c.name]))
            remove_case_files(args.out, c.name)
    index = os.path.join(args.out, "cases.txt")
    old = {}
    if args.only and os.path.exists(index):  # partial run: keep the other cases' lines
        for line in open(index):
            if line.strip() and not line.startswith("#"):
                old[line.split()[0]] = line.rstrip("\n")
    for c in kept:
        if getattr(c, "builtin_only", False):
            old.pop(c.name, None)
            continue
        old[c.name] = "%s %d %d %s" % (c.name, len(c.inputs), len(c.outputs), c.tolerance())
    for name, _ in dropped:
        old.pop(name, None)
    with open(index, "w") as f:
        f.write("# tfcc operator conformance cases, written by modelgen/make_conformance.py.\n")
        f.write("# <name> <inputs> <outputs> <exact|float>: <name>.tflite, <name>.in<i>.npy, and\n")
        f.write("# <name>.out<i>.npy = the outputs of TensorFlow Lite (tflite-ref oracle) on those inputs.\n")
        f.write("# exact: quantized/int/bool outputs must be byte-identical; float: |d| <= 1e-5 + 1e-5*|ref|.\n")
        for name, why in dropped:
            f.write("# dropped %s: TFLite rejected it: %s\n" % (name, why.replace("\n", " ")))
        for name in sorted(old):
            f.write(old[name] + "\n")
    print("%d cases written, %d dropped" % (len(kept), len(dropped)))


if __name__ == "__main__":
    main()
