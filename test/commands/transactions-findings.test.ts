// The consistency findings of `tsdump transactions`, on copies of the orders fixture (3.9.1) damaged the way a
// broker can leave them: a listed partition whose marker is missing (hanging), a coordinator stopped after
// PrepareAbort, markers of one transaction that disagree. Where each damage is made comes from Kafka's
// kafka-dump-log text stored beside the fixture (batch positions), never from tsdump's own output. The rules
// the fixtures cannot show (data in a partition never listed, a coordinator that contradicts its markers,
// an ambiguous TV1 join) are checked on the analysis with runs and coordinator records built by hand.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRequire } from 'node:module'
import { completeTransaction } from '../../src/analysis/transaction-join/consistency.js'
import { joinRuns } from '../../src/analysis/transaction-join/join.js'
import type { CoordinatorState, Episode, PartitionRun } from '../../src/analysis/transaction-join/types.js'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

const ORDERS = path.join(FIXTURES, 'orders')
/** an independent CRC-32C (the crc-32 package) to re-seal a marker changed on purpose */
const crc32c = createRequire(import.meta.url)('crc-32/crc32c') as { buf(d: Uint8Array, s?: number): number }
const SEG = '00000000000000000000.log'
/** positions of the batches of a partition, from kafka-dump-log's text: baseOffset -> position */
function positions(dir: string): Map<number, number> {
  const t = fs.readFileSync(path.join(ORDERS, 'dump', dir, `${SEG}.shallow.txt`), 'utf8')
  return new Map([...t.matchAll(/^baseOffset: (\d+) .* position: (\d+) /gm)].map((m) => [Number(m[1]), Number(m[2])]))
}

let tmp = ''
afterEach(() => {
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true })
  tmp = ''
})
function copy(): string {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-txf-'))
  fs.cpSync(path.join(ORDERS, 'logs'), tmp, { recursive: true })
  return tmp
}
const truncate = (logs: string, dir: string, at: number): void => {
  fs.truncateSync(path.join(logs, dir, SEG), at)
}

interface Tx {
  producerEpoch: number
  outcome: string
  partitions: Array<{ topic: string; partition: number; marker: unknown }>
  findings: Array<{ code: string; file?: string; position?: number; message: string }>
}
const run = async (logs: string) => {
  const r = await runCli(['transactions', '--json', logs])
  return { code: r.code, j: JSON.parse(r.stdout) as { transactions: Tx[] } }
}

describe('consistency findings on damaged copies of the orders fixture', () => {
  it("a listed partition without its marker: TXN_PARTITION_NO_MARKER at the coordinator's PrepareCommit, and the run stays open", async () => {
    const logs = copy()
    truncate(logs, 'orders-11-2', positions('orders-11-2').get(2)!) // the COMMIT at offset 2
    const { code, j } = await run(logs)
    expect(code).toBe(1)
    const first = j.transactions.find((t) => t.producerEpoch === 0 && t.outcome === 'committed')!
    const f = first.findings.filter((x) => x.code === 'TXN_PARTITION_NO_MARKER')
    expect(f).toHaveLength(1)
    expect(f[0]!.message).toContain('orders-11-2')
    expect(f[0]!.file).toBe(path.join(logs, '__transaction_state-2', SEG))
    // offset 3, PrepareCommit: its record, after the batch's 61-byte header
    expect(f[0]!.position).toBe(positions('__transaction_state-2').get(3)! + 61)
    const open = j.transactions.find((t) => t.outcome === 'open')!
    expect(open.partitions.map((p) => `${p.topic}-${p.partition}`)).toEqual(['orders-11-2'])
  })

  it('a coordinator stopped after PrepareAbort with a marker missing: TXN_PREPARE_STUCK', async () => {
    const logs = copy()
    truncate(logs, '__transaction_state-2', positions('__transaction_state-2').get(10)!) // drop CompleteAbort
    truncate(logs, 'orders-11-0', positions('orders-11-0').get(15)!) // and orders-11-0's ABORT
    const { code, j } = await run(logs)
    expect(code).toBe(1)
    const second = j.transactions.find((t) => t.producerEpoch === 1 && t.outcome === 'aborted')!
    const f = second.findings.filter((x) => x.code === 'TXN_PREPARE_STUCK')
    expect(f).toHaveLength(1)
    expect(f[0]!.message).toMatch(/PrepareAbort .*orders-11-0 has no marker/)
    expect(f[0]!.position).toBe(positions('__transaction_state-2').get(9)! + 61)
  })

  it('markers of one transaction that disagree: TXN_MIXED_OUTCOME, outcome unknown', async () => {
    const logs = copy()
    const file = path.join(logs, 'orders-11-2', SEG)
    const buf = fs.readFileSync(file)
    // the control record's key (version int16, type int16) follows the 61-byte batch header and five one-byte
    // varints/fields (length, attributes, timestampDelta, offsetDelta, keyLength): type 1 COMMIT -> 0 ABORT
    const at = positions('orders-11-2').get(2)! + 61 + 5 + 3
    expect(buf[at]).toBe(1)
    // the batch's CRC-32C (attributes to the end, at position + 17) rewritten: a marker whose CRC fails is damage,
    // not a marker (test/commands/damage-agreement.test.ts); this one is a valid ABORT that contradicts the COMMITs
    const p = positions('orders-11-2').get(2)!
    const end = p + 12 + buf.readInt32BE(p + 8)
    const crcOf = (): number => crc32c.buf(buf.subarray(p + 21, end), 0) >>> 0
    expect(crcOf()).toBe(buf.readUInt32BE(p + 17))
    buf[at] = 0
    buf.writeUInt32BE(crcOf(), p + 17)
    fs.writeFileSync(file, buf)
    const { code, j } = await run(logs)
    expect(code).toBe(1)
    const first = j.transactions.find((t) => t.producerEpoch === 0)!
    expect(first.outcome).toBe('unknown')
    expect(first.findings.map((x) => x.code)).toContain('TXN_MIXED_OUTCOME')
  })
})

