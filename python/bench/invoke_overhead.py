"""Overhead of Interpreter.invoke() from Python over the C call it makes (tfcc_session_run).

Same interpreter, same buffers: the C figure is _invoke_loop(n) (n runs timed inside the
extension, the GIL released once), the Python figure a plain `for` loop of invoke() calls (one
GIL release per call, argument checks, the method call). Each figure is the best of several
batches (the minimum is the least disturbed by other work on the machine).

    PYTHONPATH=build/python /usr/bin/python3 python/bench/invoke_overhead.py [MODEL] [-n N]

MODEL defaults to the conformance case add_f32_same (an ADD of two [2,3,5] floats).
"""
import argparse
import os
import time

import tfcc

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "tests", "ops", "conformance", "add_f32_same.tflite")


def best(fn, batches):
    return min(fn() for _ in range(batches))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", nargs="?", default=DEFAULT)
    ap.add_argument("-n", type=int, default=20000, help="calls per batch")
    ap.add_argument("-b", "--batches", type=int, default=15)
    args = ap.parse_args()
    it = tfcc.Interpreter(model_path=args.model)
    invoke, n = it.invoke, args.n

    def c_loop():
        return it._invoke_loop(n) / n

    def py_loop():
        t0 = time.perf_counter()
        for _ in range(n):
            invoke()
        return (time.perf_counter() - t0) / n

    def empty_loop():
        t0 = time.perf_counter()
        for _ in range(n):
            pass
        return (time.perf_counter() - t0) / n

    import numpy as np
    ins = it.get_input_details()
    xs = [(d["index"], np.zeros(d["shape"], d["dtype"])) for d in ins]
    out_index = it.get_output_details()[0]["index"]
    set_tensor, get_tensor = it.set_tensor, it.get_tensor

    def full_loop():
        t0 = time.perf_counter()
        for _ in range(n):
            for i, x in xs:
                set_tensor(i, x)
            invoke()
            get_tensor(out_index)
        return (time.perf_counter() - t0) / n

    it._invoke_loop(1000)  # warm
    c = best(c_loop, args.batches)
    py = best(py_loop, args.batches)
    loop = best(empty_loop, args.batches)
    full = best(full_loop, args.batches)
    print("model: %s" % os.path.basename(args.model))
    print("C tfcc_session_run:        %8.3f us" % (c * 1e6))
    print("Python invoke():           %8.3f us" % (py * 1e6))
    print("overhead of invoke():      %8.3f us (incl. the Python for loop, %.3f us)"
          % ((py - c) * 1e6, loop * 1e6))
    print("set_tensor x%d + invoke() + get_tensor: %8.3f us (copies in and out, as TFLite scripts do)"
          % (len(xs), full * 1e6))


if __name__ == "__main__":
    main()
