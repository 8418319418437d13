/* Typed operator options: one small struct per options kind, held by each IR node
 * (tfcc_ir_node.opts, a tagged anonymous union: node->opts.conv.stride_w).
 *
 * The TFLite reader (src/format/tflite_options.c) is the only code that knows the FlatBuffer
 * field numbers of the options tables: at load it verifies each operator's table, checks the
 * values (enum ranges, positive strides, array lengths) and fills the struct of the kind its
 * builtin code names, with the schema's defaults for absent fields. Operators read these
 * structs (at init or prepare; never the model file); graph passes edit them (a fused
 * activation, an explicit padding, a residual input are ordinary fields here).
 *
 * An operator without options (or one tfcc does not know) has kind TFCC_OPTIONS_NONE. Custom
 * operators keep their raw custom_options bytes in the node; for the custom operators tfcc
 * implements that take options, the reader also parses those bytes once into a kind here
 * (format/tflite_custom_options.c). */
#ifndef TFCC_GRAPH_OP_OPTIONS_H
#define TFCC_GRAPH_OP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/detect/detect_postprocess.h"
#include "tfcc/tfcc.h"

/* schema Padding; TFCC_PAD_EXPLICIT is tfcc's own (set by fuse_pad): VALID over the input
 * padded by the options' pad[] (top, bottom, left, right); convolutions read the pad value
 * there (they skip the taps), pools skip those cells (fuse_pad proves that is the same). */
enum { TFCC_PAD_SAME = 0, TFCC_PAD_VALID = 1, TFCC_PAD_EXPLICIT = 2 };
/* Fused activations (schema ActivationFunctionType) are TFCC_ACT_* (kernels/ref/quant_util.h):
 * NONE 0, RELU 1, RELU_N1_TO_1 2, RELU6 3, TANH 4, SIGN_BIT 5. */

