// The only place that computes CRC-32C (Castagnoli): v2 batches and producer snapshots use it.
//
// Two implementations, chosen per call by size (bench/RESULTS.md, CRC-32C section): crc-32's pure-JS
// table loop costs ~110 ns per call and ~1.1 GB/s; @node-rs/crc32 (an optional dependency with prebuilt
// SIMD binaries) costs ~220 ns per call but ~3 GB/s. Most batches are small, so JS wins below a few KiB;
// large batches (the 1 MB ones Java producers write) go native when it is installed.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// crc-32 is CommonJS; loading it through require keeps the ESM build free of interop guesses.
const js = require('crc-32/crc32c') as { buf(data: Uint8Array, seed?: number): number }

type NativeCrc = (data: Buffer, initial?: number) => number
let native: NativeCrc | undefined
try {
  native = (require('@node-rs/crc32') as { crc32c: NativeCrc }).crc32c
} catch {
  native = undefined // not installed for this platform: the JS implementation does everything
}

/** below this many bytes the JS implementation is faster (per-call cost of the native binding) */
export const NATIVE_CRC_THRESHOLD = 4096

/** CRC-32C of `data`, as an unsigned 32-bit number (crc-32 returns a signed int). */
export function crc32c (data: Uint8Array): number {
  if (native !== undefined && data.length >= NATIVE_CRC_THRESHOLD && Buffer.isBuffer(data)) return native(data, 0) >>> 0
  return js.buf(data, 0) >>> 0
}

/** which implementations are in use (shown by the benchmark) */
export function crc32cImplementations (): string {
  return native !== undefined ? `crc-32 (< ${NATIVE_CRC_THRESHOLD} B) + @node-rs/crc32` : 'crc-32'
}
