#!/usr/bin/env node
// Issue #34 item 4: `transactions`, `lso`, `txns` and `reconcile` on bench/make-scale.mjs's log directory at
// several transaction counts. Each command is run `--runs` times under /usr/bin/time -v (GNU time): the median wall
// time, the median user+system CPU and the highest peak RSS are printed as a markdown table with `uptime` before
// and after (the machine's load). Inputs are made once under --dir (default bench/data) and reused.
//
// usage: npm run build && node bench/scale.mjs [--sizes 10000,100000,1000000] [--runs 3] [--dir bench/data]
//          [--commands transactions,lso,txns,reconcile]
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { scaleLogDir } from './make-scale.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const bin = path.join(here, '..', 'bin', 'tsdump.js')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : dflt
}
const sizes = arg('sizes', '10000,100000,1000000').split(',').map(Number)
const runs = Number(arg('runs', 3))
const root = path.resolve(arg('dir', path.join(here, 'data')))
const commands = arg('commands', 'transactions,lso,txns,reconcile').split(',')
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** one run: wall s, cpu s, peak RSS MiB, exit code */
function measure(command, dir) {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, bin, command, dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  })
  const num = (re) => {
    const m = re.exec(r.stderr)
    return m === null ? NaN : Number(m[1])
  }
  const wall = (() => {
    const m = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)
    return m === null ? NaN : Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3])
  })()
  return {
    wall,
    cpu: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    rss: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024,
    code: num(/Exit status: (\d+)/),
  }
}

const load = () => execFileSync('uptime', { encoding: 'utf8' }).trim()
console.log(`load before: ${load()}`)
console.log('')
console.log('| transactions | input MiB | command | wall s (median) | CPU s (median) | peak RSS MiB (max) | exit |')
console.log('|---:|---:|---|---:|---:|---:|---:|')
for (const n of sizes) {
  const dir = path.join(root, `scale-${n}`)
  const meta = scaleLogDir(dir, { transactions: n, ids: 1000 }, (m) => console.error(m))
  for (const c of commands) {
    const ms = Array.from({ length: runs }, () => measure(c, dir))
    console.log(
      `| ${n} | ${(meta.bytes / 2 ** 20).toFixed(0)} | ${c} | ${median(ms.map((m) => m.wall)).toFixed(2)} | ${median(ms.map((m) => m.cpu)).toFixed(2)} | ${Math.max(...ms.map((m) => m.rss)).toFixed(0)} | ${[...new Set(ms.map((m) => m.code))].join(',')} |`,
    )
  }
}
console.log('')
console.log(`load after: ${load()}`)
if (!fs.existsSync(bin)) process.exitCode = 2
