"""Writes where_chain.tflite and its inputs: WHERE, whose output size depends on the values.
  c = GREATER(x, 0)          x: float32 [3, 5] graph input
  i = WHERE(c)               int64 [count, 2], sized while running
  k = CAST(i) int32          -> output 0 (reads a dynamic tensor)
  v = GATHER_ND(x, i)        -> output 1 (the positive values, row-major)
Run: python3 make_where_chain.py OUTDIR (modelgen from the source tree)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "modelgen"))
import npy  # noqa: E402
import tflite_schema as S  # noqa: E402

out = sys.argv[1]
m = S.Model(description="tfcc test: WHERE")
x = m.add_tensor("x", S.FLOAT32, [3, 5])
zero = m.add_tensor("zero", S.FLOAT32, [], data=S.pack(S.FLOAT32, [0.0]))
c = m.add_tensor("c", S.BOOL, [3, 5])
i = m.add_tensor("i", S.INT64, [4, 2])
k = m.add_tensor("k", S.INT32, [4, 2])
v = m.add_tensor("v", S.FLOAT32, [4])
m.add_op("GREATER", [x, zero], [c], {})
m.add_op("WHERE", [c], [i])
m.add_op("CAST", [i], [k], {"in_data_type": S.INT64, "out_data_type": S.INT32})
m.add_op("GATHER_ND", [x, i], [v], {})
m.inputs = [x]
m.outputs = [k, v]
with open(os.path.join(out, "where_chain.tflite"), "wb") as fh:
    fh.write(S.serialize(m))
# 4 positive values (the stored count), 9, 0 and 15
sets = {"p4": [1.5 if j in (0, 6, 7, 14) else -1.0 for j in range(15)],
        "p9": [0.5 * (j % 5) - 0.75 + 0.1 * j for j in range(15)],
        "p0": [-1.0] * 15,
        "p15": [1.0 + j for j in range(15)]}
for name, vals in sets.items():
    npy.save(os.path.join(out, "where_chain_%s.npy" % name), "float32", [3, 5], vals)
