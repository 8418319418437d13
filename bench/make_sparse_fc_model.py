#!/usr/bin/env python3
"""Writes a FULLY_CONNECTED model whose float32 weights are stored 1x4 block sparse (levels
dense, CSR, dense 4; int32 segments and indices; 40% of the blocks kept), read by the operator
itself as conformance sparse_fc_f32_b1x4 but scaled up: the reader expands them at load
(docs/format.md "spfc60"), and the memory that expansion holds is measured on it (review62:
docs/weights_cache.md, the dense copy and the stored values given back after packing).
Seeded values (modelgen's PRNG), so the same command writes the same bytes. Standard library
only (uses ../modelgen); [1024, 3072] takes a few minutes.

    python3 bench/make_sparse_fc_model.py UNITS K OUT.tflite
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "modelgen"))
from sparse_cases import _block, fc_case  # noqa: E402
from sparse_tensor import CSR, DENSE, IDX_I32  # noqa: E402


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    units, k, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    sparse = _block([DENSE, CSR, DENSE], [1], [4], index_types=IDX_I32)
    case = fc_case("sparse_fc_f32_b1x4_big", [units, k], sparse, batch=1, direct=True)
    with open(out, "wb") as f:
        f.write(case.build()[0])


if __name__ == "__main__":
    main()
