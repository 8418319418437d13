"""The subset of the TensorFlow Lite FlatBuffer schema (schema.fbs, file identifier
"TFL3", schema version 3) that modelgen writes, and a serializer for it.

Field ids are the positions of the fields in schema.fbs (a union takes two ids:
<name>_type then <name>). Enum values (TensorType, BuiltinOperator, the
BuiltinOptions union) are those of schema.fbs.
"""
import struct

from flatbuf import Builder

SCHEMA_VERSION = 3
FILE_IDENTIFIER = "TFL3"

# ---------------------------------------------------------------- enums
FLOAT32, FLOAT16, INT32, UINT8, INT64, STRING, BOOL, INT16 = 0, 1, 2, 3, 4, 5, 6, 7
COMPLEX64, INT8, FLOAT64 = 8, 9, 10
RESOURCE = 13
UINT32, UINT16 = 15, 16
UINT64 = 12  # ops: STABLEHLO_RNG_BIT_GENERATOR state
INT4, BFLOAT16 = 17, 18  # ops: int4 weights (packed two per byte), bfloat16 casts
INT2, UINT4, FLOAT8_E4M3FN, FLOAT8_E5M2 = 19, 20, 21, 22  # types: packed int2 / uint4, float8 bytes

DTYPE_NAME = {FLOAT32: "float32", FLOAT16: "float16", INT32: "int32", UINT8: "uint8",
              INT64: "int64", BOOL: "bool", INT16: "int16", INT8: "int8", FLOAT64: "float64",
              COMPLEX64: "complex64", UINT32: "uint32", UINT16: "uint16",
              UINT64: "uint64", INT4: "int4", BFLOAT16: "bfloat16", INT2: "int2", UINT4: "uint4",
              FLOAT8_E4M3FN: "float8_e4m3fn", FLOAT8_E5M2: "float8_e5m2"}
DTYPE_BY_NAME = {v: k for k, v in DTYPE_NAME.items()}
# struct format code and size of one element
DTYPE_FMT = {FLOAT32: "f", FLOAT16: "e", INT32: "i", UINT8: "B", INT64: "q", BOOL: "?",
             INT16: "h", INT8: "b", FLOAT64: "d", UINT32: "I", UINT16: "H", UINT64: "Q"}
# complex64 constants are given as (real, imag) pairs: two float32 per element

PADDING = {"SAME": 0, "VALID": 1}
ACTIVATION = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3, "TANH": 4, "SIGN_BIT": 5}
MIRROR_PAD_MODE = {"REFLECT": 0, "SYMMETRIC": 1}

