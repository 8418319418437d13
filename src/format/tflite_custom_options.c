/* Custom operators' FlexBuffer options -> typed options (the contract is in
 * tflite_custom_options.h). The keys and their checks appear nowhere else in tfcc. */
#include "format/tflite_custom_options.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "format/flexbuf.h"

/* The value of key in map: *present = false where it is missing or null (an error if required). */
static tfcc_status opt_get(const tfcc_flex_ref *map, const char *key, bool required,
                           tfcc_flex_ref *r, bool *present, tfcc_err *err) {
  bool found = false;
  tfcc_status st = tfcc_flex_map_get(map, key, r, &found, err);
  if (st) return tfcc_err_prefix(err, "custom options");
  *present = found && r->type != TFCC_FLEX_NULL;
  if (!*present && required)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "custom options: no '%s'", key);
  return TFCC_OK;
}

static tfcc_status opt_num(const tfcc_flex_ref *map, const char *key, bool required, double dflt,
                           double *v, tfcc_err *err) {
  tfcc_flex_ref r;
  bool present = false;
  tfcc_status st = opt_get(map, key, required, &r, &present, err);
  *v = dflt;
  if (st || !present) return st;
  if ((st = tfcc_flex_as_double(&r, key, v, err))) return tfcc_err_prefix(err, "custom options");
  return TFCC_OK;
}

static tfcc_status opt_int(const tfcc_flex_ref *map, const char *key, bool required, int32_t dflt,
                           int32_t lo, int32_t hi, int32_t *v, tfcc_err *err) {
  double d;
  tfcc_status st = opt_num(map, key, required, dflt, &d, err);
  if (st) return st;
  if (!(d >= lo && d <= hi))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: %s = %g, expected "
                        "%d..%d",
                        key, d, (int)lo, (int)hi);
  *v = (int32_t)d;
  return TFCC_OK;
}

static tfcc_status opt_float(const tfcc_flex_ref *map, const char *key, float *v, tfcc_err *err) {
  double d;
  tfcc_status st = opt_num(map, key, true, 0, &d, err);
  if (st) return st;
  if (!isfinite(d))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "custom options: %s = %g is not finite", key,
                        d);
  *v = (float)d;
  return TFCC_OK;
}

/* TFLite_Detection_PostProcess: reads and checks its FlexBuffer map into *p. */
static tfcc_status read_detection_options(const uint8_t *data, size_t len, tfcc_op_options *oo,
                                          tfcc_err *err) {
  tfcc_detect_params *p = &oo->detect;
  if (!data || len == 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "no custom options (a FlexBuffer map of "
                        "max_detections, num_classes, ... is required)");
  tfcc_flex_ref root;
  tfcc_status st = tfcc_flex_root(data, len, &root, err);
  if (st) return tfcc_err_prefix(err, "custom options");
  if (root.type != TFCC_FLEX_MAP)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: root is a %s, expected a "
                        "map",
                        tfcc_flex_type_name(root.type));
  double regular = 0;
  /* bounds keep rows = max_detections * max_classes_per_detection far below 2^31 */
  if ((st = opt_int(&root, "max_detections", true, 0, 1, 1 << 16, &p->max_detections, err)) ||
      (st = opt_int(&root, "max_classes_per_detection", true, 0, 1, 1 << 12,
                    &p->max_classes_per_detection, err)) ||
      (st = opt_int(&root, "detections_per_class", false, 100, INT32_MIN, INT32_MAX,
                    &p->detections_per_class, err)) ||
      (st = opt_num(&root, "use_regular_nms", false, 0, &regular, err)) ||
      (st = opt_float(&root, "nms_score_threshold", &p->score_threshold, err)) ||
      (st = opt_float(&root, "nms_iou_threshold", &p->iou_threshold, err)) ||
      (st = opt_int(&root, "num_classes", true, 0, 1, 1 << 20, &p->num_classes, err)) ||
      (st = opt_float(&root, "y_scale", &p->y_scale, err)) ||
      (st = opt_float(&root, "x_scale", &p->x_scale, err)) ||
      (st = opt_float(&root, "h_scale", &p->h_scale, err)) ||
      (st = opt_float(&root, "w_scale", &p->w_scale, err)))
    return st;
  p->use_regular_nms = regular != 0;
  /* TFLite's fast suppression never reads detections_per_class (a converted SSD in the
   * twenty-eighth sweep batch stores 0 with use_regular_nms false); the regular one fails its
   * eval unless it is positive ("num_detections_per_class > 0") */
  if (p->use_regular_nms && p->detections_per_class < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: detections_per_class = %d with use_regular_nms, "
                        "expected 1..%d",
                        (int)p->detections_per_class, (int)INT32_MAX);
  if (!(p->iou_threshold > 0.0f && p->iou_threshold <= 1.0f))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: nms_iou_threshold %g "
                        "outside (0, 1]",
                        (double)p->iou_threshold);
  if (p->y_scale == 0 || p->x_scale == 0 || p->h_scale == 0 || p->w_scale == 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: y/x/h/w_scale %g/%g/%g/%g "
                        "must be non-zero",
                        (double)p->y_scale, (double)p->x_scale, (double)p->h_scale,
                        (double)p->w_scale);
  return TFCC_OK;
}

