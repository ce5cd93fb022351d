#!/usr/bin/env node
// Thin shim: the CLI is dist/bundle/tsdump.cjs (built by `npm ci` through the `prepare` script: tsc, then
// scripts/bundle.mjs). A CommonJS file (bin/package.json): no ES module loader is started, which costs a short run
// several ms, and neither is the bundle's.
// The young generation's size cannot be set from here: V8 sizes it when the heap is set up, and a runtime
// --max-semi-space-size=4 (which this file used to set) left the main thread's new space at 32 MiB, measured
// with v8.getHeapSpaceStatistics. Dump worker threads get 2 MiB through their resourceLimits (commands/workers/dump-pool.ts).
'use strict'
const fs = require('node:fs')
const path = require('node:path')
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
// - transactions the same 10% steps, and a young generation that never grows past its first 1 MiB semi-spaces
//   (a growth factor of 1 is read at each growth, so it works at run time, unlike the size above). V8 grows the
//   young generation once as many bytes as it holds have survived since it last grew, and each mark-compact
//   counts every young object it promotes: over a long run any trickle of survivors takes it to 16 MiB
//   semi-spaces, 32 MiB of RSS. A million producers of one transaction each (--json): 123-137 -> 89-92 MiB
//   peak, 10-20% more CPU (bench/RESULTS.md, "transactions' young generation").
// - lso the same two: the big hostile tier's many-producers input (one 140 MB partition of transactions) peaked at
//   110-139 MiB as the young generation grew or not, 93-95 MiB held, for 15-20% more CPU there; on
//   bench/make-scale.mjs' 1,000,000 transactions (its worker threads, whose start sets the factor back to 2) the same
//   CPU and peak (bench/RESULTS.md).
// - reconcile and txns the young generation held too: the discovery of 5,000 partitions (and their remote listing)
//   doubled it twice before the first was scanned, 32 MiB of RSS (bench/make-remote.mjs 5,000 x 2: reconcile
//   120 -> 90 MiB, txns 185 -> 99-103 MiB peak, CPU the same; scale-1000000 reconcile 111-117 -> 100-104 MiB).
// Each flag here was run 300 times on a short input without a hang (the test of #25 in bench/RESULTS.md).
// The command is the first argument naming one; a path named `txns`, `reconcile`, `transactions` or `lso` picks these
// settings too, and no output differs.
const COMMANDS = new Set([
  'dump',
  'reconcile',
  'txns',
  'transactions',
  'lso',
  'report',
  'replicas',
  'cleanup',
  'remote',
  'kafka-dump-log',
])
const command = process.argv
  .slice(2)
  .find((a) => a === 'txns' || a === 'reconcile' || a === 'transactions' || a === 'lso')
const GROW_IN_SMALL_STEPS = '--heap-growing-percent=10'
const V8_FLAGS = {
  txns: [GROW_IN_SMALL_STEPS, '--semi-space-growth-factor=1'],
  reconcile: [
    GROW_IN_SMALL_STEPS,
    '--max-inlined-bytecode-size=1000',
    '--max-inlined-bytecode-size-cumulative=3000',
    '--semi-space-growth-factor=1',
  ],
  transactions: [GROW_IN_SMALL_STEPS, '--semi-space-growth-factor=1'],
  lso: [GROW_IN_SMALL_STEPS, '--semi-space-growth-factor=1'],
}
// A small input (all its files seen, under 1 MiB) gets none: there the heap never grows and nothing is hot, so
// they change nothing, while node:v8 loads node's streams, 23 modules, 3-4 ms of a short run (bench/RESULTS-startup.md).
// stdin, remote storage and deeper trees than a log directory count as large.
const SMALL_INPUT_BYTES = 1024 * 1024
const small = isSmallInput(process.argv.slice(2))
// A run reading s3:// has the flags the S3 I/O thread's bridge sets (src/io/remote/sync-bridge.ts) from the start,
// and code caches of its own: V8 accepts a code cache made under the same flags only, and the bridge's would
// otherwise make every such run reject and rewrite the command's cache.
const S3_FLAGS = ['--semi-space-growth-factor=1', '--no-concurrent-recompilation']
const s3 = process.argv.slice(2).some((a) => a.startsWith('s3://'))
if (!small) {
  const v8 = require('node:v8')
  for (const f of command === undefined ? [GROW_IN_SMALL_STEPS] : V8_FLAGS[command]) v8.setFlagsFromString(f)
  if (s3) for (const f of S3_FLAGS) v8.setFlagsFromString(f)
}

function isSmallInput(args) {
  let bytes = 0
  for (const a of args) {
    if (a === '-' || a.includes('://')) return false
    if (a.startsWith('-')) continue
    bytes += bytesUnder(a, 2)
    if (bytes >= SMALL_INPUT_BYTES) return false
  }
  return true
}