# BuiltinOperator values (the ones modelgen may emit).
BUILTIN = {
    "ADD": 0, "AVERAGE_POOL_2D": 1, "CONCATENATION": 2, "CONV_2D": 3, "DEPTHWISE_CONV_2D": 4,
    "DEPTH_TO_SPACE": 5, "DEQUANTIZE": 6, "FLOOR": 8, "FULLY_CONNECTED": 9,
    "L2_NORMALIZATION": 11, "L2_POOL_2D": 12, "LOGISTIC": 14, "MAX_POOL_2D": 17, "MUL": 18,
    "RELU": 19, "RELU_N1_TO_1": 20, "RELU6": 21, "RESHAPE": 22, "RESIZE_BILINEAR": 23,
    "SOFTMAX": 25, "SPACE_TO_DEPTH": 26, "TANH": 28, "PAD": 34, "GATHER": 36,
    "BATCH_TO_SPACE_ND": 37, "SPACE_TO_BATCH_ND": 38, "TRANSPOSE": 39, "MEAN": 40, "SUB": 41,
    "DIV": 42, "SQUEEZE": 43, "UNIDIRECTIONAL_SEQUENCE_LSTM": 44, "STRIDED_SLICE": 45,
    "EXP": 47, "SPLIT": 49, "LOG_SOFTMAX": 50, "CAST": 53, "PRELU": 54, "MAXIMUM": 55,
    "ARG_MAX": 56, "MINIMUM": 57, "LESS": 58, "NEG": 59, "PADV2": 60, "GREATER": 61,
    "GREATER_EQUAL": 62, "LESS_EQUAL": 63, "SELECT": 64, "SLICE": 65, "SIN": 66,
    "TRANSPOSE_CONV": 67, "TILE": 69, "EXPAND_DIMS": 70, "EQUAL": 71, "NOT_EQUAL": 72,
    "LOG": 73, "SUM": 74, "SQRT": 75, "RSQRT": 76, "SHAPE": 77, "POW": 78, "ARG_MIN": 79,
    "REDUCE_PROD": 81, "REDUCE_MAX": 82, "PACK": 83, "LOGICAL_OR": 84, "LOGICAL_AND": 86,
    "LOGICAL_NOT": 87, "UNPACK": 88, "REDUCE_MIN": 89, "FLOOR_DIV": 90, "SQUARE": 92,
    "ZEROS_LIKE": 93, "FILL": 94, "FLOOR_MOD": 95, "RANGE": 96, "RESIZE_NEAREST_NEIGHBOR": 97,
    "LEAKY_RELU": 98, "SQUARED_DIFFERENCE": 99, "MIRROR_PAD": 100, "ABS": 101, "SPLIT_V": 102,
    "CEIL": 104, "ADD_N": 106, "GATHER_ND": 107, "COS": 108, "WHERE": 109, "ELU": 111, "QUANTIZE": 114,
    "ROUND": 116, "HARD_SWISH": 117, "SELECT_V2": 123, "DENSIFY": 124, "BATCH_MATMUL": 126,
    "BROADCAST_TO": 130, "GELU": 150, "CUSTOM": 32, "NON_MAX_SUPPRESSION_V4": 120,
    "NON_MAX_SUPPRESSION_V5": 121, "RFFT2D": 131, "IMAG": 133, "REAL": 134, "COMPLEX_ABS": 135,
    "SIGN": 158, "ATAN2": 156, "RELU_0_TO_1": 152, "BITWISE_XOR": 160, "RIGHT_SHIFT": 161,
    "REDUCE_ANY": 91, "REDUCE_ALL": 140, "REVERSE_V2": 105, "RANK": 110, "CUMSUM": 128,
    # opsa
    "ONE_HOT": 85, "BUCKETIZE": 147, "BROADCAST_ARGS": 145, "SCATTER_ND": 122,
    "DYNAMIC_UPDATE_SLICE": 151, "EMBEDDING_LOOKUP": 7, "SEGMENT_SUM": 125,
    "UNSORTED_SEGMENT_PROD": 153, "UNSORTED_SEGMENT_MAX": 154, "UNSORTED_SEGMENT_SUM": 155,
    "UNSORTED_SEGMENT_MIN": 157, "MATRIX_DIAG": 113, "MATRIX_SET_DIAG": 115, "REVERSE_SEQUENCE": 112,
    "SPARSE_TO_DENSE": 68, "UNIQUE": 103, "TOPK_V2": 48, "LOCAL_RESPONSE_NORMALIZATION": 13,
    "FAKE_QUANT": 80, "BITCAST": 159, "RANDOM_STANDARD_NORMAL": 146, "RANDOM_UNIFORM": 148,
    "MULTINOMIAL": 149,
    # control flow and resource variables
    "IF": 118, "WHILE": 119, "CALL_ONCE": 129, "VAR_HANDLE": 142, "READ_VARIABLE": 143,
    "ASSIGN_VARIABLE": 144,
    # sequence models, 3-D convolutions (opsb)
    "LSTM": 16, "RNN": 24, "SVDF": 27, "UNIDIRECTIONAL_SEQUENCE_RNN": 35,
    "BIDIRECTIONAL_SEQUENCE_RNN": 46, "BIDIRECTIONAL_SEQUENCE_LSTM": 52, "CONV_3D": 132,
    "CONV_3D_TRANSPOSE": 141,
    # opsc: the rest of the standard resolver's builtins (LSH, sparse embeddings, StableHLO)
    "LSH_PROJECTION": 15, "EMBEDDING_LOOKUP_SPARSE": 33, "STABLEHLO_ADD": 163,
    "STABLEHLO_MULTIPLY": 165, "STABLEHLO_MAXIMUM": 166, "STABLEHLO_AND": 176,
    "STABLEHLO_MINIMUM": 181, "STABLEHLO_SHIFT_LEFT": 207, "STABLEHLO_PAD": 195, "DILATE": 203,
    "STABLEHLO_COMPOSITE": 206, "STABLEHLO_GATHER": 201, "REDUCE_WINDOW": 205, "STABLEHLO_REDUCE_WINDOW": 198, "STABLEHLO_SCATTER": 190,
    # ops: control flow by index and the StableHLO bit generator
    "STABLEHLO_CASE": 209, "STABLEHLO_RNG_BIT_GENERATOR": 204,
}
PLACEHOLDER_FOR_GREATER_OP_CODES = 127

# The BuiltinOptions union, in schema order (type value = position + 1; 0 = NONE).
_BUILTIN_OPTIONS_ORDER = """
Conv2DOptions DepthwiseConv2DOptions ConcatEmbeddingsOptions LSHProjectionOptions Pool2DOptions
SVDFOptions RNNOptions FullyConnectedOptions SoftmaxOptions ConcatenationOptions AddOptions
L2NormOptions LocalResponseNormalizationOptions LSTMOptions ResizeBilinearOptions CallOptions
ReshapeOptions SkipGramOptions SpaceToDepthOptions EmbeddingLookupSparseOptions MulOptions
PadOptions GatherOptions BatchToSpaceNDOptions SpaceToBatchNDOptions TransposeOptions
ReducerOptions SubOptions DivOptions SqueezeOptions SequenceRNNOptions StridedSliceOptions
ExpOptions TopKV2Options SplitOptions LogSoftmaxOptions CastOptions DequantizeOptions
MaximumMinimumOptions ArgMaxOptions LessOptions NegOptions PadV2Options GreaterOptions
GreaterEqualOptions LessEqualOptions SelectOptions SliceOptions TransposeConvOptions
SparseToDenseOptions TileOptions ExpandDimsOptions EqualOptions NotEqualOptions ShapeOptions
PowOptions ArgMinOptions FakeQuantOptions PackOptions LogicalOrOptions OneHotOptions
LogicalAndOptions LogicalNotOptions UnpackOptions FloorDivOptions SquareOptions
ZerosLikeOptions FillOptions BidirectionalSequenceLSTMOptions BidirectionalSequenceRNNOptions
UnidirectionalSequenceLSTMOptions FloorModOptions RangeOptions ResizeNearestNeighborOptions
LeakyReluOptions SquaredDifferenceOptions MirrorPadOptions AbsOptions SplitVOptions
UniqueOptions ReverseV2Options AddNOptions GatherNdOptions CosOptions WhereOptions RankOptions
ReverseSequenceOptions MatrixDiagOptions QuantizeOptions MatrixSetDiagOptions HardSwishOptions
IfOptions WhileOptions DepthToSpaceOptions NonMaxSuppressionV4Options
NonMaxSuppressionV5Options ScatterNdOptions SelectV2Options DensifyOptions SegmentSumOptions
BatchMatMulOptions CumsumOptions CallOnceOptions BroadcastToOptions Rfft2dOptions
Conv3DOptions HashtableOptions HashtableFindOptions HashtableImportOptions
HashtableSizeOptions VarHandleOptions ReadVariableOptions AssignVariableOptions
RandomOptions BucketizeOptions GeluOptions
""".split()
BUILTIN_OPTIONS_TYPE = {name: i + 1 for i, name in enumerate(_BUILTIN_OPTIONS_ORDER)}
# opsc: the BuiltinOptions2 union (Operator fields 11/12), schema order (type = position + 1).
BUILTIN_OPTIONS2_TYPE = {"StablehloScatterOptions": 7, "StablehloPadOptions": 10,
                         "StablehloReduceWindowOptions": 13, "StablehloGatherOptions": 16,
                         "DilateOptions": 18, "StablehloRngBitGeneratorOptions": 19,
                         "ReduceWindowOptions": 20, "StableHLOCompositeOptions": 21,
                         "StablehloCaseOptions": 23}

