// V8's instruction sequence of a WebAssembly function after register allocation, from the
// JSON that Chromium's --trace-turbo writes (this Chromium has no disassembler, so
// --print-wasm-code prints sizes only, but the traced sequence names every instruction, its
// registers and spill slots). Get a trace with bench/wasm/kernel-bench.mjs --js-flags, e.g.
//   node bench/wasm/kernel-bench.mjs --family dw --shapes 56x56x144s1 --reps 2 --rounds 1 \
//     --js-flags "--trace-turbo --trace-turbo-path=/tmp/tt --trace-turbo-filter=tfcc_q8_dw_run_s_wasmsimd --no-wasm-dynamic-tiering" LIB.a
// (the filter takes a name or a prefix ending in *; static functions keep their C names),
// then: node bench/wasm/turbo-seq.mjs /tmp/tt/turbo-NAME-0.json [--loops] [--moves]
// --loops: only loop blocks and the blocks up to the next loop header's back edge; --moves:
// print the register allocator's gap moves (spills and reloads: fp_stack / stack slots).
import fs from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) { console.error('usage: node bench/wasm/turbo-seq.mjs TRACE.json [--loops] [--moves]'); process.exit(2); }
const loops = args.includes('--loops'), moves = args.includes('--moves');
const trace = JSON.parse(fs.readFileSync(file, 'utf8'));
const phase = trace.phases.find((p) => p.name === 'after register allocation');
if (!phase) { console.error(`${file}: no "after register allocation" phase (trace cut short?)`); process.exit(1); }
const text = (o) => o.text ?? '?';
let inLoop = false, spills = 0, count = 0;
for (const b of phase.blocks) {
  if (b.loop_header) inLoop = true;
  const back = b.successors.some((s) => s <= b.id);
  const show = !loops || inLoop;
  if (show) console.log(`B${b.id}${b.loop_header ? ' loop' : ''}${b.deferred ? ' deferred' : ''} <- [${b.predecessors}] -> [${b.successors}]`);
  for (const i of b.instructions) {
    for (const g of i.gaps) for (const m of g) {
      const s = Array.isArray(m) ? m.map(text).join(' <- ') : JSON.stringify(m);
      if (/stack/.test(s)) spills++;
      if (show && moves) console.log(`    move ${s}`);
    }
    if (i.opcode === 'ArchNop' && !i.inputs.length) continue;
    count++;
    if (show) console.log(`  ${i.opcode}${i.flags ? `[${i.flags.trim()}]` : ''} ${i.outputs.map(text).join(',')} <- ${i.inputs.map(text).join(',')}`);
  }
  if (back) inLoop = false;
}
console.log(`${count} instructions, ${spills} moves to or from stack slots`);
