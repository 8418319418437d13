// Rewrites the relaxed-SIMD placeholders of Emscripten 3.1.6's clang 14 to the final
// relaxed-SIMD opcodes, for the package's relaxed-SIMD binary (scripts/build-wasm.sh):
//   f32x4 fma (__builtin_wasm_fma_f32x4, the proposal's early opcode 0xfd 0xaf 0x01, which
//     engines reject) -> f32x4.relaxed_madd (0xfd 0x85 0x02): a * b + c from the same operands;
//   f64x2 fma (__builtin_wasm_fma_f64x2, early 0xfd 0xcf 0x01), which tfcc emits only as the
//     stand-in of the dot product clang 14 has no builtin for (q8-gemm-4x8-wasmsimd.c, rdot)
//     -> i32x4.relaxed_dot_i8x16_i7x16_add_s (0xfd 0x93 0x02): the same three v128 operands.
// Instruction-level: the code section's function bodies are decoded instruction by instruction
// (every opcode's immediates: MVP, sign extension, saturating truncation, bulk memory, reference
// types, SIMD, threads' atomics), so an immediate (a constant, an offset, a shuffle mask) that
// happens to hold the placeholder's bytes is never touched; an opcode it does not know is an
// error, not a guess. Old and new encodings have the same length: rewritten in place.
//   node scripts/wasm-relaxed.mjs IN.wasm OUT.wasm NAME=COUNT ...
// NAME: f32x4.relaxed_fma or f64x2.relaxed_fma (binaryen's names of the early opcodes); COUNT:
// how many the module holds (wasm-dis IN.wasm | grep -c NAME, binaryen's own decoding): the
// rewriter must find exactly that many, and at least one. Exits 1 otherwise.
// --dot-as-laneselect (A/B benchmarks): the dot product's placeholders become
// i32x4.relaxed_laneselect (0xfd 0x8b 0x02: valid, three v128 operands, not a dot product), so
// the int8 GEMM's self-check fails and the binary runs the SIMD128 q8 GEMM, all else the same.
import fs from 'node:fs';

const REWRITES = {
  'f32x4.relaxed_fma': {from: 0xaf, to: 0x105, as: 'f32x4.relaxed_madd'},
  'f64x2.relaxed_fma': {from: 0xcf, to: 0x113, as: 'i32x4.relaxed_dot_i8x16_i7x16_add_s'},
};

const argv = process.argv.slice(2).filter((a) => a !== '--dot-as-laneselect');
if (argv.length < process.argv.length - 2) REWRITES['f64x2.relaxed_fma'] = {from: 0xcf, to: 0x10b, as: 'i32x4.relaxed_laneselect'};
const [inPath, outPath, ...countArgs] = argv;
if (!inPath || !outPath || !countArgs.length) {
  console.error('usage: node scripts/wasm-relaxed.mjs IN.wasm OUT.wasm NAME=COUNT ...');
  process.exit(2);
}
const want = new Map();
for (const a of countArgs) {
  const [name, n] = a.split('=');
  if (!REWRITES[name] || !/^\d+$/.test(n ?? '')) {
    console.error(`${a}: expected NAME=COUNT with NAME one of ${Object.keys(REWRITES).join(', ')}`);
    process.exit(2);
  }
  want.set(REWRITES[name].from, {name, count: Number(n), sites: []});
}

const b = new Uint8Array(fs.readFileSync(inPath));
const fail = (msg) => { console.error(`${inPath}: ${msg}`); process.exit(1); };
if (b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) fail('not a wasm module');

