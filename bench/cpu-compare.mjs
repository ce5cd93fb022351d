#!/usr/bin/env node
// CPU-time comparison of two tsdump builds (issue #10: the refactor must hold speed within 5%).
// Wall time is meaningless on a machine shared with other jobs, so this records user+sys CPU seconds
// (from /usr/bin/time -v) and peak RSS, runs the builds alternately, and reports medians.
//
//   node bench/cpu-compare.mjs --data DIR --build before=/path/to/dist --build after=dist [--runs 3] [--only deep]
//
// DIR holds inputs from bench/make-segments.mjs (--only plain,txn). Modes: shallow dump of plain,
// deep --print-data-log of plain and of txn, reconcile of txn.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const args = process.argv.slice(2)
let data = 'bench/data'
let runs = 3
let only
const builds = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--data') data = args[++i]
  else if (args[i] === '--runs') runs = Number(args[++i])
  else if (args[i] === '--only') only = args[++i]
  else if (args[i] === '--build') {
    const [k, v] = args[++i].split('=')
    builds.push({ name: k, dist: path.resolve(v) })
  }
}
const dirOf = (kind) =>
  fs
    .readdirSync(data)
    .map((d) => path.join(data, d))
    .find((d) => path.basename(d).startsWith(`bench-${kind}-`) && fs.statSync(d).isDirectory())
const plain = dirOf('plain')
const txn = dirOf('txn')
const seg = (d) => path.join(d, '00000000000000000000.log')
const modes = [
  { name: 'shallow dump (plain)', argv: [seg(plain)] },
  { name: 'deep --print-data-log (plain)', argv: ['--deep-iteration', '--print-data-log', seg(plain)] },
  { name: 'deep --print-data-log (txn)', argv: ['--deep-iteration', '--print-data-log', seg(txn)] },
  { name: 'reconcile (txn)', argv: ['reconcile', txn] },
]
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}
function once(dist, argv) {
  const shim = path.join(os.tmpdir(), `tsdump-cpu-compare-${Buffer.from(dist).toString('hex').slice(-24)}.mjs`)
  fs.writeFileSync(
    shim,
    `import { main } from ${JSON.stringify(path.join(dist, 'cli', 'main.js'))}\nprocess.exitCode = await main(process.argv.slice(2))\n`,
  )
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, shim, ...argv], {
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  })
  const err = r.stderr.toString()
  const num = (re) => Number(re.exec(err)?.[1] ?? NaN)
  return {
    cpu: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
    rss: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024,
    code: r.status,
  }
}
const rows = []
for (const m of modes.filter((x) => only === undefined || x.name.includes(only))) {
  const res = Object.fromEntries(builds.map((b) => [b.name, []]))
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? builds : [...builds].reverse()
    for (const b of order) res[b.name].push(once(b.dist, m.argv))
  }
  const row = { mode: m.name }
  for (const b of builds)
    row[b.name] = {
      cpu: median(res[b.name].map((r) => r.cpu)),
      rss: median(res[b.name].map((r) => r.rss)),
      runs: res[b.name].map((r) => r.cpu),
      exit: res[b.name][0].code,
    }
  rows.push(row)
  console.log(JSON.stringify(row))
}
