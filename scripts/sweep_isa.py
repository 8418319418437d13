#!/usr/bin/python3
"""Runs the same real models through tfcc in several configurations (ISA caps, thread counts,
other builds: an aarch64 binary under qemu-user, the WebAssembly package in Node) on the same
seeded inputs and compares every configuration's outputs with a baseline run (tfcc at this
CPU's best ISA, 1 thread). Cheap: TensorFlow Lite (the tflite-ref oracle) is asked only where
a configuration's outputs differ from the baseline's beyond what the model kind allows, to say
which of the two is right.

  integer / bool outputs    bit-identical to the baseline (tfcc's quantized kernels claim
                            bit-exactness across ISAs and thread counts)
  float outputs             bit-identical counted; within 1e-3 + 1e-3 |baseline| passes;
                            beyond that both runs are compared with TensorFlow Lite
                            (scripts/sweep_models.py's tolerances) and the verdict says which one
                            departs
  a run that fails is "FAILS", one past --timeout "timeout" (the scalar kernels of a large
  model)

Usage (Debian's Python, which has NumPy):
  /usr/bin/python3 scripts/sweep_isa.py PATH ... [--tfcc build/tools/tfcc]
      [--config NAME[=SPEC]] ... [--work /tmp/sweep_isa] [--only SUBSTRING ...]
      [--sample N] [--kinds quant,hybrid,float] [--list FILE] [--timeout 120]
      [--jobs N] [--json OUT.json] [--markdown OUT.md] [--oracle /tmp/tflite-ref/run_ref.mjs]

PATH: .tflite files or folders searched recursively (paths with a component starting with
"work" or "ref" are skipped: earlier sweeps' rewritten copies); byte-identical files are
taken once (sha256). --list FILE: one model path a line (read after PATHs).
--config: a built-in NAME is ISA caps and thread counts joined by '+': generic, sse4, avx2,
avx512, tN (e.g. "avx2+t2"); NAME=SPEC gives its own SPEC, tokens "VAR=VALUE" (environment),
"-t N" (threads), and the rest a command that replaces --tfcc (called as CMD run MODEL -o DIR
-t N -i IN ...), e.g.
  --config "a64=QEMU_CPU=max qemu-aarch64 /tmp/tfcc-aarch64/tfcc"
  --config "wasm=node scripts/tfcc_wasm_run.mjs"
Defaults: generic, sse4, avx2, t2. The baseline is --tfcc, no environment, 1 thread; a model
the baseline refuses is listed and not run further.
--sample N: N models taken evenly from the (sorted) list, after --kinds filters by model kind:
"quant" (integer activations), "hybrid" (float activations, int8 weights), "float".
Inputs as scripts/sweep_models.py makes them (its make_input / shape_inputs), seeded by the
file's sha256. Prints one line per model and the counts per configuration.
Standard library and NumPy only."""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sweep_models as sm  # noqa: E402

ISAS = ("generic", "sse4", "avx2", "avx512")
INT_Q = (3, 7, 9)  # uint8, int16, int8


def model_kind(path):
    """'hybrid' (a float op input next to a constant int8 weight), 'quant' (an operator other
    than QUANTIZE / DEQUANTIZE with an int8 / uint8 / int16 output: integer arithmetic) or
    'float' (also fake-quantized files whose int8 tensors are only QUANTIZE -> DEQUANTIZE)."""
    with open(path, "rb") as fh:
        b = sm.Buf(fh.read())
    root = b.table(b.u32(0))
    codes = [max(b.scalar(oc, 0, "b"), b.scalar(oc, 3, "i")) for oc in b.tables(root, 1) or []]
    nonempty = set()
    for i, bt in enumerate(b.tables(root, 4)):
        v = b.vector(bt, 0)
        if (v and v[1] > 0) or b.scalar(bt, 1, "Q") > 1:
            nonempty.add(i)
    hybrid = quant = False
    for sg in b.tables(root, 2):
        tensors = b.tables(sg, 0)
        const = [b.scalar(t, 2, "I") in nonempty for t in tensors]
        types = [b.scalar(t, 1, "b") for t in tensors]
        for op in b.tables(sg, 3) or []:
            ins = [i for i in (b.scalars(op, 1, "i") or []) if 0 <= i < len(tensors)]
            outs = [i for i in (b.scalars(op, 2, "i") or []) if 0 <= i < len(tensors)]
            code = codes[b.scalar(op, 0, "I")] if b.scalar(op, 0, "I") < len(codes) else -1
            if code not in (6, 114) and outs and types[outs[0]] in INT_Q:  # DEQUANTIZE, QUANTIZE
                quant = True
            if ins and types[ins[0]] == 0 and any(types[i] == 9 and const[i] for i in ins[1:]):
                hybrid = True
    return "hybrid" if hybrid else "quant" if quant else "float"


