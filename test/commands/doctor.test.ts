// `tsdump doctor` on every real-broker fixture: its findings are exactly the union of what reconcile, lso,
// transactions, cleanup, replicas and remote report on the same paths (each command's library function run here,
// its findings collected by a walk of its whole result, independent of doctor's gathering), in the documented
// order of harm; its fixes are lso's abort commands. Truth beyond tsdump: the brokers' expected.json
// (describe-producers' CurrentTransactionStartOffset) and kafka-dump-log's stored text for the damaged copy.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { GROUP_EXAMPLES, LISTED_UP_TO } from '../../src/analysis/doctor/collect.js'
import { HARM_RANK } from '../../src/analysis/doctor/rank.js'
import type { DoctorFinding, DoctorResult } from '../../src/analysis/doctor/types.js'
import { cleanup } from '../../src/commands/cleanup.js'
import { doctor } from '../../src/commands/doctor.js'
import { lso } from '../../src/commands/lso.js'
import type { LsoResult } from '../../src/analysis/partition-results.js'
import { reconcile } from '../../src/commands/reconcile.js'
import { remoteInventory } from '../../src/commands/remote.js'
import { replicas } from '../../src/commands/replicas.js'
import { transactions } from '../../src/commands/transactions.js'
import { FIXTURES, FIXTURES_44, REPO_ROOT } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'
import { transactionStateLog, transactions as writeTransactions } from '../../scripts/fuzz/builders.mjs'

// a fixed time, after every fixture was written
const NOW = Date.parse('2026-12-06T00:00:00Z')
const NOW_ISO = '2026-12-06T00:00:00Z'

interface Raw {
  code: string
  severity: string
  message: string
  file?: string
  position?: number
  partition?: string
  firstOffset?: bigint
  lastOffset?: bigint
}

/** a fault's identity: its file and byte position, else its partition and offsets, else its words */
function keyOf(f: Raw, partition: string | null): string {
  if (f.file !== undefined && f.position !== undefined) return `${f.code} ${f.file} @${f.position}`
  const p = f.partition ?? partition
  if (f.file === undefined && p === null) return `${f.code} ${f.message}`
  return `${f.code} ${f.file ?? ''} ${p ?? ''} ${f.firstOffset ?? ''}..${f.lastOffset ?? ''}`
}

/** every `findings` array anywhere in a result, each finding with the partition of the nearest object that names one */
function walk(
  o: unknown,
  partition: string | null,
  out: Array<{ f: Raw; partition: string | null }>,
  seen = new Set<unknown>(),
): void {
  if (o === null || typeof o !== 'object' || seen.has(o)) return
  seen.add(o)
  if (Array.isArray(o)) {
    for (const x of o) walk(x, partition, out, seen)
    return
  }
  const rec = o as Record<string, unknown>
  const here =
    typeof rec.label === 'string'
      ? rec.label
      : typeof rec.topic === 'string' && typeof rec.partition === 'number'
        ? `${rec.topic}-${rec.partition}`
        : partition
  for (const [k, v] of Object.entries(rec)) {
    if (k === 'findings' && Array.isArray(v)) for (const f of v as Raw[]) out.push({ f, partition: here })
    else walk(v, here, out, seen)
  }
}

interface Run {
  paths: string[]
  remote?: string
  logDirs?: boolean
}