typedef enum tfcc_options_kind {
  TFCC_OPTIONS_NONE = 0,
  TFCC_OPTIONS_CONV_2D,           /* CONV_2D */
  TFCC_OPTIONS_DEPTHWISE_CONV_2D, /* DEPTHWISE_CONV_2D */
  TFCC_OPTIONS_EXPAND_DWCONV,     /* tfcc-internal EXPAND_DEPTHWISE_CONV_2D (fuse_expand_dwconv) */
  TFCC_OPTIONS_TRANSPOSE_CONV,    /* TRANSPOSE_CONV */
  TFCC_OPTIONS_POOL_2D,           /* AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D */
  TFCC_OPTIONS_FULLY_CONNECTED,   /* FULLY_CONNECTED */
  TFCC_OPTIONS_BATCH_MATMUL,      /* BATCH_MATMUL */
  TFCC_OPTIONS_ARITH,             /* ADD, SUB, MUL, DIV */
  TFCC_OPTIONS_CONCATENATION,     /* CONCATENATION */
  TFCC_OPTIONS_L2_NORM,           /* L2_NORMALIZATION */
  TFCC_OPTIONS_SOFTMAX,           /* SOFTMAX */
  TFCC_OPTIONS_LEAKY_RELU,        /* LEAKY_RELU */
  TFCC_OPTIONS_GELU,              /* GELU */
  TFCC_OPTIONS_BLOCK,             /* DEPTH_TO_SPACE, SPACE_TO_DEPTH */
  TFCC_OPTIONS_GATHER,            /* GATHER */
  TFCC_OPTIONS_MIRROR_PAD,        /* MIRROR_PAD */
  TFCC_OPTIONS_PACK,              /* PACK, UNPACK */
  TFCC_OPTIONS_REDUCER,           /* MEAN, SUM, REDUCE_MAX/MIN/PROD/ANY/ALL */
  TFCC_OPTIONS_ARG,               /* ARG_MAX, ARG_MIN */
  TFCC_OPTIONS_SHAPE,             /* SHAPE */
  TFCC_OPTIONS_RESHAPE,           /* RESHAPE */
  TFCC_OPTIONS_SQUEEZE,           /* SQUEEZE */
  TFCC_OPTIONS_RESIZE,            /* RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR */
  TFCC_OPTIONS_SPLIT,             /* SPLIT */
  TFCC_OPTIONS_STRIDED_SLICE,     /* STRIDED_SLICE */
  TFCC_OPTIONS_SEQUENCE_LSTM,     /* UNIDIRECTIONAL_SEQUENCE_LSTM */
  TFCC_OPTIONS_CUMSUM,            /* CUMSUM */
  /* opsa: indexing and misc operators */
  TFCC_OPTIONS_ONE_HOT,          /* ONE_HOT */
  TFCC_OPTIONS_BUCKETIZE,        /* BUCKETIZE */
  TFCC_OPTIONS_REVERSE_SEQUENCE, /* REVERSE_SEQUENCE */
  TFCC_OPTIONS_SPARSE_TO_DENSE,  /* SPARSE_TO_DENSE */
  TFCC_OPTIONS_LRN,              /* LOCAL_RESPONSE_NORMALIZATION */
  TFCC_OPTIONS_FAKE_QUANT,       /* FAKE_QUANT */
  TFCC_OPTIONS_RANDOM,           /* RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL */
  /* cflow: control flow and resource variables */
  TFCC_OPTIONS_SUBGRAPHS,  /* WHILE, IF, CALL_ONCE, CALL */
  TFCC_OPTIONS_VAR_HANDLE, /* VAR_HANDLE */
  /* sequence models (opsb) */
  TFCC_OPTIONS_LSTM,      /* LSTM: LSTMOptions into the lstm member */
  TFCC_OPTIONS_RNN,       /* RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN */
  TFCC_OPTIONS_BIDI_LSTM, /* BIDIRECTIONAL_SEQUENCE_LSTM into the lstm member */
  TFCC_OPTIONS_SVDF,      /* SVDF */
  TFCC_OPTIONS_CONV_3D,   /* CONV_3D, CONV_3D_TRANSPOSE */
  /* opsc */
  TFCC_OPTIONS_LSH_PROJECTION,          /* LSH_PROJECTION */
  TFCC_OPTIONS_EMBEDDING_LOOKUP_SPARSE, /* EMBEDDING_LOOKUP_SPARSE */
  TFCC_OPTIONS_STABLEHLO_PAD,           /* STABLEHLO_PAD (BuiltinOptions2) */
  TFCC_OPTIONS_STABLEHLO_GATHER,        /* STABLEHLO_GATHER (BuiltinOptions2) */
  TFCC_OPTIONS_REDUCE_WINDOW,           /* REDUCE_WINDOW (BuiltinOptions2) */
  TFCC_OPTIONS_STABLEHLO_REDUCE_WINDOW, /* STABLEHLO_REDUCE_WINDOW (BuiltinOptions2) */
  TFCC_OPTIONS_STABLEHLO_SCATTER,       /* STABLEHLO_SCATTER (BuiltinOptions2) */
  TFCC_OPTIONS_STABLEHLO_CASE,          /* ops: STABLEHLO_CASE (BuiltinOptions2) */
  TFCC_OPTIONS_RNG_BIT_GENERATOR,       /* ops: STABLEHLO_RNG_BIT_GENERATOR (BuiltinOptions2) */
  /* custom operators' FlexBuffer options (format/tflite_custom_options.c) */
  TFCC_OPTIONS_DETECTION_POSTPROCESS, /* TFLite_Detection_PostProcess */
  TFCC_OPTIONS_AUDIO_SPECTROGRAM,     /* ops: AudioSpectrogram */
  TFCC_OPTIONS_MFCC,                  /* ops: Mfcc */
  TFCC_OPTIONS_NUMERIC_VERIFY,        /* ops: NumericVerify */
  TFCC_OPTIONS_HADAMARD_ROTATION,     /* aeq.hadamard_rotation */
  TFCC_OPTIONS_MOE                    /* moe (LiteRT's XNNPACK experts operator) */
} tfcc_options_kind;

