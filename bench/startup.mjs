#!/usr/bin/env node
// Start-up cost of tsdump on a small input, as a ratio to `node -e 0` (the floor no Node program goes under).
// Each round runs `node -e 0` and then every variant on every case, so that the machine's load falls on all of
// them alike; the table gives the medians of wall and CPU (user+sys) and their ratios to node -e 0's medians.
// Times come from bash's `time` (wall, user and sys of the child alone, to the millisecond): no fork of a
// timer is counted, and the 10 ms steps of /usr/bin/time are too coarse for runs of 50-150 ms.
//
//   node bench/startup.mjs [--runs 30] [--variant NAME=BIN.js ...] [--fixture DIR]
//
// Without --variant the variant is this checkout's bin/tsdump.js. A variant's BIN is any tsdump shim (for a
// before/after, a copy of another build's bin/ and dist/ beside its own package.json).
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './report.mjs'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function parseArgs(argv) {
  const o = { runs: 30, variants: [], fixture: path.join(repo, 'fixtures/broker/orders/logs/orders-11-0') }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--runs') o.runs = Number(argv[++i])
    else if (a === '--fixture') o.fixture = path.resolve(argv[++i])
    else if (a === '--variant') {
      const v = argv[++i]
      const eq = v.indexOf('=')
      o.variants.push({ name: v.slice(0, eq), bin: path.resolve(v.slice(eq + 1)) })
    } else throw new Error(`unknown argument ${a}`)
  }
  if (o.variants.length === 0) o.variants.push({ name: 'tsdump', bin: path.join(repo, 'bin/tsdump.js') })
  return o
}

/**
 * one run: wall and user+sys in ms. The output (stdout and stderr) goes into a pipe that this process reads, as
 * in a script or a test harness: /dev/null is a character device, which a terminal check must look at closer.
 */
function timed(args) {
  const script = 'TIMEFORMAT="%3R %3U %3S"; { time "$@" 2>&1; } 2>&3; exit 0'
  const r = spawnSync('bash', ['-c', script, 'startup', ...args], {
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit', 'pipe'],
    maxBuffer: 1 << 26,
  })
  const m = /(\d+\.\d+) (\d+\.\d+) (\d+\.\d+)\s*$/.exec(r.output[3])
  if (m === null) throw new Error(`no timing from ${args.join(' ')}: ${r.output[3]}`)
  return { wall: Number(m[1]) * 1000, cpu: (Number(m[2]) + Number(m[3])) * 1000 }
}

function main() {
  const o = parseArgs(process.argv.slice(2))
  const cases = [
    ['dump', [o.fixture]],
    ['lso', ['lso', o.fixture]],
    ['reconcile', ['reconcile', o.fixture]],
    ['txns', ['txns', o.fixture]],
    ['--help', ['--help']],
  ]
  // every command must work before it is timed: a failing run would be fast for the wrong reason
  for (const v of o.variants) {
    for (const [name, args] of cases) {
      const r = spawnSync(process.execPath, [v.bin, ...args], { encoding: 'utf8' })
      if (r.status !== 0 || r.stdout.length === 0) throw new Error(`${v.name} ${name}: exit ${r.status}\n${r.stderr}`)
    }
  }
  const base = { wall: [], cpu: [] }
  const res = new Map()
  const loadBefore = os.loadavg()
  for (let i = 0; i < o.runs; i++) {
    for (const [name, args] of cases) {
      const b = timed([process.execPath, '-e', '0'])
      base.wall.push(b.wall)
      base.cpu.push(b.cpu)
      for (const v of o.variants) {
        const key = `${v.name} ${name}`
        if (!res.has(key)) res.set(key, { wall: [], cpu: [] })
        const t = timed([process.execPath, v.bin, ...args])
        res.get(key).wall.push(t.wall)
        res.get(key).cpu.push(t.cpu)
      }
    }
  }
  const loadAfter = os.loadavg()
  const bw = median(base.wall)
  const bc = median(base.cpu)
  const f = (x) => x.toFixed(1)
  console.log(
    `node ${process.version}, ${os.availableParallelism()} cores, ${o.runs} rounds, load average ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after`,
  )
  console.log(`node -e 0: wall ${f(bw)} ms, CPU ${f(bc)} ms (medians of ${base.wall.length})`)
  console.log('| run | wall ms | × node -e 0 | CPU ms | × node -e 0 |')
  console.log('|---|---:|---:|---:|---:|')
  for (const [key, r] of res) {
    const w = median(r.wall)
    const c = median(r.cpu)
    console.log(`| ${key} | ${f(w)} | ${(w / bw).toFixed(2)} | ${f(c)} | ${(c / bc).toFixed(2)} |`)
  }
}

main()
