"""A model shaped like an Ethos-U (Vela) compiled file, for tests/unit/test_custom_scratch.c:
one custom operator `ethos-u` reading a constant command stream, a scratch tensor that no
operator writes (Vela's `*_scratch` / `*_scratch_fast`, which TensorFlow Lite allocates in its
arena) and the model input, writing the output:

  x int8 [1,8] --+
  cmd uint8 [4] (constant 3, 1, 4, 1) --> CUSTOM:ethos-u --> y int8 [1,8]
  scratch uint8 [16] (no data, no writer) --+

TensorFlow Lite's standard build refuses it with "Encountered unresolved custom op: ethos-u";
tfcc names the same operator (not the scratch tensor). With an `ethos-u` operator registered it
runs. And mfcc_unwritten_rate: tfcc's own custom operator Mfcc whose sample-rate input is such
a tensor, which stays refused (tfcc's operators have no scratch inputs). Built with modelgen
(standard library):

    /usr/bin/python3 modelgen/make_custom_scratch.py --out tests/models/data/custom_scratch
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import casekit as K  # noqa: E402
import flexbuf  # noqa: E402
import tflite_schema as S  # noqa: E402


def model():
    q = {"scale": [0.05], "zero_point": [-3]}
    t = {"x": K.T(S.INT8, [1, 8], q=q, name="input"),
         "cmd": K.T(S.UINT8, [4], const=[3, 1, 4, 1], name="command_stream"),
         "scratch": K.T(S.UINT8, [16], name="main_split_1_scratch"),
         "y": K.T(S.INT8, [1, 8], q=q, name="output")}
    return K.Case("ethos_u_scratch", t, [("CUSTOM:ethos-u", ["cmd", "scratch", "x"], ["y"], None)],
                  ["x"], ["y"])


def mfcc_unwritten_rate():
    t = {"x": K.T(S.FLOAT32, [1, 2, 33], name="spectrogram"),
         "rate": K.T(S.INT32, [1], name="sample_rate_unwritten"),
         "y": K.T(S.FLOAT32, [1, 2, 10], name="output")}
    opts = flexbuf.map_bytes({"upper_frequency_limit": 4000, "lower_frequency_limit": 20,
                              "filterbank_channel_count": 20, "dct_coefficient_count": 10})
    return K.Case("mfcc_unwritten_rate", t, [("CUSTOM:Mfcc", ["x", "rate"], ["y"], opts)], ["x"], ["y"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    K.write_models(a.out, [model(), mfcc_unwritten_rate()])


if __name__ == "__main__":
    main()
