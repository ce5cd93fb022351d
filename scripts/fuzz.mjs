#!/usr/bin/env node
// Fuzzes the whole tsdump pipeline in-process: random and mutated Kafka files (real segments, indexes,
// snapshots, synthetic v2 batches) go through `main()` with random commands and options, for a time budget.
//
//   FUZZ_SECONDS=20 FUZZ_SEED=1234 node scripts/fuzz.mjs        (after `npm run build`)
//
// A failure is an exception escaping main(), an exit code other than 0/1/2, an "internal error" line or
// a stack frame on stderr, a run that allocates absurdly, or (standalone only) one run taking longer than
// FUZZ_HANG_SECONDS (default 30), caught by a watchdog thread. The failing input is copied to
// os.tmpdir() and its path printed with the argv and seed that reproduce it. Exit 0: no failure; 1: failure.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { crc32c, record as encodeRecord } from './fuzz/encode.mjs'
import { Capture } from './fuzz/harness.mjs'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

// ---- deterministic PRNG (mulberry32) ----
export function prng(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n) => Math.floor(next() * n)
  return { next, int, pick: (xs) => xs[int(xs.length)], chance: (p) => next() < p }
}

// ---- seeds: real files (read once, never written) ----
const SEED_SUFFIXES = ['.log', '.index', '.timeindex', '.txnindex', '.snapshot', '.checkpoint']

function walk(dir, out, depth = 0) {
  let ents
  try {
    ents = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const e of ents) {
    const p = path.join(dir, e.name)
    if (e.isDirectory() && depth < 5) walk(p, out, depth + 1)
    else if (e.isFile() && SEED_SUFFIXES.some((s) => e.name.endsWith(s))) out.push(p)
  }
}

/** Up to 48 KiB of each real file; large logs contribute a batch-aligned slice. */
export function loadSeeds(dirs) {
  const files = []
  for (const d of dirs) walk(d, files)
  const seeds = []
  for (const f of files.sort()) {
    let buf
    try {
      buf = fs.readFileSync(f)
    } catch {
      continue
    }
    const ext = path.extname(f)
    if (ext === '.log' && buf.length > 48 * 1024) buf = alignedSlice(buf, 48 * 1024)
    else if (buf.length > 48 * 1024) buf = buf.subarray(0, 48 * 1024)
    seeds.push({ name: f, ext, buf })
  }
  return seeds
}

function alignedSlice(buf, max) {
  let p = 0
  while (p + 12 <= buf.length) {
    const n = 12 + buf.readInt32BE(p + 8)
    if (n < 12 || p + n > max) break
    p += n
  }
  return buf.subarray(0, Math.max(p, Math.min(max, buf.length)))
}

// ---- synthetic inputs (encoders in fuzz/encode.mjs) ----
export function syntheticBatch(rnd, baseOffset) {
  const control = rnd.chance(0.2)
  const txn = control || rnd.chance(0.3)
  const codec = control ? 0 : rnd.pick([0, 0, 1])
  let records
  if (control) {
    const key = Buffer.alloc(4)
    key.writeInt16BE(0, 0)
    key.writeInt16BE(rnd.pick([0, 1, 1, 2, 9]), 2)
    const value = Buffer.alloc(6)
    value.writeInt32BE(rnd.int(100), 2)
    records = [{ key, value, headers: [] }]
  } else {
    records = Array.from({ length: 1 + rnd.int(5) }, (_, i) => ({
      key: rnd.chance(0.3) ? null : Buffer.from(`key-${i}`),
      value: rnd.chance(0.1) ? null : Buffer.from(rnd.pick(['v', '{"a":1}', 'x'.repeat(rnd.int(300))])),
      headers: rnd.chance(0.3) ? [[Buffer.from('h'), rnd.chance(0.5) ? null : Buffer.from('hv')]] : [],
      ts: rnd.int(1000),
    }))
  }
  let section = Buffer.concat(records.map((r, i) => encodeRecord({ ...r, offsetDelta: i })))
  if (codec === 1) section = gzipSync(section)
  const b = Buffer.alloc(61 + section.length)
  b.writeBigInt64BE(BigInt(baseOffset), 0)
  b.writeInt32BE(b.length - 12, 8)
  b.writeInt8(2, 16)
  b.writeInt16BE(codec | (txn ? 0x10 : 0) | (control ? 0x20 : 0) | (rnd.chance(0.1) ? 0x08 : 0), 21)
  b.writeInt32BE(records.length - 1, 23)
  b.writeBigInt64BE(1700000000000n, 27)
  b.writeBigInt64BE(1700000000999n, 35)
  b.writeBigInt64BE(txn ? BigInt(1000 + rnd.int(3)) : -1n, 43)
  b.writeInt16BE(txn ? 0 : -1, 51)
  b.writeInt32BE(txn && !control ? rnd.int(50) : -1, 53)
  b.writeInt32BE(records.length, 57)
  section.copy(b, 61)
  b.writeUInt32BE(crc32c(b.subarray(21)), 17)
  return { bytes: b, count: records.length }
}