const state = (s: string, ts: number, partitions: string[], epoch = 0): CoordinatorState => ({
  state: s,
  producerId: 7n,
  producerEpoch: epoch,
  timestamp: BigInt(ts),
  partitions,
  transactionTimeoutMs: 60000,
  clientTransactionVersion: 0,
  file: 'ts.log',
  position: ts,
  offset: BigInt(ts),
})
const episode = (states: CoordinatorState[]): Episode => ({
  transactionalId: 'app',
  states,
  producerId: 7n,
  endEpoch: states.at(-1)!.producerEpoch,
  partitions: new Set(states.flatMap((s) => s.partitions)),
  prepare: states.find((s) => s.state.startsWith('Prepare')) ?? null,
  complete: states.find((s) => s.state.startsWith('Complete')) ?? null,
})
const runOf = (
  p: string,
  first: number,
  markerTs: number | null,
  type: 'COMMIT' | 'ABORT' = 'COMMIT',
  dataTs = markerTs === null ? 0 : markerTs - 10,
): PartitionRun => ({
  topic: p.replace(/-\d+$/, ''),
  partition: Number(/\d+$/.exec(p)![0]),
  producerId: 7n,
  producerEpoch: 0,
  firstOffset: BigInt(first),
  lastOffset: BigInt(first),
  records: 1,
  firstTimestamp: BigInt(dataTs),
  lastTimestamp: BigInt(dataTs),
  marker:
    markerTs === null
      ? null
      : {
          offset: BigInt(first + 1),
          type,
          coordinatorEpoch: 0,
          epoch: 0,
          timestamp: BigInt(markerTs),
          file: `${p}.log`,
          position: first,
        },
  seeded: false,
  file: `${p}.log`,
  position: 0,
})
const complete = (runs: PartitionRun[], eps: Episode[]) => {
  const ts = joinRuns(runs, eps)
  for (const t of ts)
    completeTransaction(t, { scanned: new Set(['a-0', 'a-1', 'b-0']), idByProducer: new Map(), commits: new Map() })
  return ts.sort((x, y) => Number((x.runs[0]?.firstOffset ?? 0n) - (y.runs[0]?.firstOffset ?? 0n)))
}

