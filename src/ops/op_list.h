/* Every operator tfcc knows: X(BUILTIN_NAME, symbol). The definition is
 *   const tfcc_op_def tfcc_op_<symbol>  in src/ops/<symbol>.c (or a family file).
 * Adding an operator: its file in src/ops, one line here, a test. Builtin codes not listed here are
 * reported as unsupported at load, all of them at once. */
#define TFCC_OP_LIST(X) \
  X(ABS, abs) \
  X(ADD, add) \
  X(ARG_MAX, arg_max) \
  X(ARG_MIN, arg_min) \
  X(AVERAGE_POOL_2D, average_pool_2d) \
  X(BATCH_MATMUL, batch_matmul) \
  X(CAST, cast) \
  X(CONCATENATION, concatenation) \
  X(CONV_2D, conv_2d) \
  X(DENSIFY, densify) \
  X(DEPTH_TO_SPACE, depth_to_space) \
  X(DEPTHWISE_CONV_2D, depthwise_conv_2d) \
  X(DEQUANTIZE, dequantize) \
  X(DIV, div) \
  X(ELU, elu) \
  X(EQUAL, equal) \
  X(EXP, exp) \
  X(EXPAND_DIMS, expand_dims) \
  X(FLOOR, floor) \
  X(FLOOR_DIV, floor_div) \
  X(FULLY_CONNECTED, fully_connected) \
  X(GATHER, gather) \
  X(GATHER_ND, gather_nd) \
  X(GELU, gelu) \
  X(GREATER, greater) \
  X(HARD_SWISH, hard_swish) \
  X(L2_NORMALIZATION, l2_normalization) \
  X(LEAKY_RELU, leaky_relu) \
  X(LOG, log) \
  X(LOGISTIC, logistic) \
  X(LOG_SOFTMAX, log_softmax) \
  X(MAXIMUM, maximum) \
  X(MAX_POOL_2D, max_pool_2d) \
  X(MEAN, mean) \
  X(MINIMUM, minimum) \
  X(MIRROR_PAD, mirror_pad) \
  X(MUL, mul) \
  X(NEG, neg) \
  X(PACK, pack) \
  X(PAD, pad) \
  X(PADV2, padv2) \
  X(POW, pow) \
  X(PRELU, prelu) \
  X(QUANTIZE, quantize) \
  X(REDUCE_MAX, reduce_max) \
  X(REDUCE_MIN, reduce_min) \
  X(RELU, relu) \
  X(RELU_N1_TO_1, relu_n1_to_1) \
  X(RELU6, relu6) \
  X(RESHAPE, reshape) \
  X(RESIZE_BILINEAR, resize_bilinear) \
  X(RESIZE_NEAREST_NEIGHBOR, resize_nearest_neighbor) \
  X(RSQRT, rsqrt) \
  X(SHAPE, shape) \
  X(SLICE, slice) \
  X(SOFTMAX, softmax) \
  X(SPACE_TO_DEPTH, space_to_depth) \
  X(SPLIT, split) \
  X(SPLIT_V, split_v) \
  X(SQRT, sqrt) \
  X(SQUARE, square) \
  X(SQUARED_DIFFERENCE, squared_difference) \
  X(SQUEEZE, squeeze) \
  X(STRIDED_SLICE, strided_slice) \
  X(SUB, sub) \
  X(SUM, sum) \
  X(TANH, tanh) \
  X(TILE, tile) \
  X(TRANSPOSE, transpose) \
  X(TRANSPOSE_CONV, transpose_conv) \
  X(UNIDIRECTIONAL_SEQUENCE_LSTM, unidirectional_sequence_lstm) \
  X(UNPACK, unpack) \
  X(WHERE, where) \
  X(GREATER_EQUAL, greater_equal) \
  X(LESS, less) \
  X(LESS_EQUAL, less_equal) \
  X(NOT_EQUAL, not_equal) \
  X(LOGICAL_AND, logical_and) \
  X(LOGICAL_OR, logical_or) \
  X(LOGICAL_NOT, logical_not) \
  X(SELECT, select) \
  X(SELECT_V2, select_v2) \
  X(FLOOR_MOD, floor_mod) \
  X(REDUCE_PROD, reduce_prod) \
  X(CEIL, ceil) \
  X(ROUND, round) \
  X(SIN, sin) \
  X(COS, cos) \
  X(FILL, fill) \
  X(ZEROS_LIKE, zeros_like) \
  X(RANGE, range) \
  X(BROADCAST_TO, broadcast_to) \
  X(SPACE_TO_BATCH_ND, space_to_batch_nd) \
  X(BATCH_TO_SPACE_ND, batch_to_space_nd) \
  X(ADD_N, add_n) \
  X(L2_POOL_2D, l2_pool_2d) \
  X(NON_MAX_SUPPRESSION_V4, non_max_suppression_v4) \
  X(NON_MAX_SUPPRESSION_V5, non_max_suppression_v5) \
  X(RFFT2D, rfft2d) \
  X(REAL, real) \
  X(IMAG, imag) \
  X(COMPLEX_ABS, complex_abs) \
  X(SIGN, sign) \
  X(ATAN2, atan2) \
  X(RELU_0_TO_1, relu_0_to_1) \
  X(BITWISE_XOR, bitwise_xor) \
  X(RIGHT_SHIFT, right_shift) \
  X(REDUCE_ANY, reduce_any) \
  X(REDUCE_ALL, reduce_all) \
  X(REVERSE_V2, reverse_v2) \
  X(RANK, rank) \
  X(CUMSUM, cumsum) \
  /* opsa: indexing, segment and misc operators */ \
  X(ONE_HOT, one_hot) \
  X(BUCKETIZE, bucketize) \
  X(BROADCAST_ARGS, broadcast_args) \
  X(SCATTER_ND, scatter_nd) \
  X(DYNAMIC_UPDATE_SLICE, dynamic_update_slice) \
  X(EMBEDDING_LOOKUP, embedding_lookup) \
  X(SEGMENT_SUM, segment_sum) \
  X(UNSORTED_SEGMENT_SUM, unsorted_segment_sum) \
  X(UNSORTED_SEGMENT_PROD, unsorted_segment_prod) \
  X(UNSORTED_SEGMENT_MAX, unsorted_segment_max) \
  X(UNSORTED_SEGMENT_MIN, unsorted_segment_min) \
  X(MATRIX_DIAG, matrix_diag) \
  X(MATRIX_SET_DIAG, matrix_set_diag) \
  X(REVERSE_SEQUENCE, reverse_sequence) \
  X(SPARSE_TO_DENSE, sparse_to_dense) \
  X(TOPK_V2, topk_v2) \
  X(UNIQUE, unique) \
  X(LOCAL_RESPONSE_NORMALIZATION, local_response_normalization) \
  X(FAKE_QUANT, fake_quant) \
  X(BITCAST, bitcast) \
  X(RANDOM_UNIFORM, random_uniform) \
  X(RANDOM_STANDARD_NORMAL, random_standard_normal) \
  X(MULTINOMIAL, multinomial) \
  /* cflow: subgraphs and resource variables (src/runtime/control_flow.c, resource_vars.c) */ \
  X(WHILE, while) \
  X(IF, if) \
  X(CALL_ONCE, call_once) \
  X(CALL, call) \
  X(VAR_HANDLE, var_handle) \
  X(READ_VARIABLE, read_variable) \
  X(ASSIGN_VARIABLE, assign_variable) \
  /* sequence models (opsb): LSTM is defined in unidirectional_sequence_lstm.c */ \
  X(LSTM, lstm) \
  /* RNN family: all three in rnn.c */ \
  X(RNN, rnn) \
  X(UNIDIRECTIONAL_SEQUENCE_RNN, unidirectional_sequence_rnn) \
  X(BIDIRECTIONAL_SEQUENCE_RNN, bidirectional_sequence_rnn) \
  X(BIDIRECTIONAL_SEQUENCE_LSTM, bidirectional_sequence_lstm) \
  X(SVDF, svdf) \
  /* 3-D convolutions: both in conv_3d.c */ \
  X(CONV_3D, conv_3d) \
  X(CONV_3D_TRANSPOSE, conv_3d_transpose) \
  /* opsc: StableHLO elementwise operators, all in stablehlo_elementwise.c */ \
  X(STABLEHLO_ADD, stablehlo_add) \
  X(STABLEHLO_MULTIPLY, stablehlo_multiply) \
  X(STABLEHLO_MAXIMUM, stablehlo_maximum) \
  X(STABLEHLO_MINIMUM, stablehlo_minimum) \
  X(STABLEHLO_AND, stablehlo_and) \
  X(STABLEHLO_SHIFT_LEFT, stablehlo_shift_left) \
  /* opsc: LSH, sparse embeddings, DILATE, REDUCE_WINDOW and the StableHLO operators with options */ \
  X(LSH_PROJECTION, lsh_projection) \
  X(EMBEDDING_LOOKUP_SPARSE, embedding_lookup_sparse) \
  X(DILATE, dilate) \
  X(STABLEHLO_PAD, stablehlo_pad) \
  X(STABLEHLO_GATHER, stablehlo_gather) \
  X(REDUCE_WINDOW, reduce_window) \
  X(STABLEHLO_REDUCE_WINDOW, stablehlo_reduce_window) \
  X(STABLEHLO_SCATTER, stablehlo_scatter) \
  /* opsc: runs its decomposition subgraph; defined in src/runtime/control_flow.c with CALL */ \
  X(STABLEHLO_COMPOSITE, stablehlo_composite) \
  /* ops: STABLEHLO_CASE (defined in src/runtime/control_flow.c), the StableHLO bit generator */ \
  X(STABLEHLO_CASE, stablehlo_case) \
  X(STABLEHLO_RNG_BIT_GENERATOR, stablehlo_rng_bit_generator) \
  /* end of list */

/* Custom operators tfcc knows, by their custom_code: X("name", symbol), defined as
 *   const tfcc_op_def tfcc_op_<symbol>  in src/ops/<symbol>.c. */
#define TFCC_CUSTOM_OP_LIST(X) \
  X("TFLite_Detection_PostProcess", detection_postprocess) \
  X("AudioSpectrogram", audio_spectrogram) /* ops */ \
  X("Mfcc", mfcc)                          /* ops */ \
  X("NumericVerify", numeric_verify)       /* ops */ \
  X("aeq.hadamard_rotation", hadamard_rotation) \
  X("moe", moe) /* sweep7 */ \
  /* end of list */