function union(run: Run): { keys: Set<string>; hanging: Set<string>; lso: LsoResult } {
  const out: Array<{ f: Raw; partition: string | null }> = []
  const remote = run.remote !== undefined ? { remote: run.remote } : {}
  const l = lso(run.paths, { ...remote, now: NOW })
  for (const r of [
    reconcile(run.paths, remote),
    l,
    transactions(run.paths, { ...remote, now: NOW }),
    cleanup(run.paths, { now: NOW, ...remote }),
  ])
    walk(r, null, out)
  if (run.logDirs === true) walk(replicas(run.paths), null, out)
  if (run.remote !== undefined) walk(remoteInventory(run.paths, run.remote), null, out)
  // the hanging rule's verdicts are about a transaction, whichever command placed them where: partition and first offset
  const hanging = new Set(l.hangingTransactions.map((h) => `TXN_HANGING ${h.topic}-${h.partition}@${h.firstOffset}`))
  for (const { f, partition } of out)
    if (VERDICTS.has(f.code)) hanging.add(`${f.code} ${f.partition ?? partition}@${f.firstOffset}`)
  return {
    keys: new Set(out.filter(({ f }) => !VERDICTS.has(f.code)).map(({ f, partition }) => keyOf(f, partition))),
    hanging,
    lso: l,
  }
}

const SEVERITY = ['error', 'warning', 'info']
const VERDICTS = new Set(['TXN_HANGING', 'TXN_COORDINATOR_OVERDUE'])

