"""tfcc.Interpreter: TensorFlow Lite's ``tf.lite.Interpreter`` over tfcc.

The C core (``tfcc._tfcc.Interpreter``) owns one NumPy array per input and output and runs the
model on them in place; this module adds TensorFlow Lite's argument names, ``tensor()``,
``resize_tensor_input(strict=)``, signatures and ``get_tensor_details``. ``invoke`` is the C
method itself (no Python frame in between).
"""
import os

import numpy as np

from . import _tfcc

__all__ = ["Interpreter", "SignatureRunner", "bench", "cpu_info"]

cpu_info = _tfcc.cpu_info


def bench(model_path, num_threads=1, warmup=1, runs=None, duration=None, affinity=None, isa=None,
          precision="f32", inputs=None, seed=1, profile_runs=None):
    """Measures a model like ``tfcc bench MODEL --json`` and returns that report as a dict.

    Same defaults and meanings as the command: ``runs`` alone does exactly that many timed runs,
    ``duration`` (seconds) alone runs until it has passed, neither: at least 10 runs and 1 s.
    ``inputs``: a list of ``"FILE.npy"`` / ``"NAME=FILE.npy"`` (the command's ``-i``); other
    inputs get seeded random data. ``affinity``: ``"0-3"`` or ``[0, 1]``. Keys: load_ms,
    session_ms, first_ms, latency_ms{min,avg,p50,p90,p99,max,stddev}, qps, cpu_ms_per_run,
    peak_rss_bytes, arena_bytes, memory{...}, ops[...] and the settings.
    """
    return _tfcc.bench(model_path, num_threads=num_threads, warmup=warmup, runs=runs,
                       duration=duration, affinity=affinity, isa=isa, precision=precision,
                       inputs=inputs, seed=seed, profile_runs=profile_runs)


