"""python/examples/label_image.py: TensorFlow Lite's classic example flow with only the import
changed, on the shared classifiers and the cat image (EXPECTED.md labels), with PIL and with the
example's own BMP reader."""
import ast
import os
import subprocess
import sys

import pytest

from conftest import PYTHON_DIR

EXAMPLE = os.path.join(PYTHON_DIR, "examples", "label_image.py")


def test_only_the_import_is_tfcc():
    tree = ast.parse(open(EXAMPLE, encoding="utf-8").read())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
               and any("tfcc" in (a.name or "") for a in n.names) or
               isinstance(n, ast.ImportFrom) and "tfcc" in (n.module or "")]
    assert len(imports) == 1 and imports[0].names[0].asname == "tflite"
    used = {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "tflite"}
    assert used == {"Interpreter"}


def run_example(shared, model, no_pil):
    models = os.path.join(shared, "models")
    argv = ["-i", os.path.join(models, "images", "cat.bmp"), "-m", os.path.join(models, model),
            "-l", os.path.join(models, "labels", "imagenet_labels.txt")]
    if no_pil:  # as if python3-pil were not installed
        code = ("import sys, runpy; sys.modules['PIL'] = None; sys.argv = ['label_image.py'] + %r; "
                "runpy.run_path(%r, run_name='__main__')" % (argv, EXAMPLE))
        cmd = [sys.executable, "-c", code]
    else:
        cmd = [sys.executable, EXAMPLE] + argv
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=os.environ).stdout
    lines = out.strip().splitlines()
    assert len(lines) == 6 and lines[-1].startswith("time: ")
    return [line.split(": ", 1)[1] for line in lines[:5]], float(lines[0].split(":")[0])


@pytest.mark.parametrize("no_pil", [False, True], ids=["pil", "bmp-reader"])
@pytest.mark.parametrize("model,label,min_score", [
    ("mobilenet_v1_025_128_quant.tflite", "tiger cat", 0.15),
    ("mobilenet_v2_224_quant.tflite", "Egyptian cat", 0.6),
])
def test_label_image(shared, model, label, min_score, no_pil):
    if not no_pil:
        pytest.importorskip("PIL", reason="python3-pil is not installed")
    top5, score = run_example(shared, model, no_pil)
    assert label in top5[:3], top5
    assert "cat" in top5[0] and score > min_score, (top5, score)
