"""TensorFlow Lite's output shapes for empty inputs (tests/ops/test_empty_dims.c, fuzz55).

test_empty_dims gives each input of every conformance case a zero dimension and, with
TFCC_EMPTY_DIMS_DUMP=FILE, writes the "small" variants that ran: "case input dim shapes...".
This script samples them (one variant of every STEP-th case, chosen by the case's name), writes
each case's model with that input shape (every input shaped as it too, as the test resizes
them), runs the model on empty inputs (the others: the case's own .npy) with the tflite-ref
oracle, and writes the output shapes TFLite gives, in the test's notation, to OUT. Variants TFLite
refuses are left out (and counted); tfcc may run what TFLite refuses. The oracle's classic
interpreter (--engine tfweb) runs them: LiteRT.js cannot make a buffer of no bytes.

  TFCC_EMPTY_DIMS_DUMP=/tmp/dump.txt build/tests/ops_test_empty_dims   (or any build)
  python3 modelgen/make_empty_dims_ref.py /tmp/dump.txt tests/ops/conformance \\
      /tmp/tflite-ref/run_ref.mjs tests/ops/data/empty_dims/tflite_shapes.txt
Standard library only (npy.py, tflite_read's FlatBuffer walker).
"""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402
import tflite_read  # noqa: E402

STEP = 8

# Sampled variants whose oracle answer is not TFLite's rule, with why (checked by hand, fuzz55).
# The classic interpreter of the oracle's tfweb engine is an older TFLite release.
NOT_THE_RULE = {
    # begin [1, 0, 1], size [1, -1, 2] on [2, 0, 4]: size -1 is the rest of the axis, 0 (slice.cc
    # CalculateOutputShapeVector); tfweb answers the file's stored [1, 3, 2] on an empty input
    "slice_i8": "tfweb keeps the stored output shape [1, 3, 2] of an empty input",
    # StridedSliceOptions.offset (end = begin + end) is newer than tfweb's interpreter, which
    # ignores it: on the case's own input it gives [2, 2, 2], not the reference's [2, 3, 4]
    "strided_slice_i8_offset": "tfweb ignores StridedSliceOptions.offset",
}


def input_shapes(data):
    """[(position of the shape vector's elements, shape, signature position or None)] of
    subgraph 0's inputs."""
    b = tflite_read._Buf(data)
    root = b.table(b.u32(0))
    sg = b.tables(root, 2)[0]
    tensors = b.tables(sg, 0)
    out = []
    for t in b.scalars(sg, 1, "i"):
        tt = tensors[t]
        v = b.vector(tt, 0)
        shape = list(struct.unpack_from("<%di" % v[1], data, v[0])) if v else []
        sig = b.vector(tt, 7)
        out.append((v[0] if v else None, shape, sig[0] if sig and sig[1] == len(shape) else None))
    return out


def shapes_text(shapes):
    return " ".join("[" + ",".join(str(d) for d in s) + "]" for s in shapes)


def main():
    dump, cdir, oracle, out = sys.argv[1:5]
    by_case = {}
    for line in open(dump):
        if line.startswith("#"):
            continue
        name, inp, dim = line.split()[:3]
        by_case.setdefault(name, []).append((int(inp), int(dim)))
    names = sorted(by_case)
    lines, refused = [], 0
    for ci, name in enumerate(names):
        if ci % STEP:
            continue
        if name in NOT_THE_RULE:
            print("left out: %s (%s)" % (name, NOT_THE_RULE[name]))
            continue
        variants = by_case[name]
        pick = int(hashlib.sha256(name.encode()).hexdigest(), 16) % len(variants)
        inp, dim = variants[pick]
        data = bytearray(open(os.path.join(cdir, name + ".tflite"), "rb").read())
        ins = input_shapes(data)
        shape = ins[inp][1]
        with tempfile.TemporaryDirectory() as tmp:
            args = []
            for j, (pos, s, sig) in enumerate(ins):
                if s == shape:
                    ns = list(s)
                    ns[dim] = 0
                    struct.pack_into("<%di" % len(ns), data, pos, *ns)
                    if sig is not None:
                        struct.pack_into("<%di" % len(ns), data, sig, *ns)
                    dtype, _, _ = npy.loads(open(os.path.join(cdir, "%s.in%d.npy" % (name, j)),
                                                 "rb").read())
                    p = os.path.join(tmp, "in%d.npy" % j)
                    open(p, "wb").write(npy.dumps(dtype, ns, []))
                    args.append(p)
                else:
                    args.append(os.path.join(cdir, "%s.in%d.npy" % (name, j)))
            model = os.path.join(tmp, "m.tflite")
            open(model, "wb").write(data)
            # the classic interpreter (tfweb): LiteRT.js cannot make a buffer of no bytes
            r = subprocess.run(["node", oracle, model, os.path.join(tmp, "o")] + args +
                               ["--engine", "tfweb", "--quiet"], capture_output=True, text=True,
                               timeout=120)
            info = None
            for ln in r.stdout.splitlines():
                if ln.startswith("{"):
                    info = json.loads(ln)
            if r.returncode != 0 or not info:
                refused += 1
                why = [ln for ln in (r.stderr + r.stdout).splitlines() if "ERROR" in ln][-1:]
                print("refused by TFLite: %s input %d dim %d: %s" % (name, inp, dim, why))
                continue
            shapes = [o["shape"] for o in info["outputs"]]
            lines.append("%s %d %d %s" % (name, inp, dim, shapes_text(shapes)))
    with open(out, "w") as f:
        f.write("# TensorFlow Lite's output shapes with an input given a zero dimension "
                "(modelgen/make_empty_dims_ref.py)\n# <case> <input> <dim> <output shapes>\n")
        f.write("\n".join(lines) + "\n")
    print("%d variants written, %d refused by TFLite" % (len(lines), refused))


if __name__ == "__main__":
    main()
