// Issue #12 item 15 for reconcile and txns: counts of the records in a range, with the visibility the whole
// log gives them (a transaction that began before the range, markers after it), checked against the
// broker-written layout (fixtures/README.md), the Java consumer's counts in expected.json and
// kafka-transactions.sh describe; and the statement of what was counted, in text and --json.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { seekPosition } from '../../src/commands/dump/seek.js'
import { FileSource } from '../../src/io/file-source.js'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'
import { linesOver } from '../support/width.js'

const BROKER = path.join(REPO_ROOT, 'fixtures/broker')
const ORDERS0 = path.join(BROKER, 'orders/logs/orders-11-0')

interface Counts {
  readCommitted: number
  readUncommitted: number
  abortedRecords: number
  pendingRecords: number
}
async function reconcileJson(...args: string[]): Promise<{
  code: number
  json: { filter?: Record<string, unknown>; partitions: Array<Counts & { lastStableOffset: number }> }
}> {
  const r = await runCli(['reconcile', '--json', ...args])
  return { code: r.code, json: JSON.parse(r.stdout) }
}
const counts = (p: Counts): Counts => ({
  readCommitted: p.readCommitted,
  readUncommitted: p.readUncommitted,
  abortedRecords: p.abortedRecords,
  pendingRecords: p.pendingRecords,
})

describe('reconcile over a range', () => {
  // orders-11-0 as the broker wrote it: 0..5 committed (marker 6), 7..14 aborted (marker 15)
  const cases: Array<[string, string, string, Counts]> = [
    [
      'the aborted transaction',
      '7',
      '15',
      { readCommitted: 0, readUncommitted: 8, abortedRecords: 8, pendingRecords: 0 },
    ],
    [
      'a range cutting both transactions',
      '3',
      '10',
      { readCommitted: 3, readUncommitted: 7, abortedRecords: 4, pendingRecords: 0 },
    ],
    [
      'inside a transaction that began before the range: still aborted',
      '10',
      '12',
      { readCommitted: 0, readUncommitted: 3, abortedRecords: 3, pendingRecords: 0 },
    ],
    [
      'committed data whose marker lies after the range',
      '0',
      '2',
      { readCommitted: 3, readUncommitted: 3, abortedRecords: 0, pendingRecords: 0 },
    ],
  ]
  for (const [name, s, e, want] of cases) {
    it(`orders-11-0 ${s}..${e}: ${name}`, async () => {
      const r = await reconcileJson('--start-offset', s, '--end-offset', e, ORDERS0)
      expect(r.code).toBe(0)
      expect(counts(r.json.partitions[0]!)).toEqual(want)
    })
  }

  it('disjoint ranges add up to the whole, which is what the Java consumer counted (interleaved: 144 / 199)', async () => {
    const mixed = path.join(BROKER, 'interleaved/logs/mixed-0')
    const exp = (
      JSON.parse(fs.readFileSync(path.join(BROKER, 'interleaved/expected.json'), 'utf8')) as {
        partitions: Array<{ readCommittedRecords: number; readUncommittedRecords: number }>
      }
    ).partitions[0]!
    const parts = [
      ['0', '99'],
      ['100', '150'],
      ['151', '225'],
    ]
    let rc = 0
    let ru = 0
    for (const [s, e] of parts) {
      const p = (await reconcileJson('--start-offset', s!, '--end-offset', e!, mixed)).json.partitions[0]!
      rc += p.readCommitted
      ru += p.readUncommitted
    }
    expect([rc, ru]).toEqual([exp.readCommittedRecords, exp.readUncommittedRecords])
    // and per producer: the four producers' records are all the records
    let byProducer = 0
    for (const pid of ['3', '4', '5', '6'])
      byProducer += (await reconcileJson('--producer-id', pid, mixed)).json.partitions[0]!.readUncommitted
    expect(byProducer).toBe(exp.readUncommittedRecords)
  })

  it('a range behind an open transaction: read_committed gets none of it (LSO 3), all of it is pending', async () => {
    // stuck-0: 3..6 open (tx-stuck), then 7..20 (committed, aborted, idempotent, plain): 13 data records in 5..20
    const r = await reconcileJson(
      '--start-offset',
      '5',
      '--end-offset',
      '20',
      path.join(BROKER, 'open-txn/logs/stuck-0'),
    )
    expect(r.json.partitions[0]!.lastStableOffset).toBe(3)
    expect(counts(r.json.partitions[0]!)).toEqual({
      readCommitted: 0,
      readUncommitted: 13,
      abortedRecords: 0,
      pendingRecords: 13,
    })
  })

  it('says what it counted: text first line, and a "filter" object in --json', async () => {
    const t = await runCli(['reconcile', '--start-offset', '7', '--end-offset', '15', ORDERS0])
    expect(t.stdout.split('\n')[0]).toBe('counted in range only: offsets 7..15')
    expect(t.stdout).toContain('orders-11-0: batches 7..15 in range (2)')
    expect(linesOver(t.stdout, [ORDERS0])).toEqual([])
    const j = await reconcileJson('--transactional-id', 'tx-rw-1', '--from-time', '2000-01-01', ORDERS0)
    expect(j.json.filter).toMatchObject({
      description: 'from 2000-01-01T00:00:00.000Z, producer 1 (transactional id tx-rw-1)',
      producerIds: [1],
      transactionalId: 'tx-rw-1',
      fromTime: 946684800000,
      partitions: [{ partition: 'orders-11-0', firstOffset: 0, lastOffset: 15, batches: 4 }],
    })
    const none = await runCli(['reconcile', ORDERS0])
    expect(none.stdout).not.toContain('counted in range')
  })

  it('an unknown transactional id is a usage error (exit 2)', async () => {
    const r = await runCli(['reconcile', '--transactional-id', 'nobody', ORDERS0])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--transactional-id nobody: no __transaction_state record of this id/)
  })
})