let p = 0; // read position
const u32 = () => { // unsigned LEB128 (up to 64 bits' worth of bytes: memory offsets, u32s)
  let v = 0, shift = 0, byte;
  do {
    if (p >= b.length) fail('truncated LEB128');
    byte = b[p++];
    v += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return v;
};
const sleb = () => { let byte; do { byte = b[p++]; } while (byte & 0x80); }; // skipped
const memarg = () => { u32(); u32(); };

// one instruction at p (its opcode byte already read as op); returns nothing, advances p
function instr(op, at) {
  if (op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b) return;
  if (op >= 0x02 && op <= 0x04) return sleb(); // block type: 0x40, a value type or a type index (s33)
  if (op === 0x0c || op === 0x0d || op === 0x10 || op === 0x12) return void u32();
  if (op === 0x0e) { for (let n = u32(); n > 0; n--) u32(); return void u32(); } // br_table
  if (op === 0x11 || op === 0x13) { u32(); return void u32(); } // call_indirect: type, table
  if (op === 0x1c) { for (let n = u32(); n > 0; n--) u32(); return; } // select t*
  if (op >= 0x20 && op <= 0x26) return void u32(); // locals, globals, table.get/set
  if (op >= 0x28 && op <= 0x3e) return memarg();
  if (op === 0x3f || op === 0x40) return void u32(); // memory.size / grow: memory index
  if (op === 0x41 || op === 0x42) return sleb();
  if (op === 0x43) { p += 4; return; }
  if (op === 0x44) { p += 8; return; }
  if (op >= 0x45 && op <= 0xc4) return; // numeric, sign extension
  if (op === 0xd0) { p += 1; return; } // ref.null t
  if (op === 0xd1) return;
  if (op === 0xd2) return void u32();
  if (op === 0xfc) {
    const s = u32();
    if (s <= 7) return; // saturating truncation
    if (s === 8) { u32(); u32(); return; } // memory.init data, memory
    if (s === 9 || s === 13 || (s >= 15 && s <= 17)) return void u32();
    if (s === 10 || s === 12 || s === 14) { u32(); u32(); return; }
    if (s === 11) return void u32();
    fail(`unknown instruction 0xfc ${s} at byte ${at}`);
  }
  if (op === 0xfd) {
    const sp = p, s = u32();
    if (want.has(s) && p - sp === 2) want.get(s).sites.push(sp);
    if (s <= 11 || s === 92 || s === 93) return memarg(); // loads, store, load32/64_zero
    if (s === 12 || s === 13) { p += 16; return; } // v128.const, i8x16.shuffle
    if (s >= 21 && s <= 34) { p += 1; return; } // extract / replace lane
    if (s >= 84 && s <= 91) { memarg(); p += 1; return; } // load / store lane
    if (s <= 0x1ff) return; // the rest (SIMD128, relaxed SIMD early and final): no immediate
    fail(`unknown instruction 0xfd ${s} at byte ${at}`);
  }
  if (op === 0xfe) {
    const s = u32();
    if (s === 3) { p += 1; return; } // atomic.fence
    if (s <= 2 || (s >= 0x10 && s <= 0x4e)) return memarg();
    fail(`unknown instruction 0xfe ${s} at byte ${at}`);
  }
  fail(`unknown opcode 0x${op.toString(16)} at byte ${at}`);
}

// the code section
p = 8;
let code = null;
while (p < b.length) {
  const id = b[p++];
  const size = u32();
  if (id === 10) code = [p, p + size];
  p += size;
}
if (!code) fail('no code section');
p = code[0];
let funcs = 0, instrs = 0;
for (let n = u32(); n > 0; n--, funcs++) {
  const size = u32(), end = p + size;
  for (let g = u32(); g > 0; g--) { u32(); p += 1; } // locals: count, value type
  while (p < end) { const at = p; instr(b[p++], at); instrs++; }
  if (p !== end || b[end - 1] !== 0x0b) fail(`function ${funcs}: body does not end at its size`);
}
if (p !== code[1]) fail('the code section does not end after its bodies');

let bad = false;
for (const [from, w] of want) {
  const {as, to} = REWRITES[w.name];
  if (!w.count || w.sites.length !== w.count) {
    console.error(`${inPath}: ${w.sites.length} ${w.name} instructions, ${w.count} expected`);
    bad = true;
    continue;
  }
  for (const i of w.sites) { b[i] = 0x80 | (to & 0x7f); b[i + 1] = to >> 7; }
  console.log(`${outPath}: ${w.sites.length} ${w.name} -> ${as} (0x${from.toString(16)} -> 0x${to.toString(16)})`);
}
if (bad) process.exit(1);
fs.writeFileSync(outPath, b);
console.log(`${outPath}: ${funcs} functions, ${instrs} instructions decoded`);
