#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
// The young generation's size cannot be set from here: V8 sizes it when the heap is set up, and a runtime
// --max-semi-space-size=4 (which this file used to set) left the main thread's new space at 32 MiB, measured
// with v8.getHeapSpaceStatistics. Worker threads get 4 MiB through their resourceLimits.
import v8 from 'node:v8'
// V8 settings per command, chosen because they trade differently (bench/RESULTS.md, memory and #10):
// - V8's memory-over-speed mode for the dumps and lso. Peak RSS: a 2-worker dump 108 -> 96, 1 M bad-CRC
//   batches with 2 workers 135 -> 115; the CPU time of dumps did not change. It applies to the worker threads
//   too (process-wide flags).
// - txns grows the heap in 10% steps instead: the size mode cost it 80% more CPU on 1 GiB of small
//   transactions (53 s against 29 s; 57 s in CI, near the hostile tier's 60 s CPU limit). With 10% steps it
//   stays near its speed (34 s) and bounded: 102 MiB there, and the 400k-transaction memory tests hold.
// - reconcile the same, and a larger inlining budget, so that V8 inlines the framer and the header read into the
//   partition scan's loop (scanSegment): reconcile of 1 GiB of small transactions 1.17 -> 1.05 s CPU (1.02 s on
//   2d876fe, before the framer), peak RSS 62 -> 67 MiB, 1 M producer ids 71 -> 72 MiB. The same budget made
//   dumps and txns slower and larger (shallow 3.8 -> 4.1 s, txns on 1 M producers 95 -> 107 MiB): reconcile only.
// The command is the first argument naming one; a path named `txns` or `reconcile` picks these settings too,
// and no output differs.
const command = process.argv.slice(2).find((a) => a === 'txns' || a === 'reconcile')
const V8_FLAGS = {
  txns: ['--heap-growing-percent=10'],
  reconcile: ['--heap-growing-percent=10', '--max-inlined-bytecode-size=1000', '--max-inlined-bytecode-size-cumulative=3000'],
}
for (const f of command === undefined ? ['--optimize-for-size'] : V8_FLAGS[command]) v8.setFlagsFromString(f)
const { main } = await import('../dist/cli/main.js')
process.exitCode = await main(process.argv.slice(2))