# Options tables: field name -> (field id, kind). kinds: b=byte/enum, B=bool, i=int32,
# f=float32, iv=[int] vector, s=string.
_POOL = {"padding": (0, "b"), "stride_w": (1, "i"), "stride_h": (2, "i"),
         "filter_width": (3, "i"), "filter_height": (4, "i"), "fused_activation_function": (5, "b")}
_REDUCER = {"keep_dims": (0, "B")}
OPTION_TABLES = {
    "Conv2DOptions": {"padding": (0, "b"), "stride_w": (1, "i"), "stride_h": (2, "i"),
                      "fused_activation_function": (3, "b"), "dilation_w_factor": (4, "i"),
                      "dilation_h_factor": (5, "i"), "quantized_bias_type": (6, "b")},
    "DepthwiseConv2DOptions": {"padding": (0, "b"), "stride_w": (1, "i"), "stride_h": (2, "i"),
                               "depth_multiplier": (3, "i"), "fused_activation_function": (4, "b"),
                               "dilation_w_factor": (5, "i"), "dilation_h_factor": (6, "i")},
    "Pool2DOptions": _POOL,
    "FullyConnectedOptions": {"fused_activation_function": (0, "b"), "weights_format": (1, "b"),
                              "keep_num_dims": (2, "B"), "asymmetric_quantize_inputs": (3, "B"),
                              "quantized_bias_type": (4, "b")},
    "SoftmaxOptions": {"beta": (0, "f")},
    "ConcatenationOptions": {"axis": (0, "i"), "fused_activation_function": (1, "b")},
    "AddOptions": {"fused_activation_function": (0, "b"), "pot_scale_int16": (1, "B")},
    "SubOptions": {"fused_activation_function": (0, "b"), "pot_scale_int16": (1, "B")},
    "MulOptions": {"fused_activation_function": (0, "b")},
    "DivOptions": {"fused_activation_function": (0, "b")},
    "L2NormOptions": {"fused_activation_function": (0, "b")},
    "ResizeBilinearOptions": {"align_corners": (2, "B"), "half_pixel_centers": (3, "B")},
    "ResizeNearestNeighborOptions": {"align_corners": (0, "B"), "half_pixel_centers": (1, "B")},
    "ReshapeOptions": {"new_shape": (0, "iv")},
    "SpaceToDepthOptions": {"block_size": (0, "i")},
    "DepthToSpaceOptions": {"block_size": (0, "i")},
    "GatherOptions": {"axis": (0, "i"), "batch_dims": (1, "i")},
    "ReducerOptions": _REDUCER,
    "SqueezeOptions": {"squeeze_dims": (0, "iv")},
    "StridedSliceOptions": {"begin_mask": (0, "i"), "end_mask": (1, "i"), "ellipsis_mask": (2, "i"),
                            "new_axis_mask": (3, "i"), "shrink_axis_mask": (4, "i"),
                            "offset": (5, "B")},
    "SplitOptions": {"num_splits": (0, "i")},
    "SplitVOptions": {"num_splits": (0, "i")},
    "CastOptions": {"in_data_type": (0, "b"), "out_data_type": (1, "b")},
    "ArgMaxOptions": {"output_type": (0, "b")},
    "ArgMinOptions": {"output_type": (0, "b")},
    "TransposeConvOptions": {"padding": (0, "b"), "stride_w": (1, "i"), "stride_h": (2, "i"),
                             "fused_activation_function": (3, "b"),
                             "quantized_bias_type": (4, "b")},
    "ShapeOptions": {"out_type": (0, "b")},
    "PackOptions": {"values_count": (0, "i"), "axis": (1, "i")},
    "UnpackOptions": {"num": (0, "i"), "axis": (1, "i")},
    "LeakyReluOptions": {"alpha": (0, "f")},
    "MirrorPadOptions": {"mode": (0, "b")},
    "BatchMatMulOptions": {"adj_x": (0, "B"), "adj_y": (1, "B"),
                           "asymmetric_quantize_inputs": (2, "B")},
    "GeluOptions": {"approximate": (0, "B")},
    "CumsumOptions": {"exclusive": (0, "B"), "reverse": (1, "B")},
    # opsa
    "OneHotOptions": {"axis": (0, "i")},
    "BucketizeOptions": {"boundaries": (0, "fv")},
    "ReverseSequenceOptions": {"seq_dim": (0, "i"), "batch_dim": (1, "i")},
    "SparseToDenseOptions": {"validate_indices": (0, "B")},
    "LocalResponseNormalizationOptions": {"radius": (0, "i"), "bias": (1, "f"), "alpha": (2, "f"),
                                          "beta": (3, "f")},
    "FakeQuantOptions": {"min": (0, "f"), "max": (1, "f"), "num_bits": (2, "i"),
                         "narrow_range": (3, "B")},
    "UniqueOptions": {"idx_out_type": (0, "b")},
    "RandomOptions": {"seed": (0, "l"), "seed2": (1, "l")},
    "IfOptions": {"then_subgraph_index": (0, "i"), "else_subgraph_index": (1, "i")},
    "WhileOptions": {"cond_subgraph_index": (0, "i"), "body_subgraph_index": (1, "i")},
    "CallOnceOptions": {"init_subgraph_index": (0, "i")},
    "VarHandleOptions": {"container": (0, "s"), "shared_name": (1, "s")},
    "UnidirectionalSequenceLSTMOptions": {"fused_activation_function": (0, "b"),
                                          "cell_clip": (1, "f"), "proj_clip": (2, "f"),
                                          "time_major": (3, "B"),
                                          "asymmetric_quantize_inputs": (4, "B"),
                                          "diagonal_recurrent_tensors": (5, "B")},
    # sequence models, 3-D convolutions (opsb)
    "LSTMOptions": {"fused_activation_function": (0, "b"), "cell_clip": (1, "f"),
                    "proj_clip": (2, "f"), "kernel_type": (3, "b"),
                    "asymmetric_quantize_inputs": (4, "B")},
    "RNNOptions": {"fused_activation_function": (0, "b"), "asymmetric_quantize_inputs": (1, "B")},
    "SequenceRNNOptions": {"time_major": (0, "B"), "fused_activation_function": (1, "b"),
                           "asymmetric_quantize_inputs": (2, "B")},
    "BidirectionalSequenceRNNOptions": {"time_major": (0, "B"), "fused_activation_function": (1, "b"),
                                        "merge_outputs": (2, "B"),
                                        "asymmetric_quantize_inputs": (3, "B")},
    "BidirectionalSequenceLSTMOptions": {"fused_activation_function": (0, "b"), "cell_clip": (1, "f"),
                                         "proj_clip": (2, "f"), "merge_outputs": (3, "B"),
                                         "time_major": (4, "B"),
                                         "asymmetric_quantize_inputs": (5, "B")},
    "SVDFOptions": {"rank": (0, "i"), "fused_activation_function": (1, "b"),
                    "asymmetric_quantize_inputs": (2, "B")},
    "LSHProjectionOptions": {"type": (0, "b")},  # opsc
    "StableHLOCompositeOptions": {"name": (0, "s"), "decomposition_subgraph_index": (1, "i"),
                                  "composite_attributes": (2, "bv"), "version": (4, "i")},  # opsc (BuiltinOptions2)
    "StablehloGatherOptions": {"offset_dims": (0, "lv"), "collapsed_slice_dims": (1, "lv"),
                               "start_index_map": (2, "lv"), "index_vector_dim": (3, "l"),
                               "slice_sizes": (4, "lv"), "indices_are_sorted": (5, "B")},  # opsc
    "StablehloReduceWindowOptions": {"window_dimensions": (0, "lv"), "window_strides": (1, "lv"),
                                     "base_dilations": (2, "lv"), "window_dilations": (3, "lv"),
                                     "padding": (4, "lv"), "body_subgraph_index": (5, "i")},  # opsc
    "StablehloScatterOptions": {"indices_are_sorted": (0, "B"), "update_window_dims": (1, "lv"),
                                "inserted_window_dims": (2, "lv"), "scatter_dims_to_operand_dims": (3, "lv"),
                                "index_vector_dim": (4, "l"), "unique_indices": (5, "B"),
                                "update_computation_subgraph_index": (6, "i")},  # opsc
    "ReduceWindowOptions": {"reduce_function": (0, "i")},  # opsc (BuiltinOptions2)
    "StablehloCaseOptions": {"branch_subgraph_indices": (0, "iv")},  # ops (BuiltinOptions2)
    "StablehloRngBitGeneratorOptions": {"algorithm": (0, "b")},  # ops (BuiltinOptions2)
    "StablehloPadOptions": {"edge_padding_low": (0, "lv"), "edge_padding_high": (1, "lv"),
                            "interior_padding": (2, "lv")},  # opsc (BuiltinOptions2)
    "EmbeddingLookupSparseOptions": {"combiner": (0, "b")},  # opsc
    "Conv3DOptions": {"padding": (0, "b"), "stride_d": (1, "i"), "stride_w": (2, "i"),
                      "stride_h": (3, "i"), "fused_activation_function": (4, "b"),
                      "dilation_d_factor": (5, "i"), "dilation_w_factor": (6, "i"),
                      "dilation_h_factor": (7, "i")},
}
for _empty in ("PadOptions", "PadV2Options", "TransposeOptions", "ExpOptions", "LogSoftmaxOptions",
               "DequantizeOptions", "MaximumMinimumOptions", "LessOptions", "NegOptions",
               "GreaterOptions", "GreaterEqualOptions", "LessEqualOptions", "SelectOptions",
               "SliceOptions", "TileOptions", "ExpandDimsOptions", "EqualOptions",
               "NotEqualOptions", "PowOptions", "LogicalOrOptions", "LogicalAndOptions",
               "LogicalNotOptions", "FloorDivOptions", "SquareOptions", "ZerosLikeOptions",
               "FillOptions", "FloorModOptions", "RangeOptions", "SquaredDifferenceOptions",
               "AbsOptions", "AddNOptions", "GatherNdOptions", "CosOptions", "QuantizeOptions",
               "HardSwishOptions", "SelectV2Options", "DensifyOptions", "BroadcastToOptions",
               "SpaceToBatchNDOptions", "BatchToSpaceNDOptions", "NonMaxSuppressionV4Options",
               "NonMaxSuppressionV5Options", "Rfft2dOptions", "ReadVariableOptions", "TopKV2Options",
               "AssignVariableOptions"):
    OPTION_TABLES[_empty] = {}

