#!/usr/bin/env node
// CRC-32C cost per call, per implementation and call size, in CPU time (issue #15: choose the crossover by measurement).
//
//   node bench/crc.mjs                      per-call sweep (17 B .. 1 MiB) + batch-size shapes; markdown on stdout
//   node bench/crc.mjs --reps 5 --ms 150    repetitions (median reported) and CPU milliseconds per measurement
//   node bench/crc.mjs FILE.log ...         per batch over real segments (one call per v2 batch, bytes 21..end, as
//                                           a dump verifies them; every result checked against the stored CRC)
//   (needs `npm run build`: the WASM and the chosen hybrid are loaded from dist/)
//
// Implementations: crc-32/crc32c (pure JS, slicing-by-16), tsdump's WebAssembly slicing-by-16 (dist/bytes/crc32c-wasm.js),
// @node-rs/crc32 (native SSE4.2/PMULL, the optional dependency; from the project's node_modules, else installed into a
// scratch dir outside the repo, $CRCBENCH_DIR, default /tmp/crcbench), `tsdump` = src/bytes/crc32c.ts as chosen, and a
// loop-only baseline (window walk + subarray + an empty call) that the per-call cost is net of.
// Each (implementation, repetition) runs in its own child process, implementations alternating, so one's JIT state
// cannot help or hurt another; each measurement is process CPU time (user+sys) over >= --ms ms, after a warm-up.
// Buffers are laid out back to back in a 16 MiB window at odd offsets, like batches in a read window.
import { createRequire } from 'node:module'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')
const require = createRequire(import.meta.url)

export const SIZES = [
  17, 32, 61, 100, 150, 200, 300, 400, 600, 800, 1024, 1536, 2048, 3072, 3584, 4096, 6144, 8192, 16384, 65536, 262144,
  1048576,
]
export const IMPLS = ['js', 'wasm', 'native', 'tsdump', 'loop']
const NODE_RS = '@node-rs/crc32@1.10.8'
const WINDOW = 16 * 1024 * 1024

function loadNodeRs() {
  try {
    return require('@node-rs/crc32')
  } catch {
    /* not in the project: scratch install */
  }
  const scratch = process.env.CRCBENCH_DIR ?? '/tmp/crcbench'
  const req = createRequire(path.join(scratch, 'package.json'))
  try {
    return req('@node-rs/crc32')
  } catch {
    /* install below */
  }
  fs.mkdirSync(scratch, { recursive: true })
  if (!fs.existsSync(path.join(scratch, 'package.json')))
    fs.writeFileSync(path.join(scratch, 'package.json'), '{"name":"crcbench","private":true}\n')
  console.error(`installing ${NODE_RS} into ${scratch}`)
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', scratch, NODE_RS], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (r.status !== 0) return undefined
  try {
    return req('@node-rs/crc32')
  } catch {
    return undefined
  }
}

const dist = (f) => pathToFileURL(path.join(repo, 'dist', 'bytes', f)).href

/** the function (bytes) => unsigned CRC for one implementation name */
async function implementation(name) {
  switch (name) {
    case 'js': {
      const m = require('crc-32/crc32c')
      return (b) => m.buf(b, 0) >>> 0
    }
    case 'wasm': {
      const w = (await import(dist('crc32c-wasm.js'))).loadWasmCrc32c()
      return w && ((b) => w(0, b))
    }
    case 'native': {
      const n = loadNodeRs()
      return n && ((b) => n.crc32c(b) >>> 0)
    }
    case 'tsdump':
      return (await import(dist('crc32c.js'))).crc32c
    case 'loop':
      return () => 0
  }
  throw new Error(`unknown implementation ${name}`)
}

export function implLabel(name) {
  return {
    js: `crc-32/crc32c ${require('crc-32/package.json').version} (JS)`,
    wasm: 'tsdump WASM slicing-by-16',
    native: `${NODE_RS} (native)`,
    tsdump: 'tsdump crc32c() as chosen',
    loop: 'loop only',
  }[name]
}

const cpuNs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) * 1000
}