describe('txns filtered', () => {
  const TXN = path.join(REPO_ROOT, 'fixtures/broker-4.4/txn')
  const exp = JSON.parse(fs.readFileSync(path.join(TXN, 'expected.json'), 'utf8')) as {
    transactions: Array<{ rows: Array<{ TransactionalId: string; ProducerId: string }> }>
  }
  const pidOf = (id: string): number =>
    Number(exp.transactions.flatMap((t) => t.rows).find((r) => r.TransactionalId === id)!.ProducerId)

  interface Run {
    kind: string
    firstOffset: number
    lastOffset?: number
    lastDataOffset?: number | null
    producerId: number
    marker?: { offset: number } | null
  }
  async function runs(...args: string[]): Promise<Run[]> {
    const r = await runCli(['txns', '--json', ...args])
    expect(r.code).toBe(0)
    return (JSON.parse(r.stdout) as { partitions: Array<{ runs?: Run[] }> }).partitions.flatMap((p) => p.runs ?? [])
  }

  it('--transactional-id tv2-b: only the transactions of the producer kafka-transactions.sh describe names', async () => {
    const all = await runs(path.join(TXN, 'logs/tv2-0'))
    const only = await runs('--transactional-id', 'tv2-b', path.join(TXN, 'logs/tv2-0'))
    expect(only.length).toBeGreaterThan(0)
    expect(only).toEqual(all.filter((r) => r.producerId === pidOf('tv2-b')))
    expect(all.length).toBeGreaterThan(only.length)
  })

  it('an offset range: the runs that overlap it, whole', async () => {
    const all = await runs(path.join(TXN, 'logs/tv2-0'))
    const some = await runs('--start-offset', '15', '--end-offset', '20', path.join(TXN, 'logs/tv2-0'))
    expect(some).toEqual(
      all.filter(
        (r) => r.firstOffset <= 20 && (r.marker?.offset ?? r.lastDataOffset ?? r.lastOffset ?? r.firstOffset) >= 15,
      ),
    )
    expect(some.map((r) => r.firstOffset)).toEqual([15, 18])
  })

  it("on __transaction_state: that id's state only", async () => {
    const r = await runCli([
      'txns',
      '--transactional-id',
      'tv2-open',
      ...fs
        .readdirSync(path.join(TXN, 'logs'))
        .filter((n) => n.startsWith('__transaction_state-'))
        .map((n) => path.join(TXN, 'logs', n)),
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('tv2-open ')
    expect(r.stdout).not.toContain('tv2-a ')
  })
})

describe('seekPosition: the .index entries kafka-dump-log prints', () => {
  // dump/mixed-0/00000000000000000023.index.shallow.txt: offset 27 -> 293, 30 -> 729, 38 -> 1115, 42 -> 1629
  const file = {
    path: path.join(BROKER, 'interleaved/logs/mixed-0/00000000000000000023.log'),
    name: '00000000000000000023.log',
    kind: 'log' as const,
    baseOffset: 23n,
  }
  const cases: Array<[bigint, number]> = [
    [23n, 0],
    [26n, 0],
    [27n, 293],
    [29n, 293],
    [38n, 1115],
    [41n, 1115],
    [45n, 1629],
  ]
  /** the seek's position, and the bytes its check read there (the dump starts in them) are the file's own */
  const expectSeek = (seek: { position: number; held?: Buffer }, position: number, log: string): void => {
    expect(seek.position).toBe(position)
    if (seek.held !== undefined)
      expect(seek.held.equals(fs.readFileSync(log).subarray(position, position + seek.held.length))).toBe(true)
  }
  for (const [offset, position] of cases) {
    it(`--start-offset ${offset} begins at ${position}`, () => {
      const src = new FileSource(file.path)
      try {
        expectSeek(seekPosition(file, src, { startOffset: offset }), position, file.path)
      } finally {
        src.close()
      }
    })
  }
  it('--from-time: the .timeindex entry below the time (timestamp 1795966594224 at offset 38 -> entry 30 -> 729)', () => {
    const src = new FileSource(file.path)
    try {
      expectSeek(seekPosition(file, src, { fromTime: 1795966594224 }), 729, file.path)
    } finally {
      src.close()
    }
  })
})