# Which options table each builtin operator carries (None: no options).
OP_OPTIONS = {
    "ADD": "AddOptions", "AVERAGE_POOL_2D": "Pool2DOptions", "CONCATENATION": "ConcatenationOptions",
    "CONV_2D": "Conv2DOptions", "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "DEPTH_TO_SPACE": "DepthToSpaceOptions", "DEQUANTIZE": "DequantizeOptions",
    "FULLY_CONNECTED": "FullyConnectedOptions", "L2_NORMALIZATION": "L2NormOptions",
    "L2_POOL_2D": "Pool2DOptions", "MAX_POOL_2D": "Pool2DOptions", "MUL": "MulOptions",
    "RESHAPE": "ReshapeOptions", "RESIZE_BILINEAR": "ResizeBilinearOptions",
    "SOFTMAX": "SoftmaxOptions", "SPACE_TO_DEPTH": "SpaceToDepthOptions", "PAD": "PadOptions",
    "GATHER": "GatherOptions", "BATCH_TO_SPACE_ND": "BatchToSpaceNDOptions",
    "SPACE_TO_BATCH_ND": "SpaceToBatchNDOptions", "TRANSPOSE": "TransposeOptions",
    "MEAN": "ReducerOptions", "SUB": "SubOptions", "DIV": "DivOptions",
    "SQUEEZE": "SqueezeOptions", "UNIDIRECTIONAL_SEQUENCE_LSTM": "UnidirectionalSequenceLSTMOptions",
    "STRIDED_SLICE": "StridedSliceOptions", "EXP": "ExpOptions", "SPLIT": "SplitOptions",
    "LOG_SOFTMAX": "LogSoftmaxOptions", "CAST": "CastOptions", "MAXIMUM": "MaximumMinimumOptions",
    "ARG_MAX": "ArgMaxOptions", "MINIMUM": "MaximumMinimumOptions", "LESS": "LessOptions",
    "NEG": "NegOptions", "PADV2": "PadV2Options", "GREATER": "GreaterOptions",
    "GREATER_EQUAL": "GreaterEqualOptions", "LESS_EQUAL": "LessEqualOptions",
    "SELECT": "SelectOptions", "SLICE": "SliceOptions", "TRANSPOSE_CONV": "TransposeConvOptions",
    "TILE": "TileOptions", "EXPAND_DIMS": "ExpandDimsOptions", "EQUAL": "EqualOptions",
    "NOT_EQUAL": "NotEqualOptions", "SUM": "ReducerOptions", "SHAPE": "ShapeOptions",
    "POW": "PowOptions", "ARG_MIN": "ArgMinOptions", "REDUCE_PROD": "ReducerOptions",
    "REDUCE_MAX": "ReducerOptions", "PACK": "PackOptions", "LOGICAL_OR": "LogicalOrOptions",
    "LOGICAL_AND": "LogicalAndOptions", "LOGICAL_NOT": "LogicalNotOptions",
    "UNPACK": "UnpackOptions", "REDUCE_MIN": "ReducerOptions", "FLOOR_DIV": "FloorDivOptions",
    "SQUARE": "SquareOptions", "ZEROS_LIKE": "ZerosLikeOptions", "FILL": "FillOptions",
    "FLOOR_MOD": "FloorModOptions", "RANGE": "RangeOptions",
    "RESIZE_NEAREST_NEIGHBOR": "ResizeNearestNeighborOptions", "LEAKY_RELU": "LeakyReluOptions",
    "SQUARED_DIFFERENCE": "SquaredDifferenceOptions", "MIRROR_PAD": "MirrorPadOptions",
    "ABS": "AbsOptions", "SPLIT_V": "SplitVOptions", "ADD_N": "AddNOptions",
    "GATHER_ND": "GatherNdOptions", "COS": "CosOptions", "QUANTIZE": "QuantizeOptions",
    "HARD_SWISH": "HardSwishOptions", "SELECT_V2": "SelectV2Options", "DENSIFY": "DensifyOptions",
    "BATCH_MATMUL": "BatchMatMulOptions", "BROADCAST_TO": "BroadcastToOptions",
    "GELU": "GeluOptions", "NON_MAX_SUPPRESSION_V4": "NonMaxSuppressionV4Options",
    "NON_MAX_SUPPRESSION_V5": "NonMaxSuppressionV5Options", "RFFT2D": "Rfft2dOptions",
    "REDUCE_ANY": "ReducerOptions", "REDUCE_ALL": "ReducerOptions", "CUMSUM": "CumsumOptions",
    # opsa
    "ONE_HOT": "OneHotOptions", "BUCKETIZE": "BucketizeOptions",
    "REVERSE_SEQUENCE": "ReverseSequenceOptions", "SPARSE_TO_DENSE": "SparseToDenseOptions",
    "LOCAL_RESPONSE_NORMALIZATION": "LocalResponseNormalizationOptions",
    "FAKE_QUANT": "FakeQuantOptions", "UNIQUE": "UniqueOptions",
    "RANDOM_UNIFORM": "RandomOptions", "RANDOM_STANDARD_NORMAL": "RandomOptions", "MULTINOMIAL": "RandomOptions",
    "IF": "IfOptions", "WHILE": "WhileOptions", "CALL_ONCE": "CallOnceOptions",
    "VAR_HANDLE": "VarHandleOptions", "READ_VARIABLE": "ReadVariableOptions",
    "ASSIGN_VARIABLE": "AssignVariableOptions",
    # sequence models, 3-D convolutions (opsb)
    "LSTM": "LSTMOptions", "RNN": "RNNOptions", "SVDF": "SVDFOptions",
    "UNIDIRECTIONAL_SEQUENCE_RNN": "SequenceRNNOptions",
    "BIDIRECTIONAL_SEQUENCE_RNN": "BidirectionalSequenceRNNOptions",
    "BIDIRECTIONAL_SEQUENCE_LSTM": "BidirectionalSequenceLSTMOptions",
    "CONV_3D": "Conv3DOptions", "CONV_3D_TRANSPOSE": "Conv3DOptions",
    # opsc
    "STABLEHLO_PAD": "StablehloPadOptions", "STABLEHLO_COMPOSITE": "StableHLOCompositeOptions",
    "STABLEHLO_GATHER": "StablehloGatherOptions", "REDUCE_WINDOW": "ReduceWindowOptions",
    "STABLEHLO_REDUCE_WINDOW": "StablehloReduceWindowOptions", "STABLEHLO_SCATTER": "StablehloScatterOptions", "LSH_PROJECTION": "LSHProjectionOptions", "EMBEDDING_LOOKUP_SPARSE": "EmbeddingLookupSparseOptions",
    # ops
    "STABLEHLO_CASE": "StablehloCaseOptions", "STABLEHLO_RNG_BIT_GENERATOR": "StablehloRngBitGeneratorOptions",
}