/* Conv2DOptions. */
typedef struct tfcc_conv_options {
  int32_t padding;                /* TFCC_PAD_* */
  int32_t stride_w, stride_h;     /* > 0 */
  int32_t dilation_w, dilation_h; /* > 0 (default 1) */
  int32_t activation;             /* TFCC_ACT_* */
  int32_t pad[4];                 /* padding == TFCC_PAD_EXPLICIT: top, bottom, left, right */
  bool residual;                  /* fuse_residual_add: inputs[3] is added before the
                                     activation (a file's 4-input CONV_2D is an error) */
} tfcc_conv_options;

/* DepthwiseConv2DOptions. */
typedef struct tfcc_depthwise_options {
  int32_t padding;                /* TFCC_PAD_* */
  int32_t stride_w, stride_h;     /* > 0 */
  int32_t depth_multiplier;       /* as in the file (TFLite derives it from the shapes) */
  int32_t dilation_w, dilation_h; /* > 0 (default 1) */
  int32_t activation;             /* TFCC_ACT_* */
  int32_t pad[4];                 /* padding == TFCC_PAD_EXPLICIT: top, bottom, left, right */
} tfcc_depthwise_options;

/* EXPAND_DEPTHWISE_CONV_2D: the depthwise's options and the absorbed 1x1 conv's activation. */
typedef struct tfcc_expand_dwconv_options {
  tfcc_depthwise_options dw;
  int32_t expand_activation; /* TFCC_ACT_* of the expand conv */
  int32_t mid; /* int8 pairs: the absorbed expanded tensor (its quantization), else -1 */
} tfcc_expand_dwconv_options;

/* TransposeConvOptions. */
typedef struct tfcc_transpose_conv_options {
  int32_t padding, stride_w, stride_h, activation;
} tfcc_transpose_conv_options;

/* Pool2DOptions. */
typedef struct tfcc_pool_options {
  int32_t padding, stride_w, stride_h, filter_w, filter_h, activation;
  int32_t pad[4]; /* padding == TFCC_PAD_EXPLICIT (a PAD fused into a MAX_POOL_2D): top, bottom,
                     left, right; the window skips these rows and columns, as SAME's */
} tfcc_pool_options;

/* FullyConnectedOptions. */
typedef struct tfcc_fully_connected_options {
  int32_t activation;
  int32_t weights_format; /* 0 DEFAULT, 1 SHUFFLED4x16INT8 */
  bool keep_num_dims;
  bool asymmetric_quantize_inputs;
} tfcc_fully_connected_options;

/* BatchMatMulOptions. */
typedef struct tfcc_batch_matmul_options {
  bool adj_x, adj_y, asymmetric_quantize_inputs;
} tfcc_batch_matmul_options;

/* AddOptions, SubOptions, MulOptions, DivOptions. */
typedef struct tfcc_arith_options {
  int32_t activation;
  bool pot_scale_int16; /* ADD/SUB: true when the table exists and does not say
                                     otherwise; false without a table (as TFLite parses it) */
} tfcc_arith_options;

/* ConcatenationOptions. */
typedef struct tfcc_concatenation_options {
  int32_t axis, activation;
} tfcc_concatenation_options;

typedef struct tfcc_activation_options { /* L2NormOptions */
  int32_t activation;
} tfcc_activation_options;