function syntheticSegment(rnd) {
  const parts = []
  let off = rnd.chance(0.8) ? 0 : rnd.int(1 << 20)
  for (let i = 1 + rnd.int(8); i > 0; i--) {
    const { bytes, count } = syntheticBatch(rnd, off)
    parts.push(bytes)
    off += count
  }
  return Buffer.concat(parts)
}

// ---- mutations ----
const INTERESTING32 = [-1, 0, 1, 13, 14, 48, 49, 50, 61, 127, 128, 255, 0x7fffffff, -0x80000000, 0x10000, 1 << 30]
const INTERESTING8 = [0, 1, 2, 3, 0x7f, 0x80, 0xff]

function mutate(rnd, input, others) {
  let b = Buffer.from(input) // copy: seeds are reused
  const n = 1 + rnd.int(rnd.chance(0.7) ? 2 : 8)
  for (let k = 0; k < n; k++) {
    if (b.length === 0) {
      b = Buffer.from([rnd.int(256)])
      continue
    }
    const at = rnd.int(b.length)
    switch (rnd.int(12)) {
      case 0:
      case 1:
        b[at] ^= 1 << rnd.int(8)
        break
      case 2:
        b[at] = rnd.pick(INTERESTING8)
        break
      case 3:
        if (at + 4 <= b.length) b.writeInt32BE(rnd.pick(INTERESTING32) | 0, at)
        break
      case 4: {
        // a length or count field of a batch: 8 (batchLength) or 57 (recordsCount) from a batch-like start
        const s = Math.max(0, at - (at % 61))
        const f = rnd.pick([8, 57, 23])
        if (s + f + 4 <= b.length) b.writeInt32BE(rnd.pick(INTERESTING32) | 0, s + f)
        break
      }
      case 5:
        b = b.subarray(0, at)
        break
      case 6:
        b = Buffer.concat([b.subarray(0, at), randomBytes(rnd, 1 + rnd.int(32)), b.subarray(at)])
        break
      case 7:
        b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + rnd.int(64)))])
        break
      case 8:
        b = Buffer.concat([b, b.subarray(at, at + rnd.int(200))])
        break
      case 9:
        b = Buffer.concat([b, Buffer.alloc(rnd.int(5000))])
        break // preallocated zero tail
      case 10: {
        const o = rnd.pick(others)
        b = Buffer.concat([b.subarray(0, at), o.subarray(rnd.int(o.length + 1))])
        break
      }
      default:
        b.fill(rnd.pick([0, 0xff]), at, Math.min(b.length, at + rnd.int(100)))
    }
  }
  return b
}

function randomBytes(rnd, n) {
  const b = Buffer.alloc(n)
  for (let i = 0; i < n; i++) b[i] = rnd.int(256)
  return b
}

