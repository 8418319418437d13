"""Writes dyn_chain.tflite and its inputs: shapes fed as graph inputs, so tfcc must size tensors
while running, and nodes that read those tensors (dynamic too).
  y = RESHAPE(x, s)   s: int32[2] graph input
  z = MUL(y, y)       reads a dynamic tensor          -> output 0
  zs = SHAPE(z)       shape of a dynamic tensor       -> output 1
  f = FILL(s, 1.5)    dims fed as a graph input       -> output 2
  w = ADD(x, x)       static                          -> output 3
Run: python3 make_dyn_chain.py OUTDIR (modelgen from the source tree)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "modelgen"))
import npy  # noqa: E402
import tflite_schema as S  # noqa: E402

out = sys.argv[1]
m = S.Model(description="tfcc test: shapes fed at run time")
x = m.add_tensor("x", S.FLOAT32, [2, 6])
s = m.add_tensor("s", S.INT32, [2])
y = m.add_tensor("y", S.FLOAT32, [3, 4])
z = m.add_tensor("z", S.FLOAT32, [3, 4])
zs = m.add_tensor("zs", S.INT32, [2])
c = m.add_tensor("c", S.FLOAT32, [], data=S.pack(S.FLOAT32, [1.5]))
f = m.add_tensor("f", S.FLOAT32, [3, 4])
w = m.add_tensor("w", S.FLOAT32, [2, 6])
m.add_op("RESHAPE", [x, s], [y], {})
m.add_op("MUL", [y, y], [z], {})
m.add_op("SHAPE", [z], [zs], {"out_type": S.INT32})
m.add_op("FILL", [s, c], [f], {})
m.add_op("ADD", [x, x], [w], {})
m.inputs = [x, s]
m.outputs = [z, zs, f, w]
with open(os.path.join(out, "dyn_chain.tflite"), "wb") as fh:
    fh.write(S.serialize(m))
xs = [0.25 * (i - 5) for i in range(12)]
npy.save(os.path.join(out, "dyn_chain_x.npy"), "float32", [2, 6], xs)
for name, v in (("s34", [3, 4]), ("s62", [6, 2]), ("s112", [1, 12])):
    npy.save(os.path.join(out, "dyn_chain_%s.npy" % name), "int32", [2], v)