typedef struct tfcc_softmax_options {
  float beta;
} tfcc_softmax_options;
typedef struct tfcc_leaky_relu_options {
  float alpha;
} tfcc_leaky_relu_options;
typedef struct tfcc_gelu_options {
  bool approximate;
} tfcc_gelu_options;
/* DepthToSpaceOptions, SpaceToDepthOptions. */
typedef struct tfcc_block_options {
  int32_t block_size;
} tfcc_block_options;
typedef struct tfcc_gather_options {
  int32_t axis, batch_dims;
} tfcc_gather_options;
/* MirrorPadOptions: mode 0 REFLECT, 1 SYMMETRIC. */
typedef struct tfcc_mirror_pad_options {
  int32_t mode;
} tfcc_mirror_pad_options;
/* PackOptions (values_count) / UnpackOptions (num). */
typedef struct tfcc_pack_options {
  int32_t count, axis;
} tfcc_pack_options;
typedef struct tfcc_reducer_options {
  bool keep_dims;
} tfcc_reducer_options;
/* ArgMaxOptions/ArgMinOptions.output_type, ShapeOptions.out_type (a tfcc_dtype, which has
 * TensorType's values); has_type false when the file leaves the field out. */
typedef struct tfcc_type_options {
  bool has_type;
  int32_t type;
} tfcc_type_options;

/* ReshapeOptions.new_shape: has_new_shape when the field is present (even empty);
 * n_new_shape is its length as in the file (entries beyond TFCC_MAX_DIMS are not kept: the
 * operator refuses such a shape when it has to use it). */
typedef struct tfcc_reshape_options {
  bool has_new_shape;
  uint32_t n_new_shape;
  int32_t new_shape[TFCC_MAX_DIMS];
} tfcc_reshape_options;

/* SqueezeOptions.squeeze_dims (n_dims as in the file; at most TFCC_MAX_DIMS kept). */
typedef struct tfcc_squeeze_options {
  uint32_t n_dims;
  int32_t dims[TFCC_MAX_DIMS];
} tfcc_squeeze_options;

/* ResizeBilinearOptions, ResizeNearestNeighborOptions. */
typedef struct tfcc_resize_options {
  bool align_corners, half_pixel_centers;
} tfcc_resize_options;

typedef struct tfcc_split_options {
  int32_t num_splits;
} tfcc_split_options;

/* StridedSliceOptions. */
typedef struct tfcc_strided_slice_options {
  int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
  bool offset;
} tfcc_strided_slice_options;

/* UnidirectionalSequenceLSTMOptions; also LSTMOptions (kernel_type; time_major is true) and
 * BidirectionalSequenceLSTMOptions (merge_outputs; time_major defaults to true there). */
typedef struct tfcc_sequence_lstm_options {
  int32_t activation;
  float cell_clip, proj_clip;
  bool time_major, asymmetric_quantize_inputs;
  int32_t kernel_type; /* LSTM: 0 FULL, 1 BASIC */
  bool merge_outputs;  /* BIDIRECTIONAL_SEQUENCE_LSTM */
} tfcc_sequence_lstm_options;

/* RNNOptions, SequenceRNNOptions, BidirectionalSequenceRNNOptions. */
typedef struct tfcc_rnn_options {
  int32_t activation;
  bool time_major, merge_outputs, asymmetric_quantize_inputs;
} tfcc_rnn_options;

/* Conv3DOptions (CONV_3D, CONV_3D_TRANSPOSE). */
typedef struct tfcc_conv3d_options {
  int32_t padding;                            /* TFCC_PAD_SAME / TFCC_PAD_VALID */
  int32_t stride_d, stride_h, stride_w;       /* > 0 */
  int32_t dilation_d, dilation_h, dilation_w; /* > 0 (default 1) */
  int32_t activation;                         /* TFCC_ACT_* */
} tfcc_conv3d_options;

/* SVDFOptions. */
typedef struct tfcc_svdf_options {
  int32_t rank, activation;
  bool asymmetric_quantize_inputs;
} tfcc_svdf_options;

/* CumsumOptions. */
typedef struct tfcc_cumsum_options {
  bool exclusive, reverse;
} tfcc_cumsum_options;

