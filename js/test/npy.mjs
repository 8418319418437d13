// Minimal .npy reader for the tests and the benchmark (C order, little-endian).
import fs from 'node:fs';

const DESCR = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<i4': ['int32', Int32Array],
  '<u4': ['uint32', Uint32Array], '<i2': ['int16', Int16Array], '<u2': ['uint16', Uint16Array],
  '|i1': ['int8', Int8Array], '|u1': ['uint8', Uint8Array], '|b1': ['bool', Uint8Array],
  '<i8': ['int64', BigInt64Array], '<u8': ['uint64', BigUint64Array], '<f2': ['float16', Uint16Array],
};
const ALIAS = {'<u1': '|u1', '<i1': '|i1', '<b1': '|b1', 'u1': '|u1', 'i1': '|i1', 'b1': '|b1'};

export function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.readUInt32BE(0) !== 0x934e554d) throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const hstart = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', hstart, hstart + hlen);
  let descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  descr = ALIAS[descr] || descr;
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const [dtype, Ctor] = DESCR[descr] || [];
  if (!Ctor) throw new Error(`${file}: dtype ${descr} not handled`);
  const bytes = buf.subarray(hstart + hlen);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return {dtype, shape, data: new Ctor(copy.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT)};
}
