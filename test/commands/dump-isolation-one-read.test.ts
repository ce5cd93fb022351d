import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES_44 } from '../support/paths.js'
import { LogDir, LogWriter } from '../support/txn-segment-builder.js'
import { HELD_SEGMENTS_MEMORY } from '../../src/io/held-segments.js'

// `dump --isolation-level` reads each segment once: its partition scan holds the bytes it read (4 MiB in memory, the
// rest in a scratch file) and the dump reads them back (commands/dump/isolation.ts). Here the records it lists are
// checked against the consumer's rule written out in the test from what the test wrote (each transaction's outcome
// is known here, not read back): Kafka's Fetcher with isolation.level, from the log start (its records below it
// skipped), whole batches below the HW (read_uncommitted) or the LSO (read_committed: the first offset of the
// earliest open transaction), no control record, no record of an aborted transaction. The Java consumer's counts
// on the brokers' fixtures (interleaved, open-txn, log-start moved by DeleteRecords ...) are dump-isolation.test.ts's.

type Outcome = 'plain' | 'committed' | 'aborted' | 'open' | 'control'
interface Written {
  first: bigint
  last: bigint
  outcome: Outcome
}

/** interleaved committed, aborted and open transactions, plain batches between; `valueBytes` makes it large */
function partition(
  d: LogDir,
  topic: string,
  rounds: number,
  valueBytes: number | undefined,
): { written: Written[]; logStart: bigint } {
  const w = new LogWriter()
  const written: Written[] = []
  const put = (b: { baseOffset: bigint }, span: number, outcome: Outcome): void => {
    written.push({ first: b.baseOffset, last: b.baseOffset + BigInt(span - 1), outcome })
  }
  put(w.plain(2, -1n, valueBytes), 2, 'plain')
  for (let i = 0; i < rounds; i++) {
    put(w.txn(1n, 0, 2, undefined, valueBytes), 2, 'committed')
    put(w.txn(2n, 0, 2, undefined, valueBytes), 2, 'aborted')
    put(w.plain(1, -1n, valueBytes), 1, 'plain')
    put(w.txn(1n, 0, 1, undefined, valueBytes), 1, 'committed')
    put(w.marker(2n, 0, 'ABORT'), 1, 'control')
    put(w.txn(2n, 0, 1, undefined, valueBytes), 1, 'committed')
    put(w.marker(1n, 0, 'COMMIT'), 1, 'control')
    put(w.marker(2n, 0, 'COMMIT'), 1, 'control')
  }
  put(w.plain(2, -1n, valueBytes), 2, 'plain')
  // producer 3's transaction never ends: the LSO stays at its first offset
  put(w.txn(3n, 0, 2, undefined, valueBytes), 2, 'open')
  put(w.txn(1n, 0, 1, undefined, valueBytes), 1, 'committed')
  put(w.marker(1n, 0, 'COMMIT'), 1, 'control')
  put(w.plain(1, -1n, valueBytes), 1, 'plain')
  // two segments, the second from the middle batch on
  const cut = w.batches[Math.floor(w.batches.length / 2)]!.baseOffset
  d.segment(
    topic,
    0,
    0n,
    w.batches.filter((b) => b.baseOffset < cut),
  )
  d.segment(
    topic,
    0,
    cut,
    w.batches.filter((b) => b.baseOffset >= cut),
  )
  d.highWatermark(topic, 0, w.next)
  // DeleteRecords moved the log start into the first transactional batch (offsets 2..3)
  const logStart = 3n
  fs.writeFileSync(path.join(d.root, 'log-start-offset-checkpoint'), `0\n1\n${topic} 0 ${logStart}\n`)
  return { written, logStart }
}

/** the consumer's records of each level, from what was written */
function consumer(written: Written[], logStart: bigint): { committed: bigint[]; uncommitted: bigint[] } {
  const lso = written.find((b) => b.outcome === 'open')!.first
  const committed: bigint[] = []
  const uncommitted: bigint[] = []
  for (const b of written) {
    if (b.outcome === 'control') continue
    for (let o = b.first; o <= b.last; o++) {
      if (o < logStart) continue
      uncommitted.push(o)
      if (b.last < lso && b.outcome !== 'aborted') committed.push(o)
    }
  }
  return { committed, uncommitted }
}

