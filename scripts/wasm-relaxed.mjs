// Rewrites the f32x4 fma of Emscripten 3.1.6's clang 14 (__builtin_wasm_fma_f32x4, encoded with
// the relaxed-SIMD proposal's early opcode 0xfd 0xaf 0x01, which engines reject) to the final
// f32x4.relaxed_madd (0xfd 0x85 0x02; both compute a * b + c from the same three operands), in
// the code section only, for the package's relaxed-SIMD binary (scripts/build-wasm.sh).
//   node scripts/wasm-relaxed.mjs IN.wasm OUT.wasm COUNT
// COUNT: the fma instructions the module holds (wasm-dis IN.wasm | grep -o f32x4.relaxed_fma):
// the byte pattern must occur exactly that often in the code section, so no immediate that
// happens to contain it is rewritten. Exits 1 when the counts differ or nothing is found.
import fs from 'node:fs';

const [inPath, outPath, countArg] = process.argv.slice(2);
if (!inPath || !outPath || countArg === undefined) {
  console.error('usage: node scripts/wasm-relaxed.mjs IN.wasm OUT.wasm COUNT');
  process.exit(2);
}
const b = new Uint8Array(fs.readFileSync(inPath));
const leb = (p) => { // [value, next offset] of an unsigned LEB128 at p
  let v = 0, shift = 0, byte;
  do { byte = b[p++]; v += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
  return [v, p];
};
if (b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) {
  console.error(`${inPath}: not a wasm module`);
  process.exit(1);
}
let p = 8, code = null;
while (p < b.length) {
  const id = b[p];
  const [size, q] = leb(p + 1);
  if (id === 10) code = [q, q + size];
  p = q + size;
}
if (!code) { console.error(`${inPath}: no code section`); process.exit(1); }
const hits = [];
for (let i = code[0]; i + 2 < code[1]; i++)
  if (b[i] === 0xfd && b[i + 1] === 0xaf && b[i + 2] === 0x01) hits.push(i);
const want = Number(countArg);
if (!want || hits.length !== want) {
  console.error(`${inPath}: ${hits.length} fma byte patterns in the code section, ${want} fma instructions`);
  process.exit(1);
}
for (const i of hits) { b[i + 1] = 0x85; b[i + 2] = 0x02; }
fs.writeFileSync(outPath, b);
console.log(`${outPath}: ${hits.length} f32x4.relaxed_madd`);
