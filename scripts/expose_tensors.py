"""expose_tensors.py IN.tflite OUT.tflite [--dtypes float32,int8,...]: a copy of a model whose
subgraph 0 outputs are the original outputs followed by every tensor of those dtypes (float32
unless told) an operator writes (in operator order), so
that TensorFlow Lite (tflite-ref) and `tfcc run` both write the intermediate tensors and a trace
can find the first operator where two builds part (exact3: the DTLN trace, docs/model_sweep.md).
Appends a new outputs vector at the end of the file and points subgraph 0's outputs field at it
(FlatBuffer offsets point forward, so nothing else moves). Drops the model's signature_defs
(its vtable slot set to absent): LiteRT.js refuses a model whose signature lists other outputs
than the subgraph ("Signature has incorrect number of input/outputs"), and tflite-ref's auto
engine then falls back to the classic interpreter, whose arithmetic differs (act59: an int8
SUM that wraps there and saturates in LiteRT.js). Writes OUT.json: one
[output index, tensor index, tensor name, operator index, operator name] row per output.
Standard library only (modelgen's reader helpers)."""
import json, os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "modelgen"))
from tflite_read import _Buf
import tflite_schema as T
_OP = {code: name for name, code in T.BUILTIN.items()}

def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--dtypes")]
    want = {0}  # float32
    for i, a in enumerate(sys.argv):
        if a.startswith("--dtypes"):
            names = a.split("=", 1)[1] if "=" in a else sys.argv[i + 1]
            want = {T.DTYPE_BY_NAME[n] for n in names.split(",")}
            if "=" not in a: args.remove(names)
    data = bytearray(open(args[0], "rb").read())
    b = _Buf(bytes(data))
    root = b.table(b.u32(0))
    def vec(f, fid):
        p = b.ref(f[fid]); n = b.u32(p); return [p + 4 + 4 * i for i in range(n)]
    codes = []
    for p in vec(root, 1):
        oc = b.table(b.ref(p))
        dep = b.scalar(oc, 0, "b", 0); bc = b.scalar(oc, 3, "i", 0)
        codes.append(max(dep, bc))
    sg_pos = b.ref(vec(root, 2)[0]); sg = b.table(sg_pos)
    tensors = [b.table(b.ref(p)) for p in vec(sg, 0)]
    def tname(t):
        if 3 not in t: return ""
        p = b.ref(t[3]); n = b.u32(p); return bytes(data[p + 4:p + 4 + n]).decode()
    outs = [struct.unpack_from("<i", data, p)[0] for p in vec(sg, 2)]
    info = [(i, o, tname(tensors[o]), -1, "model output") for i, o in enumerate(outs)]
    for k, p in enumerate(vec(sg, 3)):
        op = b.table(b.ref(p))
        opname = _OP.get(codes[b.scalar(op, 0, "I", 0)], "?")
        if 2 not in op: continue
        for q in vec(op, 2):
            ti = struct.unpack_from("<i", data, q)[0]
            if ti < 0 or ti in outs: continue
            if b.scalar(tensors[ti], 1, "b", 0) not in want: continue
            info.append((len(outs), ti, tname(tensors[ti]), k, opname)); outs.append(ti)
    while len(data) % 4: data.append(0)
    at = len(data)
    data += struct.pack("<I", len(outs)) + b"".join(struct.pack("<i", o) for o in outs)
    fpos = sg[2]
    struct.pack_into("<I", data, fpos, at - fpos)
    rt = struct.unpack_from("<I", data, 0)[0]
    vt = rt - struct.unpack_from("<i", data, rt)[0]
    if 4 + 2 * 7 < struct.unpack_from("<H", data, vt)[0]:  # Model.signature_defs: field 7
        struct.pack_into("<H", data, vt + 4 + 2 * 7, 0)
    open(args[1], "wb").write(data)
    json.dump(info, open(args[1] + ".json", "w"))
    print(len(outs), "outputs")

main()
