"""tfcc: a TensorFlow Lite inference engine in C, with TensorFlow Lite's Python Interpreter API.

Existing scripts work by changing the import::

    import tfcc as tflite                # was: import tflite_runtime.interpreter as tflite
    interpreter = tflite.Interpreter(model_path="model.tflite")

See docs/python.md for the API and where it differs from TensorFlow Lite.
"""
from . import _tfcc
from .interpreter import Interpreter, InterpreterWithCustomOps, SignatureRunner, bench, cpu_info

encrypt_file = _tfcc.encrypt_file

__version__ = _tfcc.version
has_crypto = bool(_tfcc.has_crypto)

__all__ = ["Interpreter", "InterpreterWithCustomOps", "SignatureRunner", "bench", "cpu_info", "encrypt_file", "has_crypto",
           "__version__"]
