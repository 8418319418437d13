"""expose_tensors.py IN.tflite OUT.tflite: a copy of a model whose subgraph 0 outputs are the
original outputs followed by every float32 tensor an operator writes (in operator order), so
that TensorFlow Lite (tflite-ref) and `tfcc run` both write the intermediate tensors and a trace
can find the first operator where two builds part (exact3: the DTLN trace, docs/model_sweep.md).
Appends a new outputs vector at the end of the file and points subgraph 0's outputs field at it
(FlatBuffer offsets point forward, so nothing else moves). Writes OUT.json: one
[output index, tensor index, tensor name, operator index, operator name] row per output.
Standard library only (modelgen's reader helpers)."""
import json, os, struct, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "modelgen"))
from tflite_read import _Buf
import tflite_schema as T
_OP = {code: name for name, code in T.BUILTIN.items()}

def main():
    data = bytearray(open(sys.argv[1], "rb").read())
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
            if b.scalar(tensors[ti], 1, "b", 0) != 0: continue  # float32 only
            info.append((len(outs), ti, tname(tensors[ti]), k, opname)); outs.append(ti)
    while len(data) % 4: data.append(0)
    at = len(data)
    data += struct.pack("<I", len(outs)) + b"".join(struct.pack("<i", o) for o in outs)
    fpos = sg[2]
    struct.pack_into("<I", data, fpos, at - fpos)
    open(sys.argv[2], "wb").write(data)
    json.dump(info, open(sys.argv[2] + ".json", "w"))
    print(len(outs), "outputs")

main()
