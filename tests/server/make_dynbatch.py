#!/usr/bin/env python3
"""make_dynbatch.py OUT.tflite [--seed N] [--hidden H]: a small float32 classifier with a
dynamic batch dimension (signature [-1, ...] on every activation): FULLY_CONNECTED(H, relu)
-> FULLY_CONNECTED(10) -> SOFTMAX on a [batch, 16] input. --seed changes the weights only
(same graph: a hot weight update applies); --hidden changes the graph. For the dynamic
batching and reload tests."""
import argparse
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'modelgen'))
import tflite_schema as ts  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument('out')
ap.add_argument('--seed', type=int, default=1)
ap.add_argument('--hidden', type=int, default=32)
a = ap.parse_args()
rng = random.Random(a.seed)


def const(m, name, shape):
    n = 1
    for d in shape:
        n *= d
    data = struct.pack('<%df' % n, *[rng.uniform(-0.5, 0.5) for _ in range(n)])
    return m.add_tensor(name, ts.FLOAT32, shape, data=data)


m = ts.Model('tfcc server test: dynamic batch classifier')
x = m.add_tensor('x', ts.FLOAT32, [1, 16], shape_signature=[-1, 16])
w1, b1 = const(m, 'fc1/w', [a.hidden, 16]), const(m, 'fc1/b', [a.hidden])
h = m.add_tensor('fc1', ts.FLOAT32, [1, a.hidden], shape_signature=[-1, a.hidden])
w2, b2 = const(m, 'fc2/w', [10, a.hidden]), const(m, 'fc2/b', [10])
logits = m.add_tensor('logits', ts.FLOAT32, [1, 10], shape_signature=[-1, 10])
prob = m.add_tensor('prob', ts.FLOAT32, [1, 10], shape_signature=[-1, 10])
m.add_op('FULLY_CONNECTED', [x, w1, b1], [h], {'fused_activation_function': 'RELU'})
m.add_op('FULLY_CONNECTED', [h, w2, b2], [logits], {'fused_activation_function': 'NONE'})
m.add_op('SOFTMAX', [logits], [prob], {'beta': 1.0})
m.inputs, m.outputs = [x], [logits, prob]
with open(a.out, 'wb') as f:
    f.write(ts.serialize(m))