async function listed(dir: string, level: string): Promise<bigint[]> {
  const r = await runCli(['dump', '--isolation-level', level, '--deep-iteration', '--json', dir])
  expect(r.code, r.stderr).toBe(0)
  return r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{"type":"record"'))
    .map((l) => BigInt((JSON.parse(l) as { offset: number }).offset))
}

describe('dump --isolation-level in one read: the consumer rule', () => {
  const d = new LogDir()
  afterAll(() => d.remove())
  for (const [label, rounds, valueBytes] of [
    ['a small partition (held in memory)', 3, undefined],
    ['a 9 MB partition (held past 4 MiB in a scratch file)', 300, 5000],
  ] as const) {
    it(`${label}: interleaved committed, aborted and open transactions, a log start moved`, async () => {
      const topic = `iso${rounds}`
      const { written, logStart } = partition(d, topic, rounds, valueBytes)
      const dir = path.join(d.root, `${topic}-0`)
      if (valueBytes !== undefined) {
        const size = fs
          .readdirSync(dir)
          .filter((n) => n.endsWith('.log'))
          .reduce((s, n) => s + fs.statSync(path.join(dir, n)).size, 0)
        expect(size).toBeGreaterThan(HELD_SEGMENTS_MEMORY)
      }
      const want = consumer(written, logStart)
      expect(want.committed.length).toBeGreaterThan(0)
      expect(want.committed.length).toBeLessThan(want.uncommitted.length)
      expect(await listed(dir, 'read_committed')).toEqual(want.committed)
      expect(await listed(dir, 'read_uncommitted')).toEqual(want.uncommitted)
    })
  }

  it('the log-start fixture (DeleteRecords on a 4.4.0 broker): the Java consumer counts of its expected.json', async (ctx) => {
    const root = path.join(FIXTURES_44, 'log-start')
    if (!fs.existsSync(path.join(root, 'expected.json'))) ctx.skip(`${root} is absent`)
    const expected = (
      JSON.parse(fs.readFileSync(path.join(root, 'expected.json'), 'utf8')) as {
        partitions: Array<{
          topic: string
          partition: number
          readCommittedRecords: number
          readUncommittedRecords: number
        }>
      }
    ).partitions
    expect(expected.length).toBeGreaterThan(0)
    for (const p of expected) {
      const dir = path.join(root, 'logs', `${p.topic}-${p.partition}`)
      const got = [(await listed(dir, 'read_committed')).length, (await listed(dir, 'read_uncommitted')).length]
      expect(got, `${p.topic}-${p.partition}`).toEqual([p.readCommittedRecords, p.readUncommittedRecords])
    }
  })
})

describe('dump --isolation-level: segments of two partitions named in turn', () => {
  const d = new LogDir()
  afterAll(() => d.remove())

  it('each segment gets its partition’s answer when its partition comes back (the gate is made again)', async () => {
    const a = partition(d, 'turnA', 3, undefined)
    const b = partition(d, 'turnB', 3, undefined)
    // each call wrote the checkpoint with its own partition alone: both moved log starts
    fs.writeFileSync(
      path.join(d.root, 'log-start-offset-checkpoint'),
      `0\n2\nturnA 0 ${a.logStart}\nturnB 0 ${b.logStart}\n`,
    )
    const segs = (topic: string): string[] => {
      const dir = path.join(d.root, `${topic}-0`)
      return fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.log'))
        .sort()
        .map((n) => path.join(dir, n))
    }
    const [a0, a1] = segs('turnA')
    const [b0, b1] = segs('turnB')
    expect(a1).toBeDefined()
    expect(b1).toBeDefined()
    const cut = BigInt(path.basename(a1!, '.log'))
    expect(BigInt(path.basename(b1!, '.log'))).toBe(cut)
    for (const level of ['read_committed', 'read_uncommitted'] as const) {
      const wantA = consumer(a.written, a.logStart)[level === 'read_committed' ? 'committed' : 'uncommitted']
      const wantB = consumer(b.written, b.logStart)[level === 'read_committed' ? 'committed' : 'uncommitted']
      const r = await runCli(['dump', '--isolation-level', level, '--deep-iteration', '--json', a0!, b0!, a1!, b1!])
      expect(r.code, r.stderr).toBe(0)
      const got: bigint[] = []
      for (const l of r.stdout.split('\n')) {
        if (l.startsWith('{"type":"record"')) got.push(BigInt((JSON.parse(l) as { offset: number }).offset))
      }
      // in the order named: A's first segment, B's, then A's second (its partition scanned again), B's
      const first = (o: bigint): boolean => o < cut
      const want = [
        ...wantA.filter(first),
        ...wantB.filter(first),
        ...wantA.filter((o) => !first(o)),
        ...wantB.filter((o) => !first(o)),
      ]
      expect(got).toEqual(want)
      expect(got.length).toBeGreaterThan(wantA.length)
    }
  })
})