/** CPU ns per call of fn over calls of the given sizes, laid out back to back (with a 3-byte gap) in a window. */
function perCall(fn, sizes, minMs) {
  const window = Buffer.allocUnsafe(WINDOW)
  for (let i = 0; i < WINDOW; i += 4) window.writeUInt32LE((Math.imul(i, 2654435761) ^ (i >>> 7)) >>> 0, i)
  const starts = []
  let p = 1
  for (let i = 0; ; i = (i + 1) % sizes.length) {
    if (p + sizes[i] > WINDOW) break
    starts.push(p, sizes[i])
    p += sizes[i] + 3
    if (starts.length >= 2 * 200000) break
  }
  const pass = () => {
    let acc = 0
    for (let i = 0; i < starts.length; i += 2) acc ^= fn(window.subarray(starts[i], starts[i] + starts[i + 1]))
    return acc
  }
  const t = cpuNs()
  while (cpuNs() - t < minMs * 2e5) pass() // warm-up: 20% of the measurement
  let calls = 0
  const t0 = cpuNs()
  let acc = 0
  do {
    acc ^= pass()
    calls += starts.length / 2
  } while (cpuNs() - t0 < minMs * 1e6)
  return { ns: (cpuNs() - t0) / calls, acc }
}

/** batch sizes of the benchmark shapes; CRC'd bytes = batch size - 21 */
export async function shapes() {
  const { templates, templatePath } = await import(pathToFileURL(path.join(here, 'make-segments.mjs')).href)
  // the broker-made templates are used when present; this bench never starts a broker to make them
  const sizesOf = (kind, fallback) => {
    if ((kind === 'mid' || kind === 'large-txn') && !fs.existsSync(templatePath(kind))) return fallback
    return templates(kind)
      .flat()
      .map((b) => b.buf.length - 21)
  }
  return [
    { name: 'txn (orders-* + mixed-0 batches, markers included)', sizes: sizesOf('txn', [61]) },
    { name: 'plain (codec-none + mixed-0 data batches)', sizes: sizesOf('plain', [200]) },
    { name: 'mid (~3.5 KiB broker batches)', sizes: sizesOf('mid', [3584 - 21]) },
    { name: 'large-txn (~0.9 MB batches + markers)', sizes: sizesOf('large-txn', [900000 - 21, 61 - 21]) },
  ]
}

