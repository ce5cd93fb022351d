#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
// The young generation's size cannot be set from here: V8 sizes it when the heap is set up, and a runtime
// --max-semi-space-size=4 (which this file used to set) left the main thread's new space at 32 MiB, measured
// with v8.getHeapSpaceStatistics. Dump worker threads get 2 MiB through their resourceLimits (commands/workers/dump-pool.ts).
import v8 from 'node:v8'
// V8 settings per command, chosen because they trade differently (bench/RESULTS.md, memory and #10):
// - dumps and lso grow the heap in 10% steps, which bounds their peak RSS (the 1 M bad-CRC batches of the big
//   hostile tier with 2 workers stay under 128 MiB). They used V8's --optimize-for-size until it was found to
//   hang Node 20 at exit: set at run time it leaves NodePlatform::DrainTasks waiting for ever in about 2% of
//   short runs (nodejs/node#54918; 24 of 300 runs of a .timeindex check, 0 of 300 without it). Never set it here.
// - txns the same 10% steps: the size mode cost it 80% more CPU on 1 GiB of small transactions (53 s against
//   29 s). With 10% steps it stays near its speed (34 s) and bounded: 102 MiB, and the 400k-transaction
//   memory tests hold.
// - reconcile the same, and a larger inlining budget, so that V8 inlines the framer and the header read into the
//   partition scan's loop (scanSegment): reconcile of 1 GiB of small transactions 1.17 -> 1.05 s CPU, peak RSS
//   62 -> 67 MiB. The same budget made dumps and txns slower and larger: reconcile only.
// Each flag here was run 300 times on a short input without a hang (the test of #25 in bench/RESULTS.md).
// The command is the first argument naming one; a path named `txns` or `reconcile` picks these settings too,
// and no output differs.
const command = process.argv.slice(2).find((a) => a === 'txns' || a === 'reconcile')
const GROW_IN_SMALL_STEPS = '--heap-growing-percent=10'
const V8_FLAGS = {
  txns: [GROW_IN_SMALL_STEPS],
  reconcile: [GROW_IN_SMALL_STEPS, '--max-inlined-bytecode-size=1000', '--max-inlined-bytecode-size-cumulative=3000'],
}
for (const f of command === undefined ? [GROW_IN_SMALL_STEPS] : V8_FLAGS[command]) v8.setFlagsFromString(f)
const { main } = await import('../dist/bundle/tsdump.js')
process.exitCode = await main(process.argv.slice(2))
