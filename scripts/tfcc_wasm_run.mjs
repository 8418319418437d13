// `tfcc run`'s command line over the WebAssembly package (js/, scripts/build-wasm.sh), so that
// scripts/sweep_isa.py can run the same models in Node as the native command:
//   node scripts/tfcc_wasm_run.mjs run MODEL -o OUTDIR [-t N] [-i IN.npy ...] [--pkg DIR]
// Writes OUTDIR/<i>_output.npy per output (the index first, as `tfcc run` names them).
// TFCC_ISA=generic caps the kernels (Runtime.create's isa); --pkg: the package folder (default
// build-wasm/npm/tfcc-wasm, or TFCC_WASM_PKG). Under node --experimental-wasm-relaxed-simd the
// package loads its relaxed-SIMD binary.
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {readNpy} from '../js/test/npy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
if (argv[0] !== 'run' || argv.length < 2) {
  console.error('usage: node scripts/tfcc_wasm_run.mjs run MODEL -o OUTDIR [-t N] [-i IN.npy ...] [--pkg DIR]');
  process.exit(2);
}
const model = argv[1];
let outDir = '.', threads = 1;
let pkg = process.env.TFCC_WASM_PKG || path.join(HERE, '..', 'build-wasm', 'npm', 'tfcc-wasm');
const inputs = [];
for (let k = 2; k < argv.length; k++) {
  const a = argv[k];
  if (a === '-o') outDir = argv[++k];
  else if (a === '-t' || a === '--threads') threads = Number(argv[++k]);
  else if (a === '-i') inputs.push(argv[++k]);
  else if (a === '--pkg') pkg = argv[++k];
  else { console.error(`tfcc_wasm_run: unknown argument ${a}`); process.exit(2); }
}
const entry = fs.existsSync(path.join(pkg, 'lib', 'index.mjs')) ? path.join(pkg, 'lib', 'index.mjs') : path.join(pkg, 'index.mjs');
const {Runtime} = await import(pathToFileURL(entry).href);

const DESCR = {float32: '<f4', float64: '<f8', int32: '<i4', uint32: '<u4', int16: '<i2', uint16: '<u2',
               int8: '|i1', uint8: '|u1', bool: '|b1', int64: '<i8', uint64: '<u8', float16: '<f2'};

function writeNpy(file, dtype, shape, data) {
  const descr = DESCR[dtype];
  if (!descr) throw new Error(`output dtype ${dtype}: no .npy type`);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ');
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${dims}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.writeUInt32BE(0x934e554d, 0);
  head[4] = 0x50; head[5] = 0x59; head[6] = 1; head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'),
                                        Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

try {
  const rt = await Runtime.create({threads, isa: process.env.TFCC_ISA || undefined});
  const m = await rt.loadModel(model);
  const s = m.createSession();
  if (inputs.length !== s.inputs.length) throw new Error(`${s.inputs.length} inputs, ${inputs.length} given`);
  const out = s.run(inputs.map((f) => readNpy(f).data));
  fs.mkdirSync(outDir, {recursive: true});
  s.outputs.forEach((t, i) => writeNpy(path.join(outDir, `${i}_output.npy`), t.dtype, t.shape, out[t.name]));
  console.log(`tfcc-wasm ${rt.version}, isa ${rt.isa}, ${rt.threads} thread(s), ` +
              `${rt.relaxedSimd ? "relaxed-SIMD" : "SIMD128"} binary, int8 GEMM ${rt.q8Gemm}`);
} catch (e) {
  console.error(`tfcc_wasm_run: ${model}: ${e.message}`);
  process.exit(1);
}