# ---------------------------------------------------------------- model description
class Tensor:
    """One tensor of the subgraph. data: bytes for constants (None otherwise).
    quant: None or dict(scale=[...], zero_point=[...], quantized_dimension=int), or
    dict(blockwise=dict(scales=tensor index, zero_points=-1, block_size=int)).
    sparsity: None or the dict modelgen/sparse_tensor.py's encode() returns (data then holds the
    stored values only)."""

    def __init__(self, name, dtype, shape, data=None, quant=None, is_variable=False,
                 shape_signature=None, sparsity=None):
        self.name, self.dtype, self.shape = name, dtype, list(shape)
        self.data, self.quant, self.is_variable = data, quant, is_variable
        self.shape_signature = shape_signature
        self.sparsity = sparsity
        self.buffer_of = None  # (graph, tensor): share that earlier tensor's buffer (fuzz62 seeds)


# TFLite's builtin resolver registers a few operators from a version above 1 only.
MIN_VERSION = {"BROADCAST_TO": 2}


class Operator:
    """A builtin operator, or op "CUSTOM" with custom_code (its name) and custom_options
    (bytes, e.g. flexbuf.map_bytes(...))."""

    def __init__(self, op, inputs, outputs, options=None, version=None, custom_code=None,
                 custom_options=None, intermediates=None):
        if op not in BUILTIN:
            raise KeyError("unknown builtin operator %s" % op)
        if (op == "CUSTOM") != (custom_code is not None):
            raise ValueError("custom_code is for (and required by) op CUSTOM")
        self.op, self.inputs, self.outputs = op, list(inputs), list(outputs)
        self.options = dict(options or {})
        self.version = version if version is not None else MIN_VERSION.get(op, 1)
        self.custom_code, self.custom_options = custom_code, custom_options
        self.intermediates = list(intermediates or [])