/* ops: the root map of a custom operator's options, or an error naming what is missing. */
static tfcc_status options_map(const uint8_t *data, size_t len, const char *keys,
                               tfcc_flex_ref *root, tfcc_err *err) {
  if (!data || len == 0)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "no custom options (a FlexBuffer map of %s is required)", keys);
  tfcc_status st = tfcc_flex_root(data, len, root, err);
  if (st) return tfcc_err_prefix(err, "custom options");
  if (root->type != TFCC_FLEX_MAP)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "custom options: root is a %s, expected a map",
                        tfcc_flex_type_name(root->type));
  return TFCC_OK;
}

/* ops: AudioSpectrogram (window_size, stride, magnitude_squared): Spectrogram::Initialize
 * fails for a window under 2 or a stride under 1; the window's FFT length stays <= 2^24. */
static tfcc_status read_spectrogram_options(const uint8_t *data, size_t len, tfcc_op_options *oo,
                                            tfcc_err *err) {
  tfcc_audio_spectrogram_options *o = &oo->spectrogram;
  tfcc_flex_ref root;
  double sq = 0;
  tfcc_status st = options_map(data, len, "window_size, stride", &root, err);
  if (st || (st = opt_int(&root, "window_size", true, 0, 2, 1 << 24, &o->window_size, err)) ||
      (st = opt_int(&root, "stride", true, 0, 1, INT32_MAX, &o->stride, err)) ||
      (st = opt_num(&root, "magnitude_squared", false, 0, &sq, err)))
    return st;
  o->magnitude_squared = sq != 0;
  return TFCC_OK;
}

/* ops: Mfcc. TFLite reads the frequency limits with AsInt64 (a fraction is dropped); its
 * filterbank and DCT need upper > lower >= 0, at least one channel and 1..channels
 * coefficients (else every run fails). */
static tfcc_status read_mfcc_options(const uint8_t *data, size_t len, tfcc_op_options *oo,
                                     tfcc_err *err) {
  tfcc_mfcc_options *o = &oo->mfcc;
  tfcc_flex_ref root;
  double up = 0, lo = 0;
  tfcc_status st = options_map(
      data, len, "upper_frequency_limit, lower_frequency_limit, filterbank_channel_count, ...",
      &root, err);
  if (st || (st = opt_num(&root, "upper_frequency_limit", true, 0, &up, err)) ||
      (st = opt_num(&root, "lower_frequency_limit", true, 0, &lo, err)) ||
      (st = opt_int(&root, "filterbank_channel_count", true, 0, 1, 1 << 16,
                    &o->filterbank_channel_count, err)) ||
      (st = opt_int(&root, "dct_coefficient_count", true, 0, 1, o->filterbank_channel_count,
                    &o->dct_coefficient_count, err)))
    return st;
  if (!(fabs(up) < 1e15 && fabs(lo) < 1e15))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: frequency limits %g / %g out of range", up, lo);
  o->upper_frequency_limit = trunc(up);
  o->lower_frequency_limit = trunc(lo);
  if (!(o->lower_frequency_limit >= 0 && o->upper_frequency_limit > o->lower_frequency_limit))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: frequency limits lower %g, upper %g (need 0 <= lower < "
                        "upper)",
                        o->lower_frequency_limit, o->upper_frequency_limit);
  return TFCC_OK;
}

/* ops: NumericVerify (tolerance, log_if_failed). TFLite reads the map without checking it is
 * there (no options: it reads past the buffer), so tfcc requires the map; either key may be
 * left out (0 / false, as AsFloat / AsBool of a missing key). */
static tfcc_status read_numeric_verify_options(const uint8_t *data, size_t len, tfcc_op_options *oo,
                                               tfcc_err *err) {
  tfcc_numeric_verify_options *o = &oo->numeric_verify;
  tfcc_flex_ref root;
  double tol = 0, log_failed = 0;
  tfcc_status st = options_map(data, len, "tolerance, log_if_failed", &root, err);
  if (st || (st = opt_num(&root, "tolerance", false, 0, &tol, err)) ||
      (st = opt_num(&root, "log_if_failed", false, 0, &log_failed, err)))
    return st;
  /* AsFloat's cast, without the undefined conversion of a double beyond float's range */
  o->tolerance = fabs(tol) > FLT_MAX && isfinite(tol) ? (float)copysign(INFINITY, tol) : (float)tol;
  o->log_if_failed = log_failed != 0;
  return TFCC_OK;
}

/* aeq.hadamard_rotation (hadamard_size). TFLite reads it with AsInt32 and divides by it, so a
 * missing key or a size <= 0 is refused here. */
static tfcc_status read_hadamard_options(const uint8_t *data, size_t len, tfcc_op_options *oo,
                                         tfcc_err *err) {
  tfcc_hadamard_options *o = &oo->hadamard;
  tfcc_flex_ref root;
  tfcc_status st = options_map(data, len, "hadamard_size", &root, err);
  if (st) return st;
  return opt_int(&root, "hadamard_size", true, 0, 1, INT32_MAX, &o->hadamard_size, err);
}