/* opsa: OneHotOptions (axis -1: last). */
typedef struct tfcc_one_hot_options {
  int32_t axis;
} tfcc_one_hot_options;
/* BucketizeOptions.boundaries: n_boundaries little-endian float32 values in the model file
 * (unaligned; read with memcpy). */
typedef struct tfcc_bucketize_options {
  const uint8_t *boundaries;
  uint32_t n_boundaries;
} tfcc_bucketize_options;
/* ReverseSequenceOptions. */
typedef struct tfcc_reverse_sequence_options {
  int32_t seq_dim, batch_dim;
} tfcc_reverse_sequence_options;
/* SparseToDenseOptions. */
typedef struct tfcc_sparse_to_dense_options {
  bool validate_indices;
} tfcc_sparse_to_dense_options;
/* LocalResponseNormalizationOptions. */
typedef struct tfcc_lrn_options {
  int32_t radius;
  float bias, alpha, beta;
} tfcc_lrn_options;
/* FakeQuantOptions. */
typedef struct tfcc_fake_quant_options {
  float min, max;
  int32_t num_bits;
  bool narrow_range;
} tfcc_fake_quant_options;
/* RandomOptions (both 0: a nondeterministic seed, as TFLite). */
typedef struct tfcc_random_options {
  int64_t seed, seed2;
} tfcc_random_options;
/* cflow: WhileOptions (cond, body), IfOptions (then, else), CallOnceOptions (init: first),
 * CallOptions (subgraph: first). Indices are checked against the model at load. */
typedef struct tfcc_subgraphs_options {
  int32_t first, second;
} tfcc_subgraphs_options;

/* cflow: VarHandleOptions. The strings point into the model file (not NUL-terminated);
 * resource_id numbers the distinct (container, shared_name) pairs of the model, set at load. */
typedef struct tfcc_var_handle_options {
  const char *container, *shared_name;
  uint32_t container_len, shared_name_len;
  int32_t resource_id;
} tfcc_var_handle_options;

/* opsc: LSHProjectionOptions.type (LSHProjectionType: 1 SPARSE, 2 DENSE; 0 UNKNOWN is refused
 * by the operator) and EmbeddingLookupSparseOptions.combiner (CombinerType: 0 SUM, 1 MEAN,
 * 2 SQRTN; checked at load). */
typedef struct tfcc_lsh_projection_options {
  int32_t type;
} tfcc_lsh_projection_options;
typedef struct tfcc_embedding_lookup_sparse_options {
  int32_t combiner;
} tfcc_embedding_lookup_sparse_options;
/* opsc: StablehloPadOptions (in BuiltinOptions2): the three [long] vectors, their lengths in
 * the file (n_*, checked against the input rank by the operator) and their first
 * TFCC_MAX_DIMS entries. */
typedef struct tfcc_stablehlo_pad_options {
  int64_t low[TFCC_MAX_DIMS], high[TFCC_MAX_DIMS], interior[TFCC_MAX_DIMS];
  uint32_t n_low, n_high, n_interior;
} tfcc_stablehlo_pad_options;
/* opsc: StablehloGatherOptions (in BuiltinOptions2): the [long] vectors' lengths in the file and
 * their first TFCC_MAX_DIMS entries; the operator checks them against the shapes. */
typedef struct tfcc_stablehlo_gather_options {
  int64_t offset_dims[TFCC_MAX_DIMS], collapsed_slice_dims[TFCC_MAX_DIMS];
  int64_t start_index_map[TFCC_MAX_DIMS], slice_sizes[TFCC_MAX_DIMS];
  uint32_t n_offset_dims, n_collapsed_slice_dims, n_start_index_map, n_slice_sizes;
  int64_t index_vector_dim;
  bool indices_are_sorted;
} tfcc_stablehlo_gather_options;
/* opsc: ReduceWindowOptions.reduce_function (ReduceWindowFunction: 1 ADD .. 6 ANY; 0
 * UNSUPPORTED is refused by the operator). */
