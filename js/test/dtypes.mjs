// The package's dtype table for tfcc's newer tensor types, on one-operator models built with
// modelgen (Python, stdlib only): int4 / int2 (Int8Array, one value per byte, sign-extended),
// uint4 (Uint8Array, one value per byte), bfloat16 (Uint16Array, raw bits) and float8 e4m3fn /
// e5m2 (Uint8Array, raw bytes) as model inputs and outputs: the names and typed arrays the
// session reports, and values through a run.
//   node js/test/dtypes.mjs [--pkg DIR]         (exit 77 without a Python 3 for modelgen)
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..', 'lib')));
const entry = fs.existsSync(path.join(pkg, 'index.mjs')) ? path.join(pkg, 'index.mjs') : path.join(pkg, 'lib', 'index.mjs');
const {Runtime} = await import(pathToFileURL(entry).href);

// the models, written by modelgen into a temporary folder
const GEN = `
import os, sys
sys.path.insert(0, sys.argv[1])
import tflite_schema as S
from casekit import T, single
F32, I32 = S.FLOAT32, S.INT32
def one(op, ins, outs, opts=None):
    return single("dtypes", op, ins, outs, opts).build()[0]
models = {
    "int4": one("TRANSPOSE", [T(S.INT4, [2, 3], q=(0.5, 0)), T(I32, [2], const=[1, 0])],
                [T(S.INT4, [3, 2], q=(0.5, 0))], {"_version": 7}),
    "int2": one("CAST", [T(F32, [5])], [T(S.INT2, [5])], {"_version": 8}),
    "uint4": one("DEQUANTIZE", [T(S.UINT4, [5], q=(0.5, 8))], [T(F32, [5])], {"_version": 8}),
    "bfloat16": one("CAST", [T(F32, [4])], [T(S.BFLOAT16, [4])]),
    "e4m3": one("GATHER", [T(S.FLOAT8_E4M3FN, [4, 2]), T(I32, [2], const=[0, 3])],
                [T(S.FLOAT8_E4M3FN, [2, 2])], {"_version": 8}),
    "e5m2": one("GATHER", [T(S.FLOAT8_E5M2, [4, 2]), T(I32, [2], const=[0, 3])],
                [T(S.FLOAT8_E5M2, [2, 2])], {"_version": 8}),
}
for name, data in models.items():
    with open(os.path.join(sys.argv[2], name + ".tflite"), "wb") as f:
        f.write(data)
`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfcc-wasm-dtypes-'));
const python = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', ''], {stdio: 'ignore'}).status === 0);
if (!python) {
  console.log('SKIP: no python3 for modelgen');
  process.exit(77);
}
const gen = spawnSync(python, ['-c', GEN, path.join(ROOT, 'modelgen'), dir], {encoding: 'utf8'});
assert.equal(gen.status, 0, `modelgen: ${gen.stderr}`);

const rt = await Runtime.create({threads: 1});
let checks = 0;
async function check(name, fn) {
  const m = await rt.loadModel(path.join(dir, `${name}.tflite`));
  const s = m.createSession();
  try {
    await fn(s);
  } finally {
    s.dispose();
    m.dispose();
  }
  checks++;
  console.log(`ok ${name}`);
}
const io = (t) => [t.dtype, t.shape, t.bytes];

await check('int4', (s) => {
  assert.deepEqual(io(s.inputs[0]), ['int4', [2, 3], 6]);
  assert.deepEqual(io(s.outputs[0]), ['int4', [3, 2], 6]);
  const y = Object.values(s.run([Int8Array.of(-8, 7, -1, 0, 3, -5)]))[0];
  assert.ok(y instanceof Int8Array);
  assert.deepEqual(Array.from(y), [-8, 0, 7, 3, -1, -5]);
});

await check('int2', (s) => {
  assert.deepEqual(io(s.outputs[0]), ['int2', [5], 5]);
  const y = Object.values(s.run([Float32Array.of(1, -2, 0, -1, 1)]))[0];
  assert.ok(y instanceof Int8Array);
  assert.deepEqual(Array.from(y), [1, -2, 0, -1, 1]);
});

await check('uint4', (s) => {
  assert.deepEqual(io(s.inputs[0]), ['uint4', [5], 5]);
  assert.deepEqual(s.inputs[0].quantization, {scales: [0.5], zeroPoints: [8], axis: -1});
  const y = Object.values(s.run([Uint8Array.of(0, 8, 15, 9, 3)]))[0];
  assert.deepEqual(Array.from(y), [-4, 0, 3.5, 0.5, -2.5]);
});

await check('bfloat16', (s) => {
  assert.deepEqual(io(s.outputs[0]), ['bfloat16', [4], 8]);
  const y = Object.values(s.run([Float32Array.of(1, -2.5, 0, 3)]))[0];
  assert.ok(y instanceof Uint16Array);
  assert.deepEqual(Array.from(y), [0x3f80, 0xc020, 0x0000, 0x4040]); // the upper halves of the float32s
});

for (const [name, dtype] of [['e4m3', 'float8_e4m3fn'], ['e5m2', 'float8_e5m2']]) {
  await check(name, (s) => {
    assert.deepEqual(io(s.inputs[0]), [dtype, [4, 2], 8]);
    assert.deepEqual(io(s.outputs[0]), [dtype, [2, 2], 4]);
    const y = Object.values(s.run([Uint8Array.of(0x38, 0xb8, 1, 2, 3, 4, 0x7e, 0x80)]))[0];
    assert.ok(y instanceof Uint8Array);
    assert.deepEqual(Array.from(y), [0x38, 0xb8, 0x7e, 0x80]); // rows 0 and 3, bytes as they are
  });
}

rt.dispose();
fs.rmSync(dir, {recursive: true, force: true});
console.log(`${checks} dtype checks passed`);