class Model:
    """Subgraph 0 (tensors, operators, inputs, outputs) plus optional further subgraphs
    (add_subgraph: each a Model used for its tensors/operators/inputs/outputs/name) and
    signatures (default: one 'serving_default' over subgraph 0)."""

    def __init__(self, description="tfcc modelgen", name="main"):
        self.tensors = []
        self.operators = []
        self.inputs = []
        self.outputs = []
        self.description = description
        self.name = name
        self.subgraphs = []   # subgraphs 1, 2, ...
        self.signatures = None  # [(key, subgraph, [input tensor], [output tensor])]

    def add_subgraph(self, name):
        sg = Model(name=name)
        self.subgraphs.append(sg)
        return len(self.subgraphs), sg

    def add_tensor(self, *args, **kw):
        self.tensors.append(Tensor(*args, **kw))
        return len(self.tensors) - 1

    def add_op(self, op, inputs, outputs, options=None, version=None, custom_code=None,
               custom_options=None, intermediates=None):
        self.operators.append(Operator(op, inputs, outputs, options, version, custom_code,
                                       custom_options, intermediates))


# ---------------------------------------------------------------- serialization
def _options_table(b, table_name, values):
    fields = OPTION_TABLES[table_name]
    vecs = {}
    for name, value in values.items():
        if name not in fields:
            raise KeyError("%s has no field %s" % (table_name, name))
        fid, kind = fields[name]
        if kind == "iv":
            vecs[fid] = b.create_scalar_vector("i", value)
        elif kind == "fv":
            vecs[fid] = b.create_scalar_vector("f", value)
        elif kind == "lv":
            vecs[fid] = b.create_scalar_vector("q", value)
        elif kind == "bv":
            vecs[fid] = b.create_byte_vector(value)
        elif kind == "s":
            vecs[fid] = b.create_string(value)
    b.start_table()
    for name, value in sorted(values.items(), key=lambda kv: -_size(fields[kv[0]][1])):
        fid, kind = fields[name]
        if kind in ("iv", "fv", "lv", "bv", "s"):
            b.add_offset(fid, vecs[fid])
        elif kind == "i":
            b.add_scalar(fid, "i", int(value))
        elif kind == "f":
            b.add_scalar(fid, "f", float(value))
        elif kind == "l":
            b.add_scalar(fid, "q", int(value))
        elif kind == "B":
            b.add_scalar(fid, "B", 1 if value else 0)
        elif kind == "b":
            if isinstance(value, str):
                value = {**PADDING, **ACTIVATION, **MIRROR_PAD_MODE}[value] if value not in DTYPE_BY_NAME \
                    else DTYPE_BY_NAME[value]
            b.add_scalar(fid, "b", int(value))
    return b.end_table()