// ---- one case: files on disk + argv ----
const DUMP_FLAGS = [
  [],
  ['--deep-iteration'],
  ['--print-data-log'],
  ['--json'],
  ['--json', '--deep-iteration'],
  ['--json', '--print-data-log'],
  ['--compat', '--deep-iteration', '--print-data-log'],
  ['--compat'],
  ['--control-only'],
  ['--no-crc'],
  ['--no-resync'],
  ['--no-resync', '--deep-iteration'],
  ['--window', '61'],
  ['--window', '62'],
  ['--window', '100'],
  ['--window', '4096'],
  ['--max-bytes', '100'],
  ['--max-bytes', '1000'],
  ['--verify-index-only'],
  ['--index-sanity-check'],
  ['--skip-record-metadata', '--deep-iteration'],
  ['--print-data-log', '--value-decoder', 'json'],
  ['--print-data-log', '--key-decoder', 'int64', '--value-decoder', 'hex'],
  ['--offsets-decoder'],
  ['--transaction-log-decoder'],
  ['--cluster-metadata-decoder'],
  ['--deep-iteration', '--max-decompressed-bytes', '1000'],
  ['--max-batch-bytes', '200'],
  ['--max-message-size', '100'],
]
const COMMANDS = [['reconcile'], ['reconcile', '--json'], ['txns'], ['txns', '--json'], ['lso'], ['lso', '--json']]
const NAMES = [
  '00000000000000000000',
  '00000000000000000000',
  '00000000000000000042',
  '00000000000000007729',
  'notanumber',
]

export function makeCase(rnd, seeds, dir) {
  fs.rmSync(dir, { recursive: true, force: true })
  const part = path.join(
    dir,
    rnd.pick(['orders-0', '__transaction_state-3', '__consumer_offsets-1', 'x-7', '__cluster_metadata-0']),
  )
  fs.mkdirSync(part, { recursive: true })
  const bufs = seeds.map((s) => s.buf)
  const files = []
  const nFiles = rnd.chance(0.7) ? 1 : 2 + rnd.int(4)
  for (let i = 0; i < nFiles; i++) {
    let ext, buf
    const r = rnd.next()
    if (r < 0.55 && seeds.length > 0) {
      const s = rnd.pick(seeds)
      ext = rnd.chance(0.9) ? s.ext : rnd.pick(SEED_SUFFIXES)
      buf = mutate(rnd, s.buf, bufs)
    } else if (r < 0.85) {
      ext = rnd.chance(0.85) ? '.log' : rnd.pick(SEED_SUFFIXES)
      const seg = syntheticSegment(rnd)
      buf = rnd.chance(0.85) ? mutate(rnd, seg, bufs.length > 0 ? bufs : [seg]) : seg
    } else {
      ext = rnd.pick(SEED_SUFFIXES)
      buf = randomBytes(rnd, rnd.int(rnd.chance(0.5) ? 64 : 4096))
    }
    const stem = ext === '.checkpoint' && rnd.chance(0.5) ? '00000000000000000100-0000000001' : rnd.pick(NAMES)
    const p = path.join(part, stem + ext)
    fs.writeFileSync(p, buf)
    files.push(p)
  }
  const target = rnd.chance(0.6) ? files[0] : rnd.chance(0.7) ? part : dir
  const argv = rnd.chance(0.75) ? [...rnd.pick(DUMP_FLAGS), target] : [...rnd.pick(COMMANDS), target]
  return { argv, dir }
}

function problemOf(outcome) {
  if (outcome.thrown !== undefined) return `exception escaped main(): ${outcome.thrown.stack ?? outcome.thrown}`
  if (![0, 1, 2].includes(outcome.code)) return `exit code ${outcome.code}`
  if (/internal error/.test(outcome.stderr)) return 'internal error on stderr'
  if (/\n\s+at .+:\d+:\d+\)?$/m.test(outcome.stderr)) return 'stack trace on stderr'
  if (outcome.arrayBuffers > 768 * 1024 * 1024)
    return `allocated ${Math.round(outcome.arrayBuffers / 1048576)} MiB of buffers`
  return undefined
}

/**
 * Run the fuzz loop. Resolves to { seed, iterations, failures }; failures hold the saved input path.
 * @param {{ main: (argv: string[], ctx: object) => Promise<number>, seconds: number, seed: number,
 *           maxIterations?: number, seedDirs?: string[], log?: (s: string) => void, onIteration?: (i: number, argv: string[]) => void }} o
 */