class Interpreter(_tfcc.Interpreter):
    """Loads a .tflite model and runs it (TensorFlow Lite's ``Interpreter``).

    TensorFlow Lite's arguments: ``model_path``, ``model_content`` (bytes), ``num_threads``
    (None: 1), ``experimental_delegates`` (must be empty: tfcc has no delegates),
    ``experimental_preserve_all_tensors`` (must be False: intermediate tensors share memory);
    the other ``experimental_*`` arguments are accepted and ignored.

    Custom operators (docs/custom_ops.md, "Plugins"): ``custom_op_libraries``, paths of tfcc
    custom-operator plugins (shared libraries exporting ``tfcc_custom_ops_register``), and
    ``custom_op_registerers`` as in TensorFlow Lite's ``InterpreterWithCustomOps``: each the
    name of such a function already in the process (its library loaded with
    ``ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)``) or its address (int). They are registered on
    this interpreter's runtime before the model loads; a library that does not load or a
    registration that fails raises ValueError naming it.

    tfcc's own: ``isa`` ("generic", "sse4", "avx2", "avx512": cap kernel dispatch),
    ``precision`` ("f32", "bf16"; "fp16" on a GPU), ``quant_compat`` ("tflite" or "reference"),
    ``device`` ("cpu", default: env TFCC_DEVICE, else the CPU; "cuda" or "cuda:N": an NVIDIA
    GPU through libtfcc_cuda, docs/cuda.md),
    ``disable_winograd``, and for encrypted models (.tfcce) one of ``key`` (32 bytes or 64 hex
    digits), ``key_file`` (a path) or ``key_env`` (an environment variable's name).
    """

    def __init__(self, model_path=None, model_content=None, experimental_delegates=None,
                 num_threads=None, experimental_op_resolver_type=None,
                 experimental_preserve_all_tensors=False,
                 experimental_disable_delegate_clustering=False,
                 experimental_default_delegate_latest_features=False,
                 *, custom_op_libraries=None, custom_op_registerers=None,
                 isa=None, precision=None, quant_compat=None, disable_winograd=False,
                 key=None, key_file=None, key_env=None, device=None):
        if experimental_delegates:
            raise ValueError("tfcc has no delegates: experimental_delegates must be empty "
                             "(tfcc's own kernels run every supported operator)")
        if experimental_preserve_all_tensors:
            raise ValueError("experimental_preserve_all_tensors is not supported: tfcc reuses the "
                             "memory of intermediate tensors (inputs and outputs are readable)")
        if num_threads is None:
            num_threads = 1
        elif not isinstance(num_threads, int) or isinstance(num_threads, bool):
            raise ValueError("type of num_threads should be int")
        elif num_threads < -1:
            raise ValueError("num_threads should be >= -1 (-1 or None: 1 thread; 0: all CPUs)")
        elif num_threads == -1:
            num_threads = 1
        if isinstance(key, str):
            try:
                key = bytes.fromhex(key)
            except ValueError:
                raise ValueError("key: a str key must be 64 hex digits") from None
        if isinstance(custom_op_libraries, (str, bytes, os.PathLike)):
            custom_op_libraries = [custom_op_libraries]
        if custom_op_libraries is not None:
            custom_op_libraries = [os.fsencode(p) for p in custom_op_libraries]
        if isinstance(custom_op_registerers, (str, int)):
            custom_op_registerers = [custom_op_registerers]
        if custom_op_registerers is not None:
            custom_op_registerers = list(custom_op_registerers)
        self._open(model_path, model_content, num_threads, isa, precision, quant_compat, key,
                   key_file, key_env, bool(disable_winograd), custom_op_libraries,
                   custom_op_registerers, device)
        self._inputs, self._outputs = self._io_tensors()

    def tensor(self, tensor_index):
        """A function returning a view of the NumPy array tfcc reads (input) or writes
        (output) in place.

        Unlike TensorFlow Lite, holding the array across ``invoke`` or a resize is safe: after a
        resize that changes the shape, call the function again for the new array.
        """
        self._view(tensor_index)  # ValueError now for a tensor tfcc does not keep
        return lambda: self._view(tensor_index)

    def resize_tensor_input(self, input_index, tensor_size, strict=False):
        """Changes an input's shape (TFLite's ``input_index`` is the tensor index from
        ``get_input_details()``). ``strict``: only dimensions that are -1 in the shape signature
        may change. Like TensorFlow Lite, the new shapes take effect at ``allocate_tensors()``."""
        dims = np.array(tensor_size, dtype=np.int64).reshape(-1)
        if strict:
            detail = self._input_detail(input_index)
            sig = detail["shape_signature"]
            ok = len(sig) == len(dims) and all(s == -1 or s == d for s, d in zip(sig, dims))
            if not ok:
                raise ValueError("resize_tensor_input(strict=True) only allows changing dimensions "
                                 "that are -1 in the shape signature: input %d (%s) has signature "
                                 "%s, asked %s" % (input_index, detail["name"], list(sig),
                                                   list(dims)))
        self._resize(input_index, dims)

    def _input_detail(self, tensor_index):
        for d in self.get_input_details():
            if d["index"] == tensor_index:
                return d
        raise ValueError("tensor %d is not an input of this model" % tensor_index)

    def get_tensor_details(self):
        """Details of the tensors tfcc can read back: the inputs and outputs, by index.

        TensorFlow Lite lists every tensor; tfcc keeps no intermediate tensors after a run
        (their memory is reused), so listing them would promise what ``get_tensor`` cannot do.
        """
        seen = {}
        for d in self.get_input_details() + self.get_output_details():
            seen.setdefault(d["index"], d)
        return [seen[i] for i in sorted(seen)]

    def get_signature_list(self):
        """``{key: {'inputs': [names], 'outputs': [names]}}`` of the file's SignatureDefs
        (names sorted, as TensorFlow Lite lists them)."""
        return {key: {"inputs": sorted(n for n, _ in ins), "outputs": sorted(n for n, _ in outs)}
                for key, _, ins, outs in self._signatures()}

    def _get_full_signature_list(self):
        return {key: {"inputs": dict(ins), "outputs": dict(outs), "subgraph_index": sg}
                for key, sg, ins, outs in self._signatures()}

    def get_signature_runner(self, signature_key=None):
        """A callable running one SignatureDef with keyword arrays, returning a dict of outputs.

        ``signature_key`` None: the model's only signature; a model without signatures gets a
        runner over its inputs and outputs by tensor name.
        """
        sigs = self._signatures()
        if signature_key is None:
            if len(sigs) > 1:
                raise ValueError("SignatureDef signature_key is None and model has %d Signatures. "
                                 "None is only allowed when the model has 1 SignatureDef"
                                 % len(sigs))
            if sigs:
                signature_key = sigs[0][0]
        return SignatureRunner(self, signature_key)

    def get_ops(self):
        """The model's operators: dicts with index, op_name, version, supported, macs (tfcc
        lists operators after its load-time graph passes are planned, by file order)."""
        return self._ops()