/** the size of a file, or of the files of a directory `depth` levels down (Infinity for a deeper tree); 0 for what is not a path */
function bytesUnder(p, depth) {
  let st
  try {
    st = fs.statSync(p)
  } catch {
    return 0
  }
  // a file counts at least 1 KiB: thousands of small partitions are a large input (their discovery alone grows the heap)
  if (!st.isDirectory()) return st.isFile() ? Math.max(st.size, 1024) : 0
  if (depth === 0) return Infinity
  let names
  // an unreadable directory is the command's to report (as a finding), not this probe's
  try {
    names = fs.readdirSync(p)
  } catch {
    return 0
  }
  let bytes = 0
  for (const e of names) {
    bytes += bytesUnder(path.join(p, e), depth - 1)
    if (bytes >= SMALL_INPUT_BYTES) break
  }
  return bytes
}

// V8's code cache. Compiling the bundle and the functions a run calls was a third of a short run (a dump of a
// 1 KiB partition profiled at 128 ms without the cache, 87 with it, bench/RESULTS-startup.md); with the cache a run
// of a small input costs 1.3-1.4x `node -e 0` instead of 2x. Node 20 has no module.enableCompileCache (22.1), so the bundle is compiled here with vm.Script's
// cachedData. One cache per command, V8 flag set (V8 rejects a cache made under other flags), Node build and install.
// tsdump writes nothing into its own installation (which may be read-only, shared, or a package manager's), so
// the cache is the user's: $XDG_CACHE_HOME/tsdump, else ~/.cache/tsdump, else <tmpdir>/tsdump-<uid>. Code cache
// is code, so a directory another user could have made or can write is never read: the directory must be
// ours (owner = this uid) and writable by no one else, checked with lstat (no symlink), else the run compiles.
// Written once, when missing or rejected (V8 checks the source, its version and flags); atomically (concurrent
// runs); where it cannot be, never: the run just compiles. TSDUMP_NO_COMPILE_CACHE=1 turns it off.
const vm = require('node:vm')
const { createRequire, wrap } = require('node:module')

const BUNDLE = path.join(__dirname, '..', 'dist', 'bundle', 'tsdump.cjs')
const { main } = process.env.TSDUMP_NO_COMPILE_CACHE === '1' ? require(BUNDLE) : loadCached()
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})

function loadCached() {
  const name = process.argv.slice(2).find((a) => COMMANDS.has(a)) ?? 'dump'
  const dir = cacheDir()
  // one set per installation (its path's hash), so that two installs of different versions do not take turns
  // rewriting one file, and per build of it (the bundle's size and mtime): V8 checks a cache against the source's
  // length only, so a rebuild in place of the same length ran the old build's code and could crash (exit 139)
  const stem = `${name}-${small ? 'no-flags' : (command ?? 'flags')}${s3 ? '-s3' : ''}-${process.version}-${process.arch}-${pathHash(BUNDLE)}-`
  const cacheFile = dir === undefined ? undefined : path.join(dir, `${stem}${buildStamp()}.bin`)
  let cachedData
  if (cacheFile !== undefined)
    try {
      cachedData = fs.readFileSync(cacheFile)
    } catch {
      /* none yet */
    }
  const script = new vm.Script(wrap(fs.readFileSync(BUNDLE, 'utf8')), { filename: BUNDLE, cachedData })
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, path.dirname(BUNDLE))
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    // after the run, so that the functions it compiled are in the cache
    process.once('beforeExit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}`
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: 'wx' })
        fs.renameSync(tmp, cacheFile)
        // the same install's caches of earlier builds are never read again
        for (const f of fs.readdirSync(dir))
          if (f.startsWith(stem) && f.endsWith('.bin') && path.join(dir, f) !== cacheFile) fs.rmSync(path.join(dir, f))
      } catch {
        /* read-only or full: the next run compiles again */
      }
    })
  }
  return module.exports
}

/** the user's cache directory for tsdump, made if missing; undefined where there is none we may trust */
function cacheDir() {
  const os = require('node:os')
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  const xdg = process.env.XDG_CACHE_HOME
  const home = os.homedir()
  const candidates = []
  if (xdg !== undefined && path.isAbsolute(xdg)) candidates.push(path.join(xdg, 'tsdump'))
  if (home !== '' && path.isAbsolute(home)) candidates.push(path.join(home, '.cache', 'tsdump'))
  // a user with no writable home (nobody's is /nonexistent)
  candidates.push(path.join(os.tmpdir(), `tsdump-${uid ?? os.userInfo().username}`))
  for (const dir of candidates) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
      const st = fs.lstatSync(dir)
      // another owner, or group or others able to write, could plant a cache: not one to read
      if (st.isDirectory() && (uid === undefined || (st.uid === uid && (st.mode & 0o022) === 0))) return dir
    } catch {
      /* not writable here: the next one */
    }
  }
  return undefined
}

/** the bundle's build as its size and modification time (one stat): a rebuild in place changes it */
function buildStamp() {
  try {
    const st = fs.statSync(BUNDLE)
    return `${st.size}-${Math.round(st.mtimeMs * 1000).toString(36)}`
  } catch {
    return 'unknown'
  }
}

/** FNV-1a of a path, as 8 hex digits: names an installation's cache files without loading node:crypto */
function pathHash(p) {
  let h = 0x811c9dc5
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(16).padStart(8, '0')
}