export async function runFuzz(o) {
  const log = o.log ?? ((s) => process.stdout.write(s + '\n'))
  const rnd = prng(o.seed)
  const seeds = loadSeeds(o.seedDirs ?? [path.resolve(REPO, '../shared/corpus'), path.join(REPO, 'fixtures/broker')])
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-fuzz-'))
  const deadline = Date.now() + o.seconds * 1000
  const failures = []
  let i = 0
  log(`fuzz: seed ${o.seed}, ${o.seconds}s budget, ${seeds.length} seed files, work dir ${work}`)
  try {
    for (; Date.now() < deadline && (o.maxIterations === undefined || i < o.maxIterations); i++) {
      const c = makeCase(rnd, seeds, path.join(work, 'case'))
      fs.writeFileSync(path.join(work, 'argv.txt'), `iteration ${i} seed ${o.seed}\n${c.argv.join(' ')}\n`) // for a hang post-mortem
      o.onIteration?.(i, c.argv)
      const stdout = new Capture()
      const stderr = new Capture()
      const ctx = { stdout, stderr, colorLevel: 0, stderrIsTTY: false, env: {}, now: () => 1_800_000_000_000 }
      const outcome = { code: -1, stderr: '', arrayBuffers: 0 }
      try {
        outcome.code = await o.main(c.argv, ctx)
      } catch (e) {
        outcome.thrown = e
      }
      outcome.stderr = stderr.text
      outcome.arrayBuffers = process.memoryUsage().arrayBuffers
      const problem = problemOf(outcome)
      if (problem !== undefined) {
        const saved = fs.mkdtempSync(path.join(os.tmpdir(), `tsdump-fuzz-fail-${o.seed}-${i}-`))
        fs.cpSync(c.dir, saved, { recursive: true })
        const argv = c.argv.map((a) => (a.startsWith(c.dir) ? saved + a.slice(c.dir.length) : a))
        failures.push({ iteration: i, argv, input: saved, problem })
        log(
          `fuzz: FAILURE at iteration ${i} (seed ${o.seed}): ${problem.split('\n')[0]}\n  input: ${saved}\n  reproduce: node bin/tsdump.js ${argv.join(' ')}`,
        )
        if (failures.length >= 5) break
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  log(`fuzz: ${i} runs, ${failures.length} failures (seed ${o.seed})`)
  return { seed: o.seed, iterations: i, failures }
}

// A watchdog thread: the fuzz loop is synchronous inside main(), so only another thread can see a hang.
export async function startWatchdog(seconds) {
  const { Worker } = await import('node:worker_threads')
  const shared = new Int32Array(new SharedArrayBuffer(8))
  const src = `
    const { workerData } = require('node:worker_threads'); const fs = require('node:fs')
    const a = workerData.shared; let last = -1; let since = Date.now()
    setInterval(() => {
      const i = Atomics.load(a, 0)
      if (i !== last) { last = i; since = Date.now(); return }
      if (Date.now() - since > workerData.ms) {
        fs.writeSync(2, 'fuzz: HANG: iteration ' + i + ' ran for over ' + workerData.ms / 1000 + 's; its input and argv are left in the work dir printed above (case/, argv.txt)\\n')
        process.kill(process.pid, 'SIGKILL')
      }
    }, 250).unref()`
  const w = new Worker(src, { eval: true, workerData: { shared, ms: seconds * 1000, seed: process.env.FUZZ_SEED } })
  w.unref()
  return shared
}

async function cli() {
  const seconds = Number(process.env.FUZZ_SECONDS ?? 20)
  const seed =
    process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (process.pid << 8)) >>> 0
  if (!Number.isFinite(seconds) || seconds <= 0 || !Number.isInteger(seed)) {
    process.stderr.write('fuzz: FUZZ_SECONDS must be a positive number and FUZZ_SEED an integer\n')
    return 2
  }
  const mainJs = path.join(REPO, 'dist/cli/main.js')
  if (!fs.existsSync(mainJs)) {
    process.stderr.write('fuzz: dist/cli/main.js is missing: run `npm run build` first\n')
    return 2
  }
  const { main } = await import(pathToFileURL(mainJs).href)
  const hangSeconds = Number(process.env.FUZZ_HANG_SECONDS ?? 30)
  const beat = await startWatchdog(hangSeconds)
  const r = await runFuzz({
    main,
    seconds,
    seed,
    ...(process.env.FUZZ_ITERATIONS !== undefined ? { maxIterations: Number(process.env.FUZZ_ITERATIONS) } : {}),
    onIteration: (i, argv) => {
      Atomics.store(beat, 0, i + 1)
      if (process.env.FUZZ_VERBOSE !== undefined) process.stderr.write(`#${i} ${argv.join(' ')}\n`)
    },
  })
  return r.failures.length === 0 ? 0 : 1
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await cli()
}
