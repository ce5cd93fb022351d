// The only place that computes CRC-32C (Castagnoli): v2 batches and producer snapshots use it.
//
// Three implementations, chosen per call by size from the per-call CPU cost measured by bench/crc.mjs
// (bench/RESULTS-crc.md has the table and the reasoning):
//  - crc-32/crc32c, pure JS (slicing-by-16, ~1.6 bytes/ns): no call overhead, the fastest for small batches;
//  - @node-rs/crc32, an optional dependency with prebuilt SSE4.2/PMULL binaries (~5 bytes/ns), ~100 ns per call
//    of N-API overhead: wins from NATIVE_CRC_THRESHOLD bytes;
//  - tsdump's WebAssembly slicing-by-16 (src/bytes/crc32c-wasm.ts; WebAssembly has no carry-less multiply, so no
//    folding), ~2.8 bytes/ns plus a copy into its memory: used where the native package did not install, from
//    WASM_CRC_THRESHOLD bytes.
// TSDUMP_CRC32C=js|wasm|native forces one for every size, =no-native behaves as if the binding were missing (benchmarks
// and diagnosis; an unavailable choice falls back to the automatic one).
import { createRequire } from 'node:module'
// crc-32 is CommonJS (UMD): its default import is module.exports, in Node and in the CLI's bundle, where an import
// is bundled (a require through createRequire was loaded from node_modules at every start: 2 ms of a short run)
import jsLib from 'crc-32/crc32c.js'
import { loadWasmCrc32c, type Crc32cUpdate } from './crc32c-wasm.js'

const require = createRequire(import.meta.url)
// crc-32's seed is the previous CRC (it inverts inside): the same continuation rule as the others

function loadNative(): Crc32cUpdate | undefined {
  try {
    const f = (require('@node-rs/crc32') as { crc32c(data: Uint8Array, initial?: number): number }).crc32c
    return (previous, data) => f(data, previous) >>> 0
  } catch {
    return undefined // not installed for this platform
  }
}

/** from this many bytes the native binding beats JS (its ~110 ns per-call overhead is paid back: 200 B 157 vs 128 ns, 300 B 179 vs 194) */
export const NATIVE_CRC_THRESHOLD = 256
/** from this many bytes WebAssembly beats JS (used only without the native binding; 400-600 B even within noise, 1 KiB 578 vs 620 ns) */
export const WASM_CRC_THRESHOLD = 512

const forced = process.env.TSDUMP_CRC32C
/**
 * The faster implementations are chosen once JS has checked this many bytes, not at load nor at the first call:
 * loading the native binding (or compiling the WASM) cost every dump 5-8 ms of start-up, and reconcile, lso and
 * txns, which never check a CRC, 4 ms (bench/RESULTS-startup.md); JS checks 4 MiB about 1.7 ms slower than native,
 * so a large input loses less than the load costs a small one.
 */
export const CHOOSE_AFTER_BYTES = 4 * 1024 * 1024
let jsBytes = 0
const deferred = forced === undefined || forced === '' || forced === 'no-native'
/**
 * The implementation for calls of `threshold` bytes or more. Until the choice `choose` stands in, with a
 * threshold of 0, so the per-call test stays the one comparison. TSDUMP_CRC32C=js|wasm|native chooses at the first call.
 */
let fast: Crc32cUpdate = choose
let threshold = 0
let fastName: string | undefined

function choose(previous: number, data: Uint8Array): number {
  jsBytes += data.length
  if (jsBytes < CHOOSE_AFTER_BYTES && deferred) return jsLib.buf(data, previous) >>> 0
  select()
  return crc32cUpdate(previous, data)
}

function select(): void {
  if (fast !== choose) return
  const native = forced === 'js' || forced === 'wasm' || forced === 'no-native' ? undefined : loadNative()
  // WASM is compiled only when it can be used: with the native binding present it never wins (bench/RESULTS-crc.md)
  const wasm = forced === 'js' || (native !== undefined && forced !== 'wasm') ? undefined : loadWasmCrc32c()
  const f = forced === 'wasm' ? (wasm ?? native) : (native ?? wasm)
  const forcedFast = f !== undefined && ((forced === 'native' && f === native) || (forced === 'wasm' && f === wasm))
  threshold = f === undefined ? Infinity : forcedFast ? 0 : f === native ? NATIVE_CRC_THRESHOLD : WASM_CRC_THRESHOLD
  fast = f ?? ((previous, data) => jsLib.buf(data, previous) >>> 0)
  fastName = f === undefined ? undefined : f === native ? '@node-rs/crc32 (native)' : 'WebAssembly slicing-by-16'
}