def _size(kind):
    return {"l": 8, "iv": 4, "fv": 4, "lv": 4, "bv": 4, "s": 4, "i": 4, "f": 4, "B": 1, "b": 1}[kind]


def _quant_table(b, q):
    blockwise = None
    if "blockwise" in q:  # ops: QuantizationDetails BlockwiseQuantization (scales, zero_points, block_size)
        bw = q["blockwise"]
        b.start_table()
        b.add_scalar(0, "i", int(bw["scales"]))
        b.add_scalar(1, "i", int(bw.get("zero_points", -1)))
        b.add_scalar(2, "i", int(bw["block_size"]))
        blockwise = b.end_table()
    scale = b.create_scalar_vector("f", q["scale"]) if "scale" in q else None
    zp = b.create_scalar_vector("q", q["zero_point"]) if "zero_point" in q else None
    mn = b.create_scalar_vector("f", q["min"]) if "min" in q else None
    mx = b.create_scalar_vector("f", q["max"]) if "max" in q else None
    b.start_table()
    b.add_offset(0, mn)
    b.add_offset(1, mx)
    b.add_offset(2, scale)
    b.add_offset(3, zp)
    if blockwise is not None:
        b.add_scalar(4, "B", 2)
        b.add_offset(5, blockwise)
    b.add_scalar(6, "i", int(q.get("quantized_dimension", 0)), default=0)
    return b.end_table()


_INDEX_FMT = {1: "i", 2: "H", 3: "B"}  # SparseIndexVector: Int32Vector, Uint16Vector, Uint8Vector


def _sparsity_table(b, sp):
    """SparsityParameters: traversal_order 0, block_map 1, dim_metadata 2 (DimensionMetadata:
    format 0, dense_size 1, array_segments_type 2 / array_segments 3, array_indices_type 4 /
    array_indices 5; each index vector a table whose field 0 is its values)."""
    def index_vector(iv):
        if iv is None:
            return None
        typ, values = iv
        v = b.create_scalar_vector(_INDEX_FMT[typ], values)
        b.start_table()
        b.add_offset(0, v)
        return typ, b.end_table()

    dims = []
    for dm in sp["dim_metadata"]:
        seg, idx = index_vector(dm.get("segments")), index_vector(dm.get("indices"))
        b.start_table()
        b.add_scalar(1, "i", int(dm.get("dense_size", 0)), default=0)
        for fid, iv in ((3, seg), (5, idx)):
            if iv is not None:
                b.add_offset(fid, iv[1])
        b.add_scalar(0, "b", int(dm["format"]), default=0)
        for fid, iv in ((2, seg), (4, idx)):
            if iv is not None:
                b.add_scalar(fid, "B", iv[0])
        dims.append(b.end_table())
    dims_vec = b.create_offset_vector(dims)
    order = b.create_scalar_vector("i", sp["traversal_order"])
    block_map = b.create_scalar_vector("i", sp["block_map"]) if sp.get("block_map") else None
    b.start_table()
    b.add_offset(0, order)
    b.add_offset(1, block_map)
    b.add_offset(2, dims_vec)
    return b.end_table()