class InterpreterWithCustomOps(Interpreter):
    """TensorFlow Lite's name for an Interpreter with custom operators: ``custom_op_registerers``
    (and tfcc's ``custom_op_libraries``) as ``Interpreter`` takes them."""

    def __init__(self, custom_op_registerers=None, **kwargs):
        super().__init__(custom_op_registerers=custom_op_registerers, **kwargs)


class SignatureRunner:
    """Runs one SignatureDef of an Interpreter: ``runner(x=array) -> {'y': array}``.

    A signature of subgraph 0 runs on the interpreter's own session and tensors (as in
    TensorFlow Lite); one of another subgraph (e.g. ``decode`` next to ``encode``) on a session
    of its own for that subgraph, sharing the interpreter's model and weights. Tensor indices
    in its details are the signature's, in its subgraph."""

    def __init__(self, interpreter, signature_key):
        self._interpreter = interpreter
        self._key = signature_key
        target = interpreter
        if signature_key is None:
            ins = [(d["name"], d["index"]) for d in interpreter.get_input_details()]
            outs = [(d["name"], d["index"]) for d in interpreter.get_output_details()]
        else:
            found = [s for s in interpreter._signatures() if s[0] == signature_key]
            if not found:
                raise ValueError("Invalid signature_key provided: '%s' (the model has %s)"
                                 % (signature_key, [s[0] for s in interpreter._signatures()]))
            _, subgraph, ins, outs = found[0]
            if subgraph != 0:
                target = _tfcc.Interpreter()
                target._open_signature(interpreter, signature_key)
        self._target = target
        self._in = dict(ins)
        self._out = dict(outs)
        t_ins, t_outs = target._io_tensors()
        for name, t in ins:
            if t not in t_ins:
                raise ValueError("signature '%s' input '%s' is tensor %d, not an input of the "
                                 "model" % (signature_key, name, t))
        for name, t in outs:
            if t not in t_outs:
                raise ValueError("signature '%s' output '%s' is tensor %d, not an output of the "
                                 "model" % (signature_key, name, t))

    def __call__(self, **kwargs):
        if len(kwargs) != len(self._in):
            raise ValueError("Invalid number of inputs provided for running a SignatureDef, "
                             "expected %d vs provided %d" % (len(self._in), len(kwargs)))
        interp = self._target
        resized = False
        for name, value in kwargs.items():
            if name not in self._in:
                raise ValueError("Invalid Input name (%s) for SignatureDef (inputs: %s)"
                                 % (name, sorted(self._in)))
            t = self._in[name]
            value = np.asarray(value)
            current = interp._view(t)
            if value.shape != current.shape:
                interp._resize(t, np.array(value.shape, dtype=np.int64))
                resized = True
        if resized:
            interp.allocate_tensors()
        for name, value in kwargs.items():
            interp.set_tensor(self._in[name], np.asarray(value))
        interp.invoke()
        return {name: interp.get_tensor(t) for name, t in self._out.items()}

    def _details(self, mapping, all_details):
        by_index = {d["index"]: d for d in all_details}
        return {name: by_index[t] for name, t in mapping.items()}

    def get_input_details(self):
        """``{name: details}`` of the signature's inputs."""
        return self._details(self._in, self._target.get_input_details())

    def get_output_details(self):
        """``{name: details}`` of the signature's outputs."""
        return self._details(self._out, self._target.get_output_details())