/**
 * Continue a CRC-32C over more bytes: crc32cUpdate(crc32cUpdate(0, a), b) === crc32c(a ++ b).
 * `previous` is a finished CRC (0 to start), so a batch larger than one read window is checked piece by piece.
 */
export function crc32cUpdate(previous: number, data: Uint8Array): number {
  if (data.length >= threshold) return fast(previous, data)
  return jsLib.buf(data, previous) >>> 0
}

/** CRC-32C of `data`, as an unsigned 32-bit number (crc-32 returns a signed int). */
export function crc32c(data: Uint8Array): number {
  // the small-batch path calls crc-32 directly: one indirection less on the 100-300 B batches that dominate counts
  if (data.length >= threshold) return fast(0, data)
  return jsLib.buf(data, 0) >>> 0
}

/** whether the implementations were chosen yet (tests) */
export function crc32cChosen(): boolean {
  return fast !== choose
}

/** which implementations are in use (shown by the benchmark) */
export function crc32cImplementations(): string {
  select()
  if (fastName === undefined) return 'crc-32 (JS)'
  return threshold === 0 ? fastName : `crc-32 (JS, < ${threshold} B) + ${fastName}`
}

// crc(A ++ B) = shift(crc(A), |B|) ^ crc(B), where shift feeds |B| zero bytes through the bare register (the
// init and final inversions cancel). So the CRC of any range [a, b) follows from two CRCs of a running prefix:
// crc([a, b)) = P(b) ^ shift(P(a), b - a). The resync search uses this to check every candidate batch while
// passing over each byte once. shift is linear, so it is kept as byte tables for 2^k zero bytes (k < 32):
// 4 lookups per power of two.
const POLY = 0x82f63b78 // reflected Castagnoli polynomial
let shiftTables: Uint32Array[] | undefined

function applyTable(t: Uint32Array, v: number): number {
  return (t[v & 0xff]! ^ t[256 + ((v >>> 8) & 0xff)]! ^ t[512 + ((v >>> 16) & 0xff)]! ^ t[768 + (v >>> 24)]!) >>> 0
}

function buildShiftTables(): Uint32Array[] {
  const one = new Uint32Array(1024) // one zero byte: 8 register steps
  for (let j = 0; j < 4; j++) {
    for (let b = 0; b < 256; b++) {
      let s = (b << (8 * j)) >>> 0
      for (let k = 0; k < 8; k++) s = (s & 1) !== 0 ? (s >>> 1) ^ POLY : s >>> 1
      one[256 * j + b] = s >>> 0
    }
  }
  const tables = [one]
  for (let k = 1; k < 32; k++) {
    const prev = tables[k - 1]!
    const t = new Uint32Array(1024)
    for (let i = 0; i < 1024; i++) t[i] = applyTable(prev, prev[i]!)
    tables.push(t)
  }
  return tables
}

/** shift(crc, n): the CRC-32C `crc` continued over n zero bytes, without the inversions (see above). n < 2^32. */
export function crc32cShift(crc: number, n: number): number {
  const tables = (shiftTables ??= buildShiftTables())
  let v = crc >>> 0
  for (let k = 0; n > 0; k++, n = Math.floor(n / 2)) if (n % 2 === 1) v = applyTable(tables[k]!, v)
  return v
}

/** CRC-32C of the range [a, b) from the CRCs of the prefixes ending at a and at b (see crc32cShift). */
export function crc32cOfRange(prefixA: number, prefixB: number, length: number): number {
  return (prefixB ^ crc32cShift(prefixA, length)) >>> 0
}

/** CRC-32C (Castagnoli, reflected 0x82F63B78) table for crc32cRange */
const TABLE = (() => {
  const t = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1
    t[n] = c
  }
  return t
})()

/**
 * CRC-32C of buf[start, end) in place, byte by byte: for the short ranges checked once per batch in a fast path
 * (a COMMIT/ABORT marker's 57 bytes), where a subarray per call would allocate and a faster implementation's
 * per-call overhead is more than the work.
 */
export function crc32cRange(buf: Uint8Array, start: number, end: number): number {
  let c = -1
  for (let i = start; i < end; i++) c = TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ -1) >>> 0
}