typedef struct tfcc_reduce_window_options {
  int32_t function;
} tfcc_reduce_window_options;
/* opsc: StablehloReduceWindowOptions (in BuiltinOptions2): the vectors' lengths in the file and
 * their first entries (padding: low, high per dimension), the body subgraph. */
typedef struct tfcc_stablehlo_reduce_window_options {
  int64_t window[TFCC_MAX_DIMS], strides[TFCC_MAX_DIMS], base_dilations[TFCC_MAX_DIMS];
  int64_t window_dilations[TFCC_MAX_DIMS], padding[2 * TFCC_MAX_DIMS];
  uint32_t n_window, n_strides, n_base_dilations, n_window_dilations, n_padding;
  int32_t body_subgraph;
} tfcc_stablehlo_reduce_window_options;
/* opsc: StablehloScatterOptions (in BuiltinOptions2). */
typedef struct tfcc_stablehlo_scatter_options {
  int64_t update_window_dims[TFCC_MAX_DIMS], inserted_window_dims[TFCC_MAX_DIMS];
  int64_t scatter_dims_to_operand_dims[TFCC_MAX_DIMS];
  uint32_t n_update_window_dims, n_inserted_window_dims, n_scatter_dims_to_operand_dims;
  int64_t index_vector_dim;
  int32_t update_computation_subgraph;
} tfcc_stablehlo_scatter_options;
/* ops: StablehloCaseOptions (in BuiltinOptions2): the branch subgraphs in branch order
 * (n_branches as in the file; a model with more than TFCC_MAX_CASE_BRANCHES is refused at load). */
#define TFCC_MAX_CASE_BRANCHES 64
typedef struct tfcc_stablehlo_case_options {
  int32_t n_branches;
  int32_t branch[TFCC_MAX_CASE_BRANCHES];
} tfcc_stablehlo_case_options;
/* ops: StablehloRngBitGeneratorOptions.algorithm (RngAlgorithm: 0 DEFAULT, 1 PHILOX, 2 THREEFRY). */
typedef struct tfcc_rng_bit_generator_options {
  int32_t algorithm;
} tfcc_rng_bit_generator_options;

/* ops: AudioSpectrogram's custom options (window_size >= 2, stride >= 1, magnitude_squared). */
typedef struct tfcc_audio_spectrogram_options {
  int32_t window_size, stride;
  bool magnitude_squared;
} tfcc_audio_spectrogram_options;

/* ops: Mfcc's custom options (the frequency limits read as integers, as TFLite's AsInt64). */
typedef struct tfcc_mfcc_options {
  double upper_frequency_limit, lower_frequency_limit;
  int32_t filterbank_channel_count, dct_coefficient_count;
} tfcc_mfcc_options;

/* ops: NumericVerify's custom options (tolerance as flexbuffers' AsFloat, log_if_failed as
 * AsBool; a key left out reads 0 / false, as there). */
typedef struct tfcc_numeric_verify_options {
  float tolerance;
  bool log_if_failed;
} tfcc_numeric_verify_options;

/* aeq.hadamard_rotation's custom options: the length of each transformed run (> 0). */
typedef struct tfcc_hadamard_options {
  int32_t hadamard_size;
} tfcc_hadamard_options;

/* moe's custom options (LiteRT's XNNPACK delegate, moe_delegate_kernel.cc): experts, the
 * experts each token is routed to, the model and hidden widths, how the expert weights are
 * stored and the activation of the gate projection (ops/moe.c runs fp32 with gelu only). */
typedef enum tfcc_moe_weight_type {
  TFCC_MOE_F32,
  TFCC_MOE_INT8,
  TFCC_MOE_INT4
} tfcc_moe_weight_type;
typedef struct tfcc_moe_options {
  int32_t num_experts, num_active_experts, model_dim, hidden_dim;
  tfcc_moe_weight_type weight_type;
  bool gelu_tanh; /* "gelu_tanh"; else "gelu" (erfc form), the default */
} tfcc_moe_options;