describe('the TV1 join and its findings on runs built by hand', () => {
  it('two transactions of one producer epoch in different partitions are two, each with its coordinator episode', () => {
    const ts = complete(
      [runOf('a-0', 0, 110), runOf('a-1', 5, 210)],
      [
        episode([
          state('Ongoing', 100, ['a-0']),
          state('PrepareCommit', 105, ['a-0']),
          state('CompleteCommit', 115, []),
        ]),
        episode([
          state('Ongoing', 200, ['a-1']),
          state('PrepareCommit', 205, ['a-1']),
          state('CompleteCommit', 215, []),
        ]),
      ],
    )
    expect(
      ts.map((t) => [t.runs.map((r) => `${r.topic}-${r.partition}`), t.joinedBy, t.outcome, t.findings.length]),
    ).toEqual([
      [['a-0'], 'coordinator', 'committed', 0],
      [['a-1'], 'coordinator', 'committed', 0],
    ])
  })

  it('data in a partition the coordinator never listed: TXN_UNLISTED_PARTITION at the run', () => {
    const ts = complete(
      [runOf('a-0', 0, 110), runOf('b-0', 3, 111)],
      [
        episode([
          state('Ongoing', 100, ['a-0']),
          state('PrepareCommit', 105, ['a-0']),
          state('CompleteCommit', 115, []),
        ]),
      ],
    )
    const f = ts.flatMap((t) => t.findings).filter((x) => x.code === 'TXN_UNLISTED_PARTITION')
    expect(f.map((x) => [x.file, x.message.includes('b-0')])).toEqual([['b-0.log', true]])
  })

  it('a coordinator that committed while the markers abort: TXN_OUTCOME_CONTRADICTS', () => {
    const ts = complete(
      [runOf('a-0', 0, 110, 'ABORT')],
      [
        episode([
          state('Ongoing', 100, ['a-0']),
          state('PrepareCommit', 105, ['a-0']),
          state('CompleteCommit', 115, []),
        ]),
      ],
    )
    expect(ts[0]!.findings.map((x) => x.code)).toEqual(['TXN_OUTCOME_CONTRADICTS'])
  })

  it('without coordinator records, markers far apart with nothing else to tell: TXN_JOIN_AMBIGUOUS, never joined silently', () => {
    // the second run's data precedes the first marker (so it may belong to it) but its marker is 5 s later
    const ts = complete([runOf('a-0', 0, 1000, 'COMMIT', 900), runOf('a-1', 0, 6000, 'COMMIT', 950)], [])
    expect(ts).toHaveLength(2)
    expect(ts.flatMap((t) => t.findings.map((f) => f.code))).toEqual(['TXN_JOIN_AMBIGUOUS'])
  })

  it('without coordinator records, data after the markers is the next transaction', () => {
    const ts = complete(
      [
        runOf('a-0', 0, 1000, 'COMMIT', 900),
        runOf('a-1', 0, 1005, 'COMMIT', 950),
        runOf('a-0', 2, 1500, 'ABORT', 1200),
      ],
      [],
    )
    expect(ts.map((t) => [t.runs.length, t.outcome, t.joinedBy, t.findings.length])).toEqual([
      [2, 'committed', 'marker-timestamps', 0],
      [1, 'aborted', 'marker-timestamps', 0],
    ])
  })
})

describe('bad input', () => {
  it('an offset commit that does not decode is a finding with its position; the transaction is still listed', async () => {
    const logs = copy()
    const file = path.join(logs, '__consumer_offsets-1', SEG)
    const buf = fs.readFileSync(file)
    // the first transactional commit's key (OffsetCommitKey v1: group, topic, partition): its group's int16 length 4 -> 255
    const key = Buffer.concat([
      Buffer.from([0, 1, 0, 4]),
      Buffer.from('txg1'),
      Buffer.from([0, 9]),
      Buffer.from('orders-10'),
    ])
    const at = buf.indexOf(key, positions('__consumer_offsets-1').get(2)!)
    expect(at).toBeGreaterThan(0)
    buf[at + 3] = 255
    fs.writeFileSync(file, buf)
    const r = await runCli(['transactions', '--json', logs])
    const j = JSON.parse(r.stdout) as {
      transactions: Array<{ producerEpoch: number; offsetCommits: unknown[] }>
      findings: Array<{ code: string; file: string; position: number }>
    }
    expect(r.code).toBe(1)
    const f = j.findings.filter((x) => x.code === 'BAD_INTERNAL_RECORD')
    expect(f.map((x) => x.file)).toEqual([file])
    expect(f[0]!.position).toBeGreaterThan(positions('__consumer_offsets-1').get(2)!)
    expect(f[0]!.position).toBeLessThan(at)
    expect(j.transactions.map((t) => [t.producerEpoch, t.offsetCommits.length])).toEqual([
      [0, 2],
      [1, 3],
    ])
  })

  it('usage: offsets of one partition are refused, an unreadable path exits 2 naming it', async () => {
    const a = await runCli(['transactions', '--start-offset', '3', path.join(ORDERS, 'logs')])
    expect(a.code).toBe(2)
    expect(a.stderr).toContain('--start-offset / --end-offset are offsets of one partition')
    const b = await runCli(['transactions', path.join(ORDERS, 'no-such-dir')])
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/no-such-dir: .*\[UNREADABLE\]/)
  })

  it("--producer-id keeps that producer's transactions", async () => {
    const none = JSON.parse(
      (await runCli(['transactions', '--json', '--producer-id', '2', path.join(ORDERS, 'logs')])).stdout,
    ) as { transactions: unknown[] }
    expect(none.transactions).toEqual([])
    const one = JSON.parse(
      (await runCli(['transactions', '--json', '--producer-id', '1', path.join(ORDERS, 'logs')])).stdout,
    ) as { transactions: unknown[] }
    expect(one.transactions).toHaveLength(2)
  })
})

