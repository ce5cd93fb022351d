#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
// A young generation of 4 MiB semi-spaces instead of V8's 16: a streaming scan makes short-lived garbage
// only, and the default let peak RSS of `txns` on 400k transactions reach 129 MiB (120 MiB with this,
// same CPU time), against the 128 MiB bound. Set before anything is allocated.
import v8 from 'node:v8'
v8.setFlagsFromString('--max-semi-space-size=4')
const { main } = await import('../dist/cli/main.js')
process.exitCode = await main(process.argv.slice(2))