/* TFLite_Detection_PostProcess's custom options (a FlexBuffer map) are the kernel's parameters,
 * tfcc_detect_params (kernels/detect/detect_postprocess.h), checked at load. */
typedef struct tfcc_op_options {
  tfcc_options_kind kind;
  union { /* the member named by kind */
    tfcc_conv_options conv;
    tfcc_depthwise_options depthwise;
    tfcc_expand_dwconv_options expand_dwconv;
    tfcc_transpose_conv_options transpose_conv;
    tfcc_pool_options pool;
    tfcc_fully_connected_options fc;
    tfcc_batch_matmul_options batch_matmul;
    tfcc_arith_options arith;
    tfcc_concatenation_options concat;
    tfcc_activation_options l2_norm;
    tfcc_softmax_options softmax;
    tfcc_leaky_relu_options leaky_relu;
    tfcc_gelu_options gelu;
    tfcc_block_options block;
    tfcc_gather_options gather;
    tfcc_mirror_pad_options mirror_pad;
    tfcc_pack_options pack;
    tfcc_reducer_options reducer;
    tfcc_type_options arg;
    tfcc_type_options shape;
    tfcc_reshape_options reshape;
    tfcc_squeeze_options squeeze;
    tfcc_resize_options resize;
    tfcc_split_options split;
    tfcc_strided_slice_options strided_slice;
    tfcc_sequence_lstm_options lstm;
    tfcc_cumsum_options cumsum;
    tfcc_one_hot_options one_hot;                   /* opsa */
    tfcc_bucketize_options bucketize;               /* opsa */
    tfcc_reverse_sequence_options reverse_sequence; /* opsa */
    tfcc_sparse_to_dense_options sparse_to_dense;   /* opsa */
    tfcc_lrn_options lrn;                           /* opsa */
    tfcc_fake_quant_options fake_quant;             /* opsa */
    tfcc_random_options random;                     /* opsa */
    tfcc_subgraphs_options subgraphs;               /* cflow */
    tfcc_var_handle_options var_handle;             /* cflow */
    tfcc_rnn_options rnn;                           /* opsb */
    tfcc_svdf_options svdf;                         /* opsb */
    tfcc_conv3d_options conv3d;                     /* opsb */
    tfcc_lsh_projection_options lsh_projection;     /* opsc */
    tfcc_embedding_lookup_sparse_options els;       /* opsc */
    tfcc_stablehlo_pad_options shlo_pad;            /* opsc */
    tfcc_stablehlo_gather_options shlo_gather;      /* opsc */
    tfcc_reduce_window_options reduce_window;       /* opsc */
    tfcc_stablehlo_reduce_window_options shlo_rw;   /* opsc */
    tfcc_stablehlo_scatter_options shlo_scatter;    /* opsc */
    tfcc_stablehlo_case_options shlo_case;          /* ops */
    tfcc_rng_bit_generator_options rng_bits;        /* ops */
    tfcc_detect_params detect;                      /* custom TFLite_Detection_PostProcess */
    tfcc_audio_spectrogram_options spectrogram;     /* ops: custom AudioSpectrogram */
    tfcc_mfcc_options mfcc;                         /* ops: custom Mfcc */
    tfcc_numeric_verify_options numeric_verify;     /* ops: custom NumericVerify */
    tfcc_hadamard_options hadamard;                 /* custom aeq.hadamard_rotation */
    tfcc_moe_options moe;                           /* custom moe */
  };
} tfcc_op_options;

/* The options kind a builtin (or tfcc-internal) operator code carries. */
tfcc_options_kind tfcc_options_kind_of(int32_t builtin);

/* Options with the schema's defaults for kind (what a node without an options table has). */
void tfcc_options_default(tfcc_op_options *o, tfcc_options_kind kind);

/* The fused activation field of options o, or NULL when its kind has none. */
int32_t *tfcc_options_activation(tfcc_op_options *o);

#endif