function checkOrder(fs: readonly DoctorFinding[]): void {
  for (const f of fs) expect(f.rank, f.code).toBe(HARM_RANK[f.code] ?? 5)
  for (let i = 1; i < fs.length; i++) {
    const a = fs[i - 1]!
    const b = fs[i]!
    expect(a.rank <= b.rank, `${a.code} before ${b.code}`).toBe(true)
    if (a.rank === b.rank)
      expect(SEVERITY.indexOf(a.severity) <= SEVERITY.indexOf(b.severity), `${a.code} before ${b.code}`).toBe(true)
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-doctor-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

/** orders with the length field (bytes 8..11) of the batch kafka-dump-log places third in orders-11-0 overwritten by 0xFF */
function damagedOrders(): { logs: string; file: string; position: number } {
  const logs = path.join(tmp, 'orders-damaged')
  fs.cpSync(path.join(FIXTURES, 'orders', 'logs'), logs, { recursive: true })
  const text = fs.readFileSync(
    path.join(FIXTURES, 'orders', 'dump', 'orders-11-0', '00000000000000000000.log.shallow.txt'),
    'utf8',
  )
  const positions = [...text.matchAll(/ position: (\d+) /g)].map((m) => Number(m[1]))
  const position = positions[2]!
  const file = path.join(logs, 'orders-11-0', '00000000000000000000.log')
  const fd = fs.openSync(file, 'r+')
  fs.writeSync(fd, Buffer.alloc(4, 0xff), 0, 4, position + 8)
  fs.closeSync(fd)
  return { logs, file, position }
}

const UNCLEAN = path.join(FIXTURES_44, 'replicas-unclean')
const TIERED = path.join(FIXTURES_44, 'tiered')
const damaged = damagedOrders()

const RUNS: Array<[string, Run]> = [
  ['orders', { paths: [path.join(FIXTURES, 'orders', 'logs')] }],
  ['open-txn', { paths: [path.join(FIXTURES, 'open-txn', 'logs')] }],
  ['transactions 3.9.1', { paths: [path.join(FIXTURES, 'transactions', 'logs')] }],
  ['transactions 4.4.0', { paths: [path.join(FIXTURES_44, 'transactions', 'logs')] }],
  ['cleanup before', { paths: [path.join(FIXTURES_44, 'cleanup', 'before')] }],
  // the copies the old leaders held before they truncated, and the new leader (as test/commands/replicas.test.ts)
  [
    'replicas-unclean',
    { paths: ['before/broker-1', 'before/broker-2', 'broker-3'].map((d) => path.join(UNCLEAN, d)), logDirs: true },
  ],
  [
    'replicas-unclean, after truncation',
    { paths: ['broker-1', 'broker-2', 'broker-3'].map((d) => path.join(UNCLEAN, d)), logDirs: true },
  ],
  ['tiered', { paths: [path.join(TIERED, 'logs')], remote: path.join(TIERED, 'remote') }],
  ['orders, damaged', { paths: [damaged.logs] }],
]

const results = new Map<string, DoctorResult>()
const doctorOf = (name: string, run: Run): DoctorResult => {
  if (!results.has(name))
    results.set(name, doctor(run.paths, { now: NOW, ...(run.remote !== undefined ? { remote: run.remote } : {}) }))
  return results.get(name)!
}

describe.each(RUNS)('doctor on %s', (name, run) => {
  const u = union(run)
  const d = doctorOf(name, run)

  it('lists exactly the findings the other commands report, each once', () => {
    const mine = d.findings.filter((f) => !VERDICTS.has(f.code))
    expect(new Set(mine.map((f) => keyOf(f.finding, f.location.partition)))).toEqual(u.keys)
    const once = d.findings.map((f) => `${keyOf(f.finding, f.location.partition)} ${f.location.broker}`)
    expect(new Set(once).size).toBe(once.length)
    expect(
      new Set(
        d.findings
          .filter((f) => VERDICTS.has(f.code))
          .map((f) => `${f.code} ${f.location.partition}@${f.location.firstOffset}`),
      ),
    ).toEqual(u.hanging)
  })

  it('in the documented order: rank, then severity', () => {
    checkOrder(d.findings)
  })

  it("gives lso's abort commands as the fix of each transaction holding a partition's LSO that is hanging", () => {
    for (const p of u.lso.partitions) {
      if (p.blocking === null || !p.blocking.hanging) continue
      const f = d.findings.find(
        (x) =>
          x.code === 'TXN_HANGING' &&
          x.location.partition === p.label &&
          x.location.firstOffset === p.blocking!.firstOffset,
      )
      // and lso's forceTerminateTransaction of the whole transaction, with its note, where the id is known
      const force = u.lso.impact?.find(
        (i) => i.producerId === p.blocking!.producerId && i.producerEpoch === p.blocking!.producerEpoch,
      )?.forceTerminateAdvice
      expect(f?.remedy.fix, p.label).toEqual(force?.command == null ? p.commands : [...p.commands, force.command])
    }
  })

  it('counts per severity and per rank agree with the list', () => {
    for (const s of ['error', 'warning', 'info'] as const)
      expect(d.summary.counts[s]).toBe(d.findings.filter((f) => f.severity === s).length)
    expect(d.summary.ranks.reduce((n, r) => n + r.count, 0)).toBe(d.findings.length)
  })
})

describe('what comes first', () => {
  it('replicas-unclean: the acknowledged records the election lost', () => {
    const d = doctorOf('replicas-unclean', RUNS[5]![1])
    const first = d.findings[0]!
    expect(first.code).toBe('REPLICA_DIVERGED')
    expect(first.figures.recordsAcknowledged).toBeGreaterThan(0)
    expect(d.summary.checked).toContain('replicas')
  })

  it("open-txn: the hanging transaction, its abort command at describe-producers' CurrentTransactionStartOffset", () => {
    const e = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'open-txn', 'expected.json'), 'utf8')) as {
      producers: Array<{ topic: string; partition: number; stdout: string }>
    }
    const p = e.producers[0]!
    const row = p.stdout
      .split('\n')[1]!
      .split('\t')
      .map((s) => s.trim())
    const d = doctorOf('open-txn', RUNS[1]![1])
    const first = d.findings[0]!
    expect(first.code).toBe('TXN_HANGING')
    expect(first.location.partition).toBe(`${p.topic}-${p.partition}`)
    expect(first.remedy.fix[0]).toBe(
      `kafka-transactions.sh --bootstrap-server localhost:9092 abort --topic ${p.topic} --partition ${p.partition} --start-offset ${row[5]}`,
    )
  })

  it('the damaged copy: the damage at the batch kafka-dump-log places there, ranked as damage, with the dump that shows it', () => {
    const d = doctorOf('orders, damaged', RUNS[8]![1])
    const f = d.findings.find((x) => x.location.file === damaged.file && x.location.position === damaged.position)
    expect(f?.code).toBe('BAD_LENGTH')
    expect(f?.category).toBe('damage')
    expect(f?.remedy.look).toEqual([`tsdump dump --deep-iteration ${damaged.file}`])
  })
})

