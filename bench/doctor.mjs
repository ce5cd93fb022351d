#!/usr/bin/env node
// `tsdump doctor` against `reconcile` over the same paths (issue: doctor within 1.5x of reconcile, under 128 MiB):
// the 4.4.0 transactions fixture, the 11 MiB input of scripts/fuzz/builders.mjs (8 MiB of one-record transactions
// that never match 25,000 coordinator records of 1,000 ids: a finding per transaction) and bench/make-scale.mjs'
// log directory (--transactions N). Each command runs `--runs` times under /usr/bin/time -v (GNU time), output to
// /dev/null, doctor with a fixed --now: the median wall time, the median user+system CPU and the highest peak RSS
// as a markdown table, with `uptime` before and after (the machine's load).
//
// usage: npm run build && node bench/doctor.mjs [--runs 3] [--transactions 100000] [--dir bench/data]
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { transactionStateLog, transactions } from '../scripts/fuzz/builders.mjs'
import { scaleLogDir } from './make-scale.mjs'
import { timed } from './timed.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const bin = path.join(here, '..', 'bin', 'tsdump.js')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : dflt
}
const runs = Number(arg('runs', 3))
const root = path.resolve(arg('dir', path.join(here, 'data')))
const txns = Number(arg('transactions', 100000))
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** one run (bench/timed.mjs): wall s, cpu s, peak RSS MiB, exit code */
async function measure(argv) {
  const r = await timed([process.execPath, bin, ...argv], { data: root, timeout: 1200 })
  return { wall: r.wall, cpu: r.user + r.sys, rss: r.rssKiB / 1024, code: r.code }
}

/** the 11 MiB input: made once under `dir` */
function mismatched(dir) {
  if (fs.existsSync(`${dir}.done`)) return dir
  for (const d of ['orders-0', '__transaction_state-0']) fs.mkdirSync(path.join(dir, d), { recursive: true })
  transactions(path.join(dir, 'orders-0', '00000000000000000000.log'), 8 * 1024 * 1024, false)
  transactionStateLog(path.join(dir, '__transaction_state-0', '00000000000000000000.log'), 25000, 1000)
  fs.writeFileSync(`${dir}.done`, '')
  return dir
}

const bytesOf = (dir) => {
  let n = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) n += fs.statSync(path.join(e.parentPath ?? e.path, e.name)).size
  return n
}

const inputs = [
  ['fixtures/broker-4.4/transactions/logs', path.join(here, '..', 'fixtures', 'broker-4.4', 'transactions', 'logs')],
  ['builders: 8 MiB of transactions + 25,000 coordinator records', mismatched(path.join(root, 'doctor-mismatched'))],
  [
    `make-scale --transactions ${txns}`,
    (scaleLogDir(path.join(root, `scale-${txns}`), { transactions: txns, ids: 1000 }, (m) => console.error(m)),
    path.join(root, `scale-${txns}`)),
  ],
]
const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim()
console.log(`load before: ${load()}`)
console.log('')
console.log('| input | MiB | command | wall s (median) | CPU s (median) | peak RSS MiB (max) | exit |')
console.log('|---|---:|---|---:|---:|---:|---:|')
for (const [name, dir] of inputs) {
  for (const argv of [
    ['reconcile', dir],
    ['doctor', '--now', '2026-12-01T00:00:00Z', dir],
  ]) {
    const ms = []
    for (let i = 0; i < runs; i++) ms.push(await measure(argv))
    console.log(
      `| ${name} | ${(bytesOf(dir) / 2 ** 20).toFixed(2)} | ${argv[0]} | ${median(ms.map((m) => m.wall)).toFixed(2)} | ${median(ms.map((m) => m.cpu)).toFixed(2)} | ${Math.max(...ms.map((m) => m.rss)).toFixed(0)} | ${[...new Set(ms.map((m) => m.code))].join(',')} |`,
    )
  }
}
console.log('')
console.log(`load after: ${load()}`)
