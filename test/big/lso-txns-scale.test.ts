// `lso` and `txns` at production scale, held to 128 MiB peak RSS as the big tier holds every command: the log dir of
// bench/make-scale.mjs (50 partitions, 4 __consumer_offsets and 4 __transaction_state partitions; transactions of
// 1-20 records over 1-4 partitions, a TxnOffsetCommit and Ongoing/Prepare*/Complete* records each; every 10th
// aborted, 3 left open), a million transactions by default (1.4 GiB; TSDUMP_BIG_LSO_TXNS sets the count).
// Input made under the temp directory and deleted after; the output goes to a file and is counted, not held.
//
// The answers are the generator's own: lso's blocked partitions are those its open transactions wrote (each held by
// one of their producers), and txns lists a run per partition each transaction wrote, by outcome, as it counted them.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'
import { countMatches } from './count-matches.js'
import { afterAll, describe, expect, it } from 'vitest'
import { rmrf, tmp } from '../hostile/support.js'
import { REPO_ROOT } from '../support/paths.js'
import { scaleLogDir } from '../../bench/make-scale.mjs'

const dir = tmp('tsdump-big-lso-txns-')
afterAll(() => rmrf(dir))
const N = Number(process.env.TSDUMP_BIG_LSO_TXNS ?? 1_000_000)
const logs = path.join(dir, 'scale')

interface Run {
  code: number | null
  stderr: string
  maxRssMiB: number
  /** the JSON output's file (deleted with the temp directory) */
  out: string
}

/** tsdump <argv> over the log dir, stdout to a file; its peak RSS */
function run(name: string, argv: string[]): Run {
  const out = path.join(dir, `${name}.json`)
  // preloaded with --require, so that the CLI starts as bin/tsdump.js does (no ES module loader: an import() from an
  // .mjs wrapper added 10-25 MiB to the peak). The peak is VmHWM, this process image's own: getrusage's maxRSS
  // keeps the parent's across fork and exec (the vitest worker's 140 MiB, whatever the command used)
  const probe = path.join(dir, 'rss-probe.cjs')
  fs.writeFileSync(
    probe,
    `process.on('exit', () => { let kb = process.resourceUsage().maxRSS; ` +
      `try { kb = Number(/VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) } catch {} ` +
      `process.stderr.write('\\nMAXRSS ' + kb + '\\n') })\n`,
  )
  const fd = fs.openSync(out, 'w')
  const r = spawnSync(process.execPath, ['--require', probe, path.join(REPO_ROOT, 'bin', 'tsdump.js'), ...argv, logs], {
    stdio: ['ignore', fd, 'pipe'],
    encoding: 'utf8',
  })
  fs.closeSync(fd)
  const m = /MAXRSS (\d+)/.exec(r.stderr)
  return {
    code: r.status,
    stderr: r.stderr.replace(/\nMAXRSS \d+\n/, '').slice(-2000),
    maxRssMiB: m === null ? NaN : Number(m[1]) / 1024,
    out,
  }
}

/** each transaction run's outcome in txns' JSON (a run has one "outcome" field) */
function outcomes(file: string): Record<string, number> {
  return countMatches(file, /"outcome":("\w+"|null)/g, (x) => x[1])
}

describe(`lso and txns on ${N} transactions`, () => {
  const made: { stats?: ReturnType<typeof scaleLogDir>['stats'] } = {}
  const lso: { r?: Run } = {}
  const txns: { r?: Run } = {}

  it("lso: the open transactions' partitions blocked, each by one of their producers", () => {
    made.stats = scaleLogDir(logs, { transactions: N, ids: 1000 }).stats
    const r = run('lso', ['lso', '--json', '--now', '2030-01-01T00:00:00Z'])
    lso.r = r
    // exit 1: the transactions left open are hanging at --now
    expect(r.code, r.stderr).toBe(1)
    const j = JSON.parse(fs.readFileSync(r.out, 'utf8')) as {
      partitions: Array<{ topic: string; partition: number; blocking: { producerId: number } | null }>
    }
    fs.rmSync(r.out, { force: true })
    const blocked = j.partitions.filter((p) => p.blocking !== null)
    expect(blocked.map((p) => `${p.topic}-${p.partition}`).sort()).toEqual(made.stats.openPartitions)
    // the open transactions are ids 0-2 (producers 5000-5002), the last transaction of each
    for (const p of blocked) expect([5000, 5001, 5002]).toContain(p.blocking!.producerId)
  })
  // 1M transactions, /usr/bin/time on a loaded machine (bench/RESULTS.md, "lso and txns from the broker model"):
  // 92-103 MiB since the coordinator's records are read in place (160 MiB before)
  it(`lso: peak RSS < 128 MiB`, () => {
    expect(lso.r?.code).toBe(1)
    console.log(`lso, ${N} transactions: peak RSS ${lso.r!.maxRssMiB.toFixed(0)} MiB`)
    expect(lso.r!.maxRssMiB).toBeLessThan(128)
  })

  it('txns: a run per partition each transaction wrote, with its outcome, as the generator counted them', () => {
    const r = run('txns', ['txns', '--json'])
    txns.r = r
    expect(r.code, r.stderr).toBe(0)
    const runs = made.stats!.runs
    const counted = outcomes(r.out)
    fs.rmSync(r.out, { force: true })
    expect(counted).toEqual({ '"committed"': runs.committed, '"aborted"': runs.aborted, '"open"': runs.open })
  })
  // 124-127 MiB at 1M once the runs were encoded as they come (142 MiB before), 103-105 with V8's young generation
  // held at 16 MiB (io/young-generation.ts; bench/RESULTS.md, branch lso13)
  it(`txns: peak RSS < 128 MiB`, () => {
    expect(txns.r?.code).toBe(0)
    console.log(`txns, ${N} transactions: peak RSS ${txns.r!.maxRssMiB.toFixed(0)} MiB`)
    expect(txns.r!.maxRssMiB).toBeLessThan(128)
  })
})
