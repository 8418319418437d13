/* Field numbers of the TFLite schema tables the loader reads (schema.fbs, fields numbered
 * from 0 in declaration order; a union takes two numbers: its _type byte, then its value;
 * deprecated fields keep their number). */
#ifndef TFCC_FORMAT_TFLITE_SCHEMA_H
#define TFCC_FORMAT_TFLITE_SCHEMA_H

#define TFL_SCHEMA_VERSION 3u
#define TFL_FILE_IDENTIFIER "TFL3"

enum tfl_model_field {
  TFL_MODEL_VERSION = 0,
  TFL_MODEL_OPERATOR_CODES = 1,
  TFL_MODEL_SUBGRAPHS = 2,
  TFL_MODEL_DESCRIPTION = 3,
  TFL_MODEL_BUFFERS = 4,
  TFL_MODEL_METADATA_BUFFER = 5,
  TFL_MODEL_METADATA = 6,
  TFL_MODEL_SIGNATURE_DEFS = 7
};

enum tfl_opcode_field {
  TFL_OPCODE_DEPRECATED_BUILTIN_CODE = 0, /* int8 */
  TFL_OPCODE_CUSTOM_CODE = 1,
  TFL_OPCODE_VERSION = 2,     /* int32, default 1 */
  TFL_OPCODE_BUILTIN_CODE = 3 /* int32 */
};
/* deprecated_builtin_code value telling readers to use builtin_code. */
#define TFL_PLACEHOLDER_FOR_GREATER_OP_CODES 127

enum tfl_subgraph_field {
  TFL_SUBGRAPH_TENSORS = 0,
  TFL_SUBGRAPH_INPUTS = 1,
  TFL_SUBGRAPH_OUTPUTS = 2,
  TFL_SUBGRAPH_OPERATORS = 3,
  TFL_SUBGRAPH_NAME = 4
};

enum tfl_tensor_field {
  TFL_TENSOR_SHAPE = 0,
  TFL_TENSOR_TYPE = 1,
  TFL_TENSOR_BUFFER = 2,
  TFL_TENSOR_NAME = 3,
  TFL_TENSOR_QUANTIZATION = 4,
  TFL_TENSOR_IS_VARIABLE = 5,
  TFL_TENSOR_SPARSITY = 6,
  TFL_TENSOR_SHAPE_SIGNATURE = 7,
  TFL_TENSOR_HAS_RANK = 8,
  TFL_TENSOR_VARIANT_TENSORS = 9
};

enum tfl_quant_field {
  TFL_QUANT_MIN = 0,
  TFL_QUANT_MAX = 1,
  TFL_QUANT_SCALE = 2,
  TFL_QUANT_ZERO_POINT = 3, /* [long] */
  TFL_QUANT_DETAILS_TYPE = 4,
  TFL_QUANT_DETAILS = 5,
  TFL_QUANT_QUANTIZED_DIMENSION = 6
};

/* QuantizationDetails union member BlockwiseQuantization (type 2) */
enum { TFL_QUANT_DETAILS_BLOCKWISE = 2 };
enum { TFL_BLOCKWISE_SCALES = 0, TFL_BLOCKWISE_ZERO_POINTS = 1, TFL_BLOCKWISE_BLOCK_SIZE = 2 };

enum tfl_sparsity_field {
  TFL_SPARSITY_TRAVERSAL_ORDER = 0,
  TFL_SPARSITY_BLOCK_MAP = 1,
  TFL_SPARSITY_DIM_METADATA = 2
};

enum tfl_dim_meta_field {
  TFL_DIM_FORMAT = 0, /* DimensionType: 0 DENSE, 1 SPARSE_CSR */
  TFL_DIM_DENSE_SIZE = 1,
  TFL_DIM_SEGMENTS_TYPE = 2, /* SparseIndexVector: 1 Int32Vector, 2 Uint16Vector, 3 Uint8Vector */
  TFL_DIM_SEGMENTS = 3,
  TFL_DIM_INDICES_TYPE = 4,
  TFL_DIM_INDICES = 5
};
#define TFL_INDEX_VECTOR_VALUES 0

enum tfl_operator_field {
  TFL_OP_OPCODE_INDEX = 0,
  TFL_OP_INPUTS = 1,
  TFL_OP_OUTPUTS = 2,
  TFL_OP_BUILTIN_OPTIONS_TYPE = 3,
  TFL_OP_BUILTIN_OPTIONS = 4,
  TFL_OP_CUSTOM_OPTIONS = 5,
  TFL_OP_CUSTOM_OPTIONS_FORMAT = 6,
  TFL_OP_MUTATING_VARIABLE_INPUTS = 7,
  TFL_OP_INTERMEDIATES = 8,
  TFL_OP_LARGE_CUSTOM_OPTIONS_OFFSET = 9,
  TFL_OP_LARGE_CUSTOM_OPTIONS_SIZE = 10,
  TFL_OP_BUILTIN_OPTIONS_2_TYPE = 11,
  TFL_OP_BUILTIN_OPTIONS_2 = 12
};

enum tfl_buffer_field {
  TFL_BUFFER_DATA = 0,
  TFL_BUFFER_OFFSET = 1, /* ulong, relative to the file start; only meaningful if > 1 */
  TFL_BUFFER_SIZE = 2    /* ulong */
};

enum tfl_metadata_field { TFL_METADATA_NAME = 0, TFL_METADATA_BUFFER = 1 };

enum tfl_tensor_map_field { TFL_TENSOR_MAP_NAME = 0, TFL_TENSOR_MAP_TENSOR_INDEX = 1 };

enum tfl_signature_field {
  TFL_SIGNATURE_INPUTS = 0,
  TFL_SIGNATURE_OUTPUTS = 1,
  TFL_SIGNATURE_KEY = 2,
  TFL_SIGNATURE_DEPRECATED_TAG = 3,
  TFL_SIGNATURE_SUBGRAPH_INDEX = 4
};

#endif