describe('several log directories', () => {
  const twoBrokers = (): { b1: string; b2: string } => {
    const root = copy()
    const b1 = path.join(root, 'broker-1')
    const b2 = path.join(root, 'broker-2')
    fs.mkdirSync(b1)
    fs.mkdirSync(b2)
    for (const n of fs.readdirSync(root))
      if (!n.startsWith('broker-')) fs.renameSync(path.join(root, n), path.join(b1, n))
    // broker 2: a follower's copy of orders-11-0 that had not yet fetched the second transaction's ABORT
    fs.cpSync(path.join(b1, 'orders-11-0'), path.join(b2, 'orders-11-0'), { recursive: true })
    truncate(b2, 'orders-11-0', positions('orders-11-0').get(15)!)
    return { b1, b2 }
  }

  it('a partition in two log directories is read once, from the copy with the higher log end, and says so', async () => {
    const { b1, b2 } = twoBrokers()
    const one = JSON.parse((await runCli(['transactions', '--json', b1])).stdout) as { transactions: unknown[] }
    const r = await runCli(['transactions', '--json', b1, b2])
    const both = JSON.parse(r.stdout) as { transactions: unknown[]; findings: Array<{ code: string; message: string }> }
    expect(r.code).toBe(0)
    expect(both.transactions).toEqual(one.transactions)
    const f = both.findings.filter((x) => x.code === 'PARTITION_COPY_CHOSEN')
    expect(f).toHaveLength(1)
    expect(f[0]!.message).toContain(
      `read from ${path.join(b1, 'orders-11-0')} (leader epoch 0, log end 16); not from ${path.join(b2, 'orders-11-0')} (leader epoch 0, log end 15)`,
    )
  })

  it('copies that end different transactions: PARTITION_COPIES_DIFFER', async () => {
    const { b1, b2 } = twoBrokers()
    const file = path.join(b2, 'orders-11-0', SEG)
    const buf = fs.readFileSync(file)
    const at = positions('orders-11-0').get(6)! + 61 + 5 + 3 // the COMMIT at offset 6 becomes an ABORT (see above)
    expect(buf[at]).toBe(1)
    buf[at] = 0
    fs.writeFileSync(file, buf)
    const r = await runCli(['transactions', '--json', b1, b2])
    const j = JSON.parse(r.stdout) as {
      findings: Array<{ code: string; file?: string; partition?: string; firstOffset?: number; lastOffset?: number }>
    }
    expect(r.code).toBe(1)
    expect(j.findings.filter((x) => x.code === 'PARTITION_COPIES_DIFFER').map((x) => x.file)).toEqual([file])
    // located by the transaction that differs: its marker is the one at offset 6
    const d = j.findings.find((x) => x.code === 'PARTITION_COPIES_DIFFER')!
    expect({ partition: d.partition, lastOffset: d.lastOffset }).toEqual({ partition: 'orders-11-0', lastOffset: 6 })
    expect(d.firstOffset).toBeLessThan(6)
  })
})