/* moe's string options: `*v` = the index of the string in `names` equal to the value of key
 * (dflt where the key is missing and not required). */
static tfcc_status opt_choice(const tfcc_flex_ref *map, const char *key, bool required, int dflt,
                              const char *const *names, int n_names, int *v, tfcc_err *err) {
  tfcc_flex_ref r;
  bool present = false;
  tfcc_status st = opt_get(map, key, required, &r, &present, err);
  *v = dflt;
  if (st || !present) return st;
  const char *s = NULL;
  size_t n = 0;
  if ((st = tfcc_flex_as_string(&r, key, &s, &n, err)))
    return tfcc_err_prefix(err, "custom options");
  for (int i = 0; i < n_names; i++)
    if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0) {
      *v = i;
      return TFCC_OK;
    }
  return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "custom options: %s '%.*s' unsupported", key,
                      (int)(n > 32 ? 32 : n), s);
}

/* moe (LiteRT's XNNPACK delegate, moe_delegate_kernel.cc ReadAttributes): the four sizes and
 * weight_type are required ("fp32", "int8", "int4"), activation "gelu" (default) or
 * "gelu_tanh"; sizes > 0, active experts <= experts and experts x hidden x model < 2^31, as
 * there (other keys, such as renormalized_top_weights, are not read there either). */
static tfcc_status read_moe_options(const uint8_t *data, size_t len, tfcc_op_options *oo,
                                    tfcc_err *err) {
  static const char *const WEIGHTS[] = {"fp32", "int8", "int4"};
  static const char *const ACTS[] = {"gelu", "gelu_tanh"};
  tfcc_moe_options *o = &oo->moe;
  tfcc_flex_ref root;
  int wt = 0, act = 0;
  tfcc_status st = options_map(
      data, len, "num_experts, num_active_experts, model_dim, hidden_dim, weight_type", &root, err);
  if (st || (st = opt_int(&root, "num_experts", true, 0, 1, INT32_MAX, &o->num_experts, err)) ||
      (st = opt_int(&root, "num_active_experts", true, 0, 1, o->num_experts, &o->num_active_experts,
                    err)) ||
      (st = opt_int(&root, "model_dim", true, 0, 1, INT32_MAX, &o->model_dim, err)) ||
      (st = opt_int(&root, "hidden_dim", true, 0, 1, INT32_MAX, &o->hidden_dim, err)) ||
      (st = opt_choice(&root, "weight_type", true, 0, WEIGHTS, 3, &wt, err)) ||
      (st = opt_choice(&root, "activation", false, 0, ACTS, 2, &act, err)))
    return st;
  if ((double)o->num_experts * o->hidden_dim * o->model_dim > (double)INT32_MAX)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "custom options: %d experts x %d x %d weights exceed 2^31 - 1",
                        (int)o->num_experts, (int)o->hidden_dim, (int)o->model_dim);
  o->weight_type = (tfcc_moe_weight_type)wt;
  o->gelu_tanh = act == 1;
  return TFCC_OK;
}

/* The custom operators whose options tfcc reads: custom_code, options kind, the reader (which
 * fills its member of the options). A new one is a reader and a row here. */
static const struct {
  const char *code;
  tfcc_options_kind kind;
  tfcc_status (*read)(const uint8_t *data, size_t len, tfcc_op_options *o, tfcc_err *err);
} CUSTOM_READERS[] = {
    {"AudioSpectrogram", TFCC_OPTIONS_AUDIO_SPECTROGRAM, read_spectrogram_options},
    {"Mfcc", TFCC_OPTIONS_MFCC, read_mfcc_options},
    {"NumericVerify", TFCC_OPTIONS_NUMERIC_VERIFY, read_numeric_verify_options},
    {"aeq.hadamard_rotation", TFCC_OPTIONS_HADAMARD_ROTATION, read_hadamard_options},
    {"moe", TFCC_OPTIONS_MOE, read_moe_options},
    {"TFLite_Detection_PostProcess", TFCC_OPTIONS_DETECTION_POSTPROCESS, read_detection_options},
};

tfcc_status tfl_read_custom_options(const char *custom_code, const uint8_t *data, size_t len,
                                    tfcc_op_options *out, tfcc_err *err) {
  if (!custom_code) return TFCC_OK;
  for (size_t i = 0; i < sizeof CUSTOM_READERS / sizeof CUSTOM_READERS[0]; i++) {
    if (strcmp(custom_code, CUSTOM_READERS[i].code) != 0) continue;
    tfcc_op_options o;
    memset(&o, 0, sizeof o);
    o.kind = CUSTOM_READERS[i].kind;
    const tfcc_status st = CUSTOM_READERS[i].read(data, len, &o, err);
    if (st == TFCC_OK) *out = o;
    return st;
  }
  return TFCC_OK; /* other names: *out is left as it is */
}