def serialize(model):
    """Returns the .tflite bytes of a Model: its subgraphs (subgraph 0 = model itself) and its
    signatures (default: one 'serving_default' over subgraph 0)."""
    b = Builder(1 << 16)
    graphs = [model] + list(model.subgraphs)
    # Buffers: 0 is the empty sentinel; every constant tensor gets its own buffer.
    buffer_data = [None]
    tensor_buffer = []  # per graph, per tensor
    for g in graphs:
        tb = []
        for t in g.tensors:
            alias = getattr(t, "buffer_of", None)
            if alias is not None:  # fuzz62: (graph, tensor) of an earlier tensor whose buffer it shares
                tb.append(tensor_buffer[alias[0]][alias[1]] if alias[0] < len(tensor_buffer) else tb[alias[1]])
            elif t.data is not None:
                buffer_data.append(t.data)
                tb.append(len(buffer_data) - 1)
            else:
                tb.append(0)
        tensor_buffer.append(tb)
    # fuzz63: buffers no tensor names (an update's buffer count changed, its tensors not)
    buffer_data += list(getattr(model, "extra_buffers", []))
    buffer_offs = []
    for data in buffer_data:
        # ops: an empty constant (a zero-size tensor) keeps an empty data vector, as converters
        # write it; buffer 0 has none
        d = b.create_byte_vector(data, alignment=16) if data is not None else None
        b.start_table()
        b.add_offset(0, d)
        buffer_offs.append(b.end_table())
    buffers_vec = b.create_offset_vector(buffer_offs)

    # Operator codes, one per distinct (op, version).
    codes = []
    for g in graphs:
        for op in g.operators:
            if (op.op, op.version, op.custom_code) not in codes:
                codes.append((op.op, op.version, op.custom_code))
    code_offs = []
    for name, version, custom_code in codes:
        code = BUILTIN[name]
        cc = b.create_string(custom_code) if custom_code is not None else None
        b.start_table()
        b.add_offset(1, cc)
        b.add_scalar(2, "i", version)
        b.add_scalar(3, "i", code)
        b.add_scalar(0, "b", min(code, PLACEHOLDER_FOR_GREATER_OP_CODES))
        code_offs.append(b.end_table())
    codes_vec = b.create_offset_vector(code_offs)

    sg_offs = []
    for gi, g in enumerate(graphs):
        tensor_offs = []
        for i, t in enumerate(g.tensors):
            name = b.create_string(t.name)
            shape = b.create_scalar_vector("i", t.shape)
            sig = b.create_scalar_vector("i", t.shape_signature) if t.shape_signature else None
            q = _quant_table(b, t.quant) if t.quant else None
            sp = _sparsity_table(b, t.sparsity) if getattr(t, "sparsity", None) else None
            b.start_table()
            b.add_offset(0, shape)
            b.add_scalar(2, "I", tensor_buffer[gi][i])
            b.add_offset(3, name)
            b.add_offset(4, q)
            b.add_offset(6, sp)
            b.add_offset(7, sig)
            b.add_scalar(1, "b", t.dtype)
            b.add_scalar(5, "B", 1 if t.is_variable else 0, default=0)
            b.add_scalar(8, "B", 1)  # has_rank
            tensor_offs.append(b.end_table())
        tensors_vec = b.create_offset_vector(tensor_offs)

        op_offs = []
        for op in g.operators:
            ins = b.create_scalar_vector("i", op.inputs)
            outs = b.create_scalar_vector("i", op.outputs)
            table_name = OP_OPTIONS.get(op.op)
            opts = _options_table(b, table_name, op.options) if table_name else None
            if op.options and not table_name:
                raise KeyError("%s takes no options" % op.op)
            copts = b.create_byte_vector(op.custom_options) if op.custom_options is not None else None
            inter = b.create_scalar_vector("i", op.intermediates) if op.intermediates else None
            b.start_table()
            if inter is not None:
                b.add_offset(8, inter)
            b.add_scalar(0, "I", codes.index((op.op, op.version, op.custom_code)))
            if copts is not None:
                b.add_offset(5, copts)
            b.add_offset(1, ins)
            b.add_offset(2, outs)
            if opts is not None and table_name in BUILTIN_OPTIONS2_TYPE:  # opsc
                b.add_offset(12, opts)
                b.add_scalar(11, "B", BUILTIN_OPTIONS2_TYPE[table_name])
            elif opts is not None:
                b.add_offset(4, opts)
                b.add_scalar(3, "B", BUILTIN_OPTIONS_TYPE[table_name])
            op_offs.append(b.end_table())
        ops_vec = b.create_offset_vector(op_offs)

        sg_ins = b.create_scalar_vector("i", g.inputs)
        sg_outs = b.create_scalar_vector("i", g.outputs)
        sg_name = b.create_string(g.name)
        b.start_table()
        b.add_offset(0, tensors_vec)
        b.add_offset(1, sg_ins)
        b.add_offset(2, sg_outs)
        b.add_offset(3, ops_vec)
        b.add_offset(4, sg_name)
        sg_offs.append(b.end_table())
    subgraphs_vec = b.create_offset_vector(sg_offs)

    def tensor_maps(g, indices):
        offs = []
        for ti in indices:
            n = b.create_string(g.tensors[ti].name)
            b.start_table()
            b.add_offset(0, n)
            b.add_scalar(1, "I", ti)
            offs.append(b.end_table())
        return b.create_offset_vector(offs)

    signatures = model.signatures
    if signatures is None:
        signatures = [("serving_default", 0, model.inputs, model.outputs)]
    sig_offs = []
    for key, sgi, ins, outs in signatures:
        g = graphs[sgi]
        sig_in = tensor_maps(g, ins)
        sig_out = tensor_maps(g, outs)
        sig_key = b.create_string(key)
        b.start_table()
        b.add_offset(0, sig_in)
        b.add_offset(1, sig_out)
        b.add_offset(2, sig_key)
        b.add_scalar(4, "I", sgi)
        sig_offs.append(b.end_table())
    sigs_vec = b.create_offset_vector(sig_offs)

    desc = b.create_string(model.description)
    b.start_table()
    b.add_scalar(0, "I", SCHEMA_VERSION)
    b.add_offset(1, codes_vec)
    b.add_offset(2, subgraphs_vec)
    b.add_offset(3, desc)
    b.add_offset(4, buffers_vec)
    b.add_offset(7, sigs_vec)
    root = b.end_table()
    return b.finish(root, FILE_IDENTIFIER)


def pack(dtype, values):
    """Little-endian bytes of a flat list of values in dtype."""
    if dtype == INT4:  # ops: two per byte, the even element in the low nibble (TFLite's packing)
        v = [int(x) & 15 for x in values] + [0]
        return bytes(v[i] | (v[i + 1] << 4) for i in range(0, len(values), 2))
    if dtype in (INT2, UINT4):  # types: element i in bits 2i.. (int2, four a byte) / nibbles (uint4)
        bits = 2 if dtype == INT2 else 4
        per, mask = 8 // bits, (1 << bits) - 1
        out = bytearray((len(values) + per - 1) // per)
        for i, x in enumerate(values):
            out[i // per] |= (int(x) & mask) << (bits * (i % per))
        return bytes(out)
    if dtype in (FLOAT8_E4M3FN, FLOAT8_E5M2):  # types: values given as their raw bytes
        return bytes(int(x) & 255 for x in values)
    if dtype == BFLOAT16:  # ops: the upper 16 bits of the float32 (values exact in bfloat16)
        return b"".join(struct.pack("<f", x)[2:] for x in values)
    fmt = DTYPE_FMT[dtype]
    return struct.pack("<%d%s" % (len(values), fmt), *values)
