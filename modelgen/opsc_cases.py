"""Conformance cases of the operators added by the opsc work (the rest of the standard
resolver's builtins): the StableHLO elementwise operators, LSH_PROJECTION and
EMBEDDING_LOOKUP_SPARSE. Called from op_cases.cases() with its add()."""
import tflite_schema as S
from casekit import T, single

F32, F64, I32, I64, U8, I8, I16, BOOL = (S.FLOAT32, S.FLOAT64, S.INT32, S.INT64, S.UINT8,
                                         S.INT8, S.INT16, S.BOOL)
U16, U32 = S.UINT16, S.UINT32


def stablehlo_elementwise_cases(add):
    """STABLEHLO_ADD / MULTIPLY / MAXIMUM / MINIMUM / AND / SHIFT_LEFT: same-shape inputs, no
    broadcasting; integer results wrap (full-range inputs)."""
    shape = [2, 3, 5]
    arith_dts = {"f32": (F32, None), "f64": (F64, None), "i8": (I8, None), "i16": (I16, None),
                 "i32": (I32, (-(1 << 31), (1 << 31) - 1)), "i64": (I64, (-(1 << 40), 1 << 40)),
                 "u8": (U8, None), "u16": (U16, None), "u32": (U32, None)}
    for op in ("STABLEHLO_ADD", "STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_MINIMUM"):
        for tag, (d, rng) in arith_dts.items():
            lo, hi = rng if rng else (None, None)
            add(single("%s_%s" % (op.lower(), tag), op, [T(d, shape, lo=lo, hi=hi),
                                                          T(d, shape, lo=lo, hi=hi)], [T(d, shape)]))
        add(single("%s_f32_rank0" % op.lower(), op, [T(F32, []), T(F32, [])], [T(F32, [])]))
    nan, inf = float("nan"), float("inf")
    for op in ("STABLEHLO_MAXIMUM", "STABLEHLO_MINIMUM"):
        add(single("%s_f32_nan" % op.lower(), op,
                   [T(F32, [6], values=[nan, 1.0, nan, -inf, 0.0, -0.0]),
                    T(F32, [6], values=[1.0, nan, nan, inf, -0.0, 0.0])], [T(F32, [6])]))
    for tag, d in (("bool", BOOL), ("i8", I8), ("i16", I16), ("i32", I32), ("u8", U8), ("u16", U16),
                   ("u32", U32)):
        lo, hi = ((-(1 << 31), (1 << 31) - 1) if d == I32 else (None, None))
        add(single("stablehlo_and_%s" % tag, "STABLEHLO_AND", [T(d, shape, lo=lo, hi=hi),
                                                             T(d, shape, lo=lo, hi=hi)], [T(d, shape)]))
    add(single("stablehlo_and_i64", "STABLEHLO_AND", [T(I64, shape, lo=-(1 << 40), hi=1 << 40),
                                                      T(I64, shape, lo=-(1 << 40), hi=1 << 40)],
               [T(I64, shape)]))
    for tag, d, bits in (("i8", I8, 8), ("i16", I16, 16), ("i32", I32, 32)):
        lo, hi = ((-(1 << 31), (1 << 31) - 1) if d == I32 else (None, None))
        # shifts past the dtype's width act on the value promoted to 32 bits
        add(single("stablehlo_shift_left_%s" % tag, "STABLEHLO_SHIFT_LEFT",
                   [T(d, shape, lo=lo, hi=hi), T(d, shape, lo=0, hi=min(bits + 4, 31))], [T(d, shape)]))


def cases(add):
    stablehlo_elementwise_cases(add)
