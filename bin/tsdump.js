#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
// A young generation of 4 MiB semi-spaces instead of V8's 16: a streaming scan makes short-lived garbage
// only, and the default let peak RSS of `txns` on 400k transactions reach 129 MiB (120 MiB with this,
// same CPU time), against the 128 MiB bound. Set before anything is allocated.
import v8 from 'node:v8'
v8.setFlagsFromString('--max-semi-space-size=4')
// V8's memory-over-speed mode: the old generation grows in smaller steps (a scan's garbage is short-lived,
// promoted only because it outlives two scavenges). Peak RSS: txns on 400k transactions 115 -> 76 MiB,
// reconcile on 1 M producers 126 -> 102, a 2-worker dump 108 -> 96; the CPU time of dumps did not change
// (bench/RESULTS.md, memory). It applies to the worker threads too (process-wide flags).
v8.setFlagsFromString('--optimize-for-size')
const { main } = await import('../dist/cli/main.js')
process.exitCode = await main(process.argv.slice(2))
