"""Image classification in the shape of TensorFlow Lite's classic Python example
(tensorflow/lite/examples/python/label_image.py): load an image, resize it to the model's input,
normalise it for float models, invoke, print the top 5 with their labels and the time.

The only tfcc-specific line is the import: with `import tflite_runtime.interpreter as tflite`
instead, the rest runs unchanged on TensorFlow Lite.

Images are read with PIL when it is installed (Debian: python3-pil); otherwise a small reader
here takes 24/32-bit and 8-bit uncompressed .bmp files and .npy arrays (HxWx3 uint8), resized
with nearest-neighbour sampling.
"""
import argparse
import time

import numpy as np

import tfcc as tflite


def load_labels(path):
    with open(path, "r", encoding="utf-8") as f:
        return [line.strip() for line in f.readlines()]


def _read_bmp(path):
    """Uncompressed BMP (8-bit palette, 24 or 32-bit) as an HxWx3 uint8 RGB array."""
    data = open(path, "rb").read()
    if data[:2] != b"BM":
        raise ValueError("%s: not a BMP file" % path)
    offset = int.from_bytes(data[10:14], "little")
    width = int.from_bytes(data[18:22], "little", signed=True)
    height = int.from_bytes(data[22:26], "little", signed=True)
    bpp = int.from_bytes(data[28:30], "little")
    compression = int.from_bytes(data[30:34], "little")
    if compression not in (0, 3) or bpp not in (8, 24, 32):
        raise ValueError("%s: %d-bit BMP with compression %d is not supported here"
                         % (path, bpp, compression))
    rows = abs(height)
    stride = (width * bpp // 8 + 3) & ~3
    pix = np.frombuffer(data, np.uint8, stride * rows, offset).reshape(rows, stride)
    if bpp == 8:
        header = int.from_bytes(data[14:18], "little")
        colors = int.from_bytes(data[46:50], "little") or 256
        palette = np.frombuffer(data, np.uint8, 4 * colors, 14 + header).reshape(colors, 4)
        rgb = palette[pix[:, :width]][:, :, 2::-1]
    else:
        n = bpp // 8
        rgb = pix[:, :width * n].reshape(rows, width, n)[:, :, 2::-1]
    return np.ascontiguousarray(rgb[::-1] if height > 0 else rgb)


def _resize_nearest(img, width, height):
    ys = (np.arange(height) * img.shape[0] // height).clip(0, img.shape[0] - 1)
    xs = (np.arange(width) * img.shape[1] // width).clip(0, img.shape[1] - 1)
    return img[ys][:, xs]


def load_image(path, width, height):
    """The image at path resized to width x height, as an HxWxC uint8 array."""
    try:
        from PIL import Image
    except ImportError:
        Image = None
    if path.endswith(".npy"):
        return _resize_nearest(np.load(path), width, height)
    if Image is not None:
        return np.asarray(Image.open(path).convert("RGB").resize((width, height)))
    return _resize_nearest(_read_bmp(path), width, height)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-i", "--image", default="/tmp/grace_hopper.bmp", help="image to classify")
    parser.add_argument("-m", "--model_file", default="/tmp/mobilenet_v1_1.0_224_quant.tflite",
                        help=".tflite model")
    parser.add_argument("-l", "--label_file", default="/tmp/labels.txt", help="labels, one a line")
    parser.add_argument("--input_mean", default=127.5, type=float, help="input mean (float models)")
    parser.add_argument("--input_std", default=127.5, type=float,
                        help="input standard deviation (float models)")
    parser.add_argument("--num_threads", default=None, type=int, help="number of threads")
    args = parser.parse_args()

    interpreter = tflite.Interpreter(model_path=args.model_file, num_threads=args.num_threads)
    interpreter.allocate_tensors()
    input_details = interpreter.get_input_details()
    output_details = interpreter.get_output_details()

    # NHWC input: height and width from its shape
    floating_model = input_details[0]["dtype"] == np.float32
    height, width = int(input_details[0]["shape"][1]), int(input_details[0]["shape"][2])
    img = load_image(args.image, width, height)
    input_data = np.expand_dims(img, axis=0)
    if floating_model:
        input_data = (np.float32(input_data) - args.input_mean) / args.input_std
    interpreter.set_tensor(input_details[0]["index"], input_data)

    start_time = time.time()
    interpreter.invoke()
    stop_time = time.time()

    output_data = interpreter.get_tensor(output_details[0]["index"])
    results = np.squeeze(output_data)
    top_k = results.argsort()[-5:][::-1]
    labels = load_labels(args.label_file)
    for i in top_k:
        score = float(results[i]) if floating_model else float(results[i] / 255.0)
        print("{:08.6f}: {}".format(score, labels[i]))
    print("time: {:.3f}ms".format((stop_time - start_time) * 1000))


if __name__ == "__main__":
    main()