async function child(name, minMs) {
  const fn = await implementation(name)
  if (!fn) {
    console.log(JSON.stringify({ name, missing: true }))
    return
  }
  const bySize = {}
  for (const s of SIZES) bySize[s] = perCall(fn, [s], minMs).ns
  const byShape = {}
  for (const sh of await shapes())
    byShape[sh.name] = {
      ns: perCall(fn, sh.sizes, minMs).ns,
      meanBytes: sh.sizes.reduce((a, b) => a + b, 0) / sh.sizes.length,
    }
  console.log(JSON.stringify({ name, bySize, byShape }))
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

async function sweep(reps, minMs) {
  const runs = Object.fromEntries(IMPLS.map((n) => [n, []]))
  for (let r = 0; r < reps; r++) {
    const order = r % 2 === 0 ? IMPLS : [...IMPLS].reverse()
    for (const name of order) {
      const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', name, '--ms', String(minMs)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      if (c.status !== 0) throw new Error(`child ${name} failed (${c.status})`)
      runs[name].push(JSON.parse(c.stdout.trim().split('\n').pop()))
      console.error(`rep ${r + 1}/${reps} ${name} done, load ${os.loadavg()[0].toFixed(1)}`)
    }
  }
  const names = IMPLS.filter((n) => !runs[n][0].missing)
  const loop = runs.loop
  const net = (name, get) => median(runs[name].map(get)) - median(loop.map(get))
  const L = []
  const cpu = os.cpus()
  L.push(
    `CPU ns per call (process user+sys time, median of ${reps} alternating runs, net of the loop-only baseline), node ${process.version},`,
    `${cpu.length} × ${cpu[0]?.model}, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at the end (shared machine).`,
    '',
  )
  const shown = names.filter((n) => n !== 'loop')
  L.push(
    `| bytes per call | ${shown.map(implLabel).join(' | ')} | fastest | loop-only ns |`,
    `|---:|${shown.map(() => '---:|').join('')}---|---:|`,
  )
  const table = {}
  for (const s of SIZES) {
    const v = Object.fromEntries(shown.map((n) => [n, net(n, (r) => r.bySize[s])]))
    table[s] = v
    const best = ['js', 'wasm', 'native'].filter((n) => n in v).sort((a, b) => v[a] - v[b])[0]
    L.push(
      `| ${s} | ${shown.map((n) => `${v[n].toFixed(0)} ns (${(s / Math.max(v[n], 0.5)).toFixed(2)} B/ns)`).join(' | ')} | ${best} | ${median(loop.map((r) => r.bySize[s])).toFixed(0)} |`,
    )
  }
  L.push(
    '',
    'Shapes: the batch sizes of the benchmark inputs, in file order, one call per batch over bytes 21..end.',
    '',
  )
  L.push(
    `| shape | mean CRC'd bytes | ${shown.map(implLabel).join(' | ')} |`,
    `|---|---:|${shown.map(() => '---:|').join('')}`,
  )
  for (const sh of Object.keys(runs[names[0]][0].byShape)) {
    L.push(
      `| ${sh} | ${runs[names[0]][0].byShape[sh].meanBytes.toFixed(0)} | ${shown.map((n) => `${net(n, (r) => r.byShape[sh].ns).toFixed(0)} ns`).join(' | ')} |`,
    )
  }
  return { text: L.join('\n'), table, runs }
}

/** per batch over real files (the previous bench, kept for run.mjs): CRC seconds per implementation */
async function files(list) {
  const L = [
    "| file | batches | mean CRC'd bytes | " +
      IMPLS.filter((n) => n !== 'loop')
        .map(implLabel)
        .join(' | ') +
      ' | mismatches |',
    '|---|---:|---:|' +
      IMPLS.filter((n) => n !== 'loop')
        .map(() => '---:|')
        .join('') +
      '---:|',
  ]
  for (const file of list) {
    const row = {}
    let batches = 0
    let bytes = 0
    let bad = 0
    for (const name of IMPLS.filter((n) => n !== 'loop')) {
      const fn = await implementation(name)
      if (!fn) {
        row[name] = '—'
        continue
      }
      const secs = []
      for (let r = 0; r < 3; r++) {
        const fd = fs.openSync(file, 'r')
        const buf = Buffer.allocUnsafe(WINDOW + 1024 * 1024)
        let pos = 0
        let have = 0
        let ns = 0
        batches = 0
        bytes = 0
        bad = 0
        for (;;) {
          const n = fs.readSync(fd, buf, have, buf.length - have, pos)
          pos += n
          have += n
          let p = 0
          const t0 = cpuNs()
          while (p + 61 <= have) {
            const size = buf.readInt32BE(p + 8) + 12
            if (p + size > have) break
            if (fn(buf.subarray(p + 21, p + size)) !== buf.readUInt32BE(p + 17)) bad++
            bytes += size - 21
            batches++
            p += size
          }
          ns += cpuNs() - t0
          buf.copy(buf, 0, p, have)
          have -= p
          if (n === 0) break
        }
        fs.closeSync(fd)
        secs.push(ns / 1e9)
      }
      row[name] = `${median(secs).toFixed(3)} s`
    }
    L.push(
      `| ${path.basename(path.dirname(file))} | ${batches} | ${(bytes / batches).toFixed(0)} | ${IMPLS.filter(
        (n) => n !== 'loop',
      )
        .map((n) => row[n])
        .join(' | ')} | ${bad} |`,
    )
  }
  return L.join('\n')
}

async function main(argv) {
  let reps = 5
  let ms = 150
  const list = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--child') {
      const name = argv[++i]
      const k = argv.indexOf('--ms')
      await child(name, k > 0 ? Number(argv[k + 1]) : ms)
      return
    } else if (argv[i] === '--reps') reps = Number(argv[++i])
    else if (argv[i] === '--ms') ms = Number(argv[++i])
    else if (argv[i] === '--json') {
      /* handled below */
    } else list.push(argv[i])
  }
  if (!fs.existsSync(path.join(repo, 'dist', 'bytes', 'crc32c-wasm.js'))) {
    console.error('dist/ missing: run npm run build first')
    process.exit(2)
  }
  if (list.length > 0) {
    console.log(await files(list))
    return
  }
  const r = await sweep(reps, ms)
  console.log(r.text)
  if (argv.includes('--json'))
    fs.writeFileSync(path.join(here, 'data', `crc-${Date.now()}.json`), JSON.stringify(r.runs))
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main(process.argv.slice(2))