def parse_config(text, tfcc):
    """(name, env dict, threads, command list)."""
    if "=" in text:  # NAME=SPEC (built-in names have no '=')
        name, spec = text.split("=", 1)
        env, threads, cmd = {}, 1, []
        toks = shlex.split(spec)
        k = 0
        while k < len(toks):
            t = toks[k]
            if not cmd and re.match(r"[A-Z_][A-Z0-9_]*=", t):
                env[t.split("=")[0]] = t.split("=", 1)[1]
            elif t in ("-t", "--threads") and k + 1 < len(toks):
                threads = int(toks[k + 1])
                k += 1
            else:
                cmd.append(t)
            k += 1
        return name, env, threads, cmd or [tfcc]
    env, threads = {}, 1
    for part in text.split("+"):
        if part in ISAS:
            env["TFCC_ISA"] = part
        elif part[:1] == "t" and part[1:].isdigit():
            threads = int(part[1:])
        else:
            raise SystemExit("--config %s: %s is neither an ISA (%s) nor tN" % (text, part, ", ".join(ISAS)))
    return text, env, threads, [tfcc]


def collect(paths, list_file):
    """[(path, sha256, name)], byte-identical files once; name: the path below a folder given,
    else below /tmp for files under it, else the file name (without .tflite)."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith(("work", "ref", "damaged")))
                files += [(os.path.join(root, n), os.path.relpath(os.path.join(root, n), p))
                          for n in sorted(names) if n.endswith(".tflite")]
        elif p.endswith(".tflite"):
            files.append((p, None))
    if list_file:
        with open(list_file) as fh:
            files += [(ln.strip(), None) for ln in fh if ln.strip()]
    seen, out = set(), []
    for f, name in files:
        try:
            with open(f, "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        if len(data) < 8 or data[4:8] != b"TFL3":
            continue
        h = hashlib.sha256(data).hexdigest()
        if h not in seen:
            seen.add(h)
            if name is None:
                name = os.path.relpath(f, "/tmp") if f.startswith("/tmp/") else os.path.basename(f)
            out.append((f, h, name[:-len(".tflite")] if name.endswith(".tflite") else name))
    return out


def run_tfcc(cmd, env, threads, model, files, out_dir, timeout):
    os.makedirs(out_dir, exist_ok=True)
    for old in glob.glob(os.path.join(out_dir, "*.npy")):
        os.remove(old)
    argv = cmd + ["run", model, "-o", out_dir, "-t", str(threads)]
    for f in files:
        argv += ["-i", f]
    e = dict(os.environ)
    e.pop("TFCC_ISA", None)
    e.update(env)
    t0 = time.time()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=e)
        rc, log = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, log = 124, "timed out after %d s" % timeout
    outs = sorted(glob.glob(os.path.join(out_dir, "*.npy")),
                  key=lambda p: int(os.path.basename(p).split("_")[0]))
    return rc, log, outs, time.time() - t0


def diff(base, got):
    """('exact' | 'close' | 'DIFF', text) of one output against the baseline's."""
    if base.shape != got.shape:
        return "DIFF", "shape %s vs %s" % (list(got.shape), list(base.shape))
    if base.dtype != got.dtype:
        return "DIFF", "dtype %s vs %s" % (got.dtype, base.dtype)
    if base.tobytes() == got.tobytes():
        return "exact", ""
    if base.dtype.kind == "f":
        b, g = base.astype(np.float64), got.astype(np.float64)
        same = (np.isnan(b) & np.isnan(g)) | (b == g)
        err = np.where(same, 0.0, np.abs(g - b))
        err = np.nan_to_num(err, nan=np.inf)
        bad = err > 1e-3 + 1e-3 * np.abs(np.nan_to_num(b))
        txt = "max |diff| %.3g, %.1f%% equal" % (float(err.max()), 100.0 * same.mean())
        return ("DIFF" if bad.any() else "close"), txt
    d = np.abs(got.astype(np.int64) - base.astype(np.int64))
    return "DIFF", "max |diff| %d, %d of %d differ" % (int(d.max()), int((d != 0).sum()), d.size)


