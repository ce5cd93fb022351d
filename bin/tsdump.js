#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
// The young generation's size cannot be set from here: V8 sizes it when the heap is set up, and a runtime
// --max-semi-space-size=4 (which this file used to set) left the main thread's new space at 32 MiB, measured
// with v8.getHeapSpaceStatistics. Worker threads get 4 MiB through their resourceLimits.
import v8 from 'node:v8'
// How the old generation grows (a scan's garbage is short-lived, promoted only because it outlives two
// scavenges), chosen per command because the two settings trade differently (bench/RESULTS.md, memory):
// - V8's memory-over-speed mode for every command but txns. Peak RSS: reconcile on 1 M producers 126 -> 102,
//   a 2-worker dump 108 -> 96, 1 M bad-CRC batches with 2 workers 135 -> 115; the CPU time of dumps did not
//   change. It applies to the worker threads too (process-wide flags).
// - txns: the same mode cost 80% more CPU on 1 GiB of small transactions (53 s against 29 s; 57 s in CI,
//   near the hostile tier's 60 s CPU limit). Growing the heap in 10% steps instead keeps txns near its speed
//   (34 s) and its memory bounded: 102 MiB there, and the 400k-transaction memory tests hold under 128 MiB.
//   A file or directory named `txns` among the paths only picks this setting too: no output differs.
v8.setFlagsFromString(process.argv.slice(2).includes('txns') ? '--heap-growing-percent=10' : '--optimize-for-size')
const { main } = await import('../dist/cli/main.js')
process.exitCode = await main(process.argv.slice(2))