describe('tsdump doctor on the command line', () => {
  const fits = (l: string): boolean => l.length <= 80 || /^\s*(look: |fix: )?\S+( \\)?$/.test(l)

  it('a healthy broker: one short screen that says so and what was checked, exit 0', async () => {
    const r = await runCli(['doctor', '--now', NOW_ISO, path.join(FIXTURES, 'orders', 'logs')])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Healthy: nothing lost')
    for (const c of ['reconcile:', 'lso:', 'transactions:', 'cleanup:']) expect(r.stdout).toContain(`\n  ${c}`)
    expect(r.stdout.split('\n').length).toBeLessThan(25)
    for (const l of r.stdout.split('\n')) expect(fits(l), l).toBe(true)
  })

  it('problems: exit 1, 80 columns, --wide longer lines, --json with its schema', async () => {
    const paths = ['before/broker-1', 'before/broker-2', 'broker-3'].map((x) => path.join(UNCLEAN, x))
    const r = await runCli(['doctor', '--now', NOW_ISO, ...paths])
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n').find((l) => /^1\. /.test(l))).toBe('1. error REPLICA_DIVERGED (data lost or at risk)')
    for (const l of r.stdout.split('\n')) expect(fits(l), l).toBe(true)
    const w = await runCli(['doctor', '--wide', '--now', NOW_ISO, ...paths])
    expect(Math.max(...w.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(80)
    const j = await runCli(['doctor', '--json', '--now', NOW_ISO, ...paths])
    const o = JSON.parse(j.stdout) as {
      schemaVersion: number
      summary: Record<string, unknown>
      findings: Array<Record<string, unknown>>
    }
    expect(j.code).toBe(1)
    expect(o.schemaVersion).toBe(2)
    expect(Object.keys(o.summary)).toEqual(
      expect.arrayContaining([
        'brokers',
        'partitions',
        'segments',
        'bytes',
        'firstTimestamp',
        'newestTimestamp',
        'counts',
        'ranks',
        'checked',
      ]),
    )
    expect(Object.keys(o.findings[0]!)).toEqual([
      'code',
      'severity',
      'rank',
      'category',
      'message',
      'location',
      'figures',
      'remedy',
      'reportedBy',
    ])
    expect(Object.keys(o.findings[0]!.location as object)).toEqual([
      'broker',
      'partition',
      'file',
      'position',
      'firstOffset',
      'lastOffset',
    ])
    expect((o.summary.brokers as Array<{ name: string }>).map((b) => b.name)).toEqual(['1', '2', '3'])
  })

  it('exit 2 when nothing is readable; a path that cannot be read among readable ones is reported and the rest examined', async () => {
    const none = await runCli(['doctor', path.join(tmp, 'no-such-dir')])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('[UNREADABLE]')
    const some = await runCli([
      'doctor',
      '--now',
      NOW_ISO,
      path.join(tmp, 'no-such-dir'),
      path.join(FIXTURES, 'orders', 'logs'),
    ])
    expect(some.code).toBe(1)
    expect(some.stderr).toContain('[UNREADABLE]')
    expect(some.stdout).toContain('8 partitions')
  })
})

/** a log dir whose data never matches its coordinator's records (scripts/fuzz/builders.mjs): a finding per transaction */
function mismatched(name: string, bytes: number, records: number): string {
  const logs = path.join(tmp, name)
  for (const d of ['orders-0', '__transaction_state-0']) fs.mkdirSync(path.join(logs, d), { recursive: true })
  writeTransactions(path.join(logs, 'orders-0', '00000000000000000000.log'), bytes, false)
  transactionStateLog(path.join(logs, '__transaction_state-0', '00000000000000000000.log'), records, 40)
  return logs
}

describe('many findings of one code: grouped, bounded, still exactly the union', () => {
  const small = mismatched('many-small', 150 * 100, 1000)
  const large = mismatched('many-large', 150 * 1000, 10_000)

  it.each([
    ['small', small],
    ['large', large],
  ])('%s: each code with more than LISTED_UP_TO is one group with its count and first examples', (_name, logs) => {
    const d = doctorOf(logs, { paths: [logs] })
    const u = union({ paths: [logs] })
    const listed = d.findings.map((f) => keyOf(f.finding, f.location.partition))
    expect(d.groups.length).toBeGreaterThan(0)
    for (const g of d.groups) {
      // the union's findings of that code: the group counts them all, and its examples are the first in the file
      const theirs = [...u.keys].filter((k) => k.startsWith(`${g.code} `))
      expect(g.count, g.code).toBe(theirs.length)
      expect(g.count).toBeGreaterThan(LISTED_UP_TO)
      expect(g.examples.length).toBe(GROUP_EXAMPLES)
      const at = (k: string): number => Number(/@(\d+)$/.exec(k)?.[1])
      expect(g.examples.map((e) => keyOf(e.finding, e.location.partition))).toEqual(
        theirs.sort((a, b) => at(a) - at(b)).slice(0, GROUP_EXAMPLES),
      )
      expect(g.remedy.look).toEqual([`tsdump transactions ${logs}`])
      expect(
        listed.some((k) => k.startsWith(`${g.code} `)),
        g.code,
      ).toBe(false)
    }
    // what is not grouped is listed, and the two together are the union
    const grouped = new Set(d.groups.map((g) => g.code))
    expect(new Set(listed)).toEqual(new Set([...u.keys].filter((k) => !grouped.has(k.split(' ')[0]!))))
    const total = d.findings.length + d.groups.reduce((n, g) => n + g.count, 0)
    expect(d.summary.counts.error + d.summary.counts.warning + d.summary.counts.info).toBe(total)
    expect(d.summary.ranks.reduce((n, r) => n + r.count, 0)).toBe(total)
    checkOrder(d.findings)
    checkOrder(d.groups.map((g) => g.examples[0]!))
  })

  it('the text and --json do not grow with the count: the same lines for ten times the findings', async () => {
    const text = async (logs: string): Promise<string[]> =>
      (await runCli(['doctor', '--now', NOW_ISO, logs])).stdout.split('\n')
    const [a, b] = [await text(small), await text(large)]
    expect(b.length).toBe(a.length)
    for (const l of b) expect(l.length <= 80 || /^\s*(- |look: )?\S+$/.test(l.trim()), l).toBe(true)
    const j = await runCli(['doctor', '--json', '--now', NOW_ISO, large])
    expect(j.code).toBe(1)
    const o = JSON.parse(j.stdout) as {
      schemaVersion: number
      summary: { grouping: unknown }
      groups: Array<Record<string, unknown>>
    }
    expect(o.schemaVersion).toBe(2)
    expect(o.summary.grouping).toEqual({ listedUpTo: LISTED_UP_TO, examples: GROUP_EXAMPLES })
    expect(Object.keys(o.groups[0]!)).toEqual([
      'code',
      'severity',
      'rank',
      'category',
      'broker',
      'count',
      'partitions',
      'examples',
      'remedy',
      'reportedBy',
    ])
  })
})

describe("README's doctor section", () => {
  it('shows what tsdump doctor prints on the open-txn fixture', async () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
    const m = /\$ tsdump doctor --now 2026-12-06T00:00:00Z fixtures\/broker\/open-txn\/logs\n([\s\S]*?)```/.exec(readme)
    expect(m).not.toBeNull()
    const r = await runCli(['doctor', '--now', NOW_ISO, 'fixtures/broker/open-txn/logs'], { cwd: REPO_ROOT })
    expect(r.stdout).toBe(m![1])
  })
})