def ask_oracle(model, files, work, n_out, args):
    """TFLite's outputs ([np.ndarray] or None): LiteRT.js, then the classic interpreter."""
    ref_dir = os.path.join(work, "tflite")
    os.makedirs(ref_dir, exist_ok=True)
    refs = [os.path.join(ref_dir, "output_%d.npy" % i) for i in range(n_out)]
    for engine in ([], ["--engine", "tfweb"]):
        for old in glob.glob(os.path.join(ref_dir, "*.npy")):
            os.remove(old)
        rc, _ = sm.run(sm.oracle_cmd(args) + [model, ref_dir] + files + engine, args.timeout * 3)
        if rc == 0 and all(os.path.exists(f) for f in refs):
            return [np.load(f) for f in refs], (engine[1] if engine else "litert")
    return None, ""


def sweep_one(model, sha, name, kind, configs, args):
    res = {"model": name, "path": model, "kind": kind, "sha256": sha, "configs": {}}
    work = os.path.join(args.work, name.replace("/", "__"))
    os.makedirs(work, exist_ok=True)
    ins, n_out, _ = sm.io_of(model)
    rng = np.random.default_rng(int(sha[:8], 16))
    files, fixed = [], sm.shape_inputs(model)
    for i, (tname, dtype, shape) in enumerate(ins):
        x = fixed[i] if i in fixed and dtype == "int32" else sm.make_input(rng, dtype, shape)
        if x is None:
            res["baseline"] = "no inputs: input %d is %s" % (i, dtype)
            return res
        f = os.path.join(work, "in%d.npy" % i)
        np.save(f, x)
        files.append(f)
    rc, log, base_outs, secs = run_tfcc([args.tfcc], {}, 1, model, files, os.path.join(work, "base"),
                                        args.timeout)
    res["baseline_s"] = round(secs, 2)
    if rc != 0 or not base_outs:
        res["baseline"] = "refused: " + " ".join(log.split())[:160]
        return res
    res["baseline"] = "runs"
    base = [np.load(f) for f in base_outs]
    oracle = None
    for cname, env, threads, cmd in configs:
        rc, log, outs, secs = run_tfcc(cmd, env, threads, model, files, os.path.join(work, cname),
                                       args.timeout)
        c = {"s": round(secs, 2)}
        res["configs"][cname] = c
        if rc == 124:  # the scalar kernels of a large model under a short --timeout
            c["verdict"], c["text"] = "timeout", log
            continue
        if rc != 0 or len(outs) != len(base):
            c["verdict"] = "FAILS"
            c["text"] = ("rc %d: " % rc) + " ".join(log.split())[-200:]
            continue
        worst, notes = "exact", []
        for i, (b, f) in enumerate(zip(base, outs)):
            v, t = diff(b, np.load(f))
            if v != "exact":
                notes.append("out%d %s %s" % (i, v, t))
            if v == "DIFF" or (v == "close" and worst == "exact"):
                worst = v
        c["verdict"], c["text"] = worst, "; ".join(notes)
        if worst == "DIFF":  # which one is right: TensorFlow Lite's outputs
            if oracle is None:
                oracle = ask_oracle(model, files, work, len(base), args)
            refs, engine = oracle
            if refs is None:
                c["text"] += "; TFLite: no result"
            else:
                for who, arrs in (("baseline", base), (cname, [np.load(f) for f in outs])):
                    oks = [sm.compare(r, a) for r, a in zip(refs, arrs)]
                    c["text"] += "; %s vs TFLite (%s): %s (%s)" % (
                        who, engine, "match" if all(o for o, _ in oks) else "MISMATCH",
                        ", ".join("out%d %s" % (i, t) for i, (_, t) in enumerate(oks)))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--tfcc", default="build/tools/tfcc")
    ap.add_argument("--config", action="append")
    ap.add_argument("--oracle", default="/tmp/tflite-ref/run_ref.mjs")
    ap.add_argument("--work", default="/tmp/sweep_isa")
    ap.add_argument("--list")
    ap.add_argument("--sample", type=int)
    ap.add_argument("--kinds")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=1, help="models run at once")
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    configs = [parse_config(c, os.path.abspath(args.tfcc) if os.path.exists(args.tfcc) else args.tfcc)
               for c in (args.config or ["generic", "sse4", "avx2", "t2"])]
    models = collect(args.paths, args.list)
    if args.only:
        models = [m for m in models if any(s in m[0] for s in args.only)]
    kinds = {}
    for path, _, _ in models:
        try:
            kinds[path] = model_kind(path)
            sm.io_of(path)  # what sweep_one reads first: a file without a subgraph 0 stops here
        except Exception:  # noqa: BLE001 (not a readable FlatBuffer)
            kinds[path] = "unreadable"
    if args.kinds:
        want = args.kinds.split(",")
        models = [m for m in models if kinds[m[0]] in want]
    if args.sample and args.sample < len(models):
        step = len(models) / args.sample
        models = [models[int(k * step)] for k in range(args.sample)]

    def one(item):
        path, sha, name = item
        if kinds[path] == "unreadable":
            return {"model": name, "path": path, "kind": "unreadable", "baseline": "unreadable",
                    "configs": {}}
        return sweep_one(path, sha, name, kinds[path], configs, args)

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(one, models):
            rows.append(r)
            cells = " ".join("%s:%s" % (k, v["verdict"]) for k, v in r["configs"].items())
            bad = [("%s: %s" % (k, v["text"])) for k, v in r["configs"].items() if v["verdict"] in ("DIFF", "FAILS")]
            print("%-60s %-7s %-10s %s %s" % (r["model"][:60], r["kind"], r["baseline"][:10], cells,
                                              " | ".join(bad)[:400]), flush=True)
            if args.json:  # written as it goes: a long sweep can be read while it runs
                with open(args.json, "w") as fh:
                    json.dump(rows, fh, indent=1)
    ran = [r for r in rows if r["baseline"] == "runs"]
    lines = ["%d models (%d quant, %d hybrid, %d float); the baseline runs %d" % (
        len(rows), sum(r["kind"] == "quant" for r in rows), sum(r["kind"] == "hybrid" for r in rows),
        sum(r["kind"] == "float" for r in rows), len(ran))]
    for cname, _, _, _ in configs:
        for kind in ("quant", "hybrid", "float"):
            vs = [r["configs"].get(cname, {}).get("verdict") for r in ran if r["kind"] == kind]
            if vs:
                lines.append("%-10s %-6s %4d: %d bit-identical, %d close, %d DIFF, %d fail, %d timeout" % (
                    cname, kind, len(vs), vs.count("exact"), vs.count("close"), vs.count("DIFF"),
                    vs.count("FAILS"), vs.count("timeout")))
    print("\n".join(lines))
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write("```\n%s\n```\n" % "\n".join(lines))
            fh.write("\n| model | kind | %s |\n|---|---|%s\n" % (
                " | ".join(c[0] for c in configs), "---|" * len(configs)))
            for r in ran:
                cells = []
                for c in configs:
                    v = r["configs"].get(c[0], {})
                    cells.append((v.get("verdict", "-") + (" " + v["text"] if v.get("text") else ""))
                                 .replace("|", "/")[:160])
                fh.write("| %s | %s | %s |\n" % (r["model"], r["kind"], " | ".join(cells)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
