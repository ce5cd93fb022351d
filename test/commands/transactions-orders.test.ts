// `tsdump transactions` on the course's orders fixture (3.9.1, transaction version 1): tx-rw-1 at epoch 0
// writes 6 records to orders-11-0 and 2 to orders-11-2 with group txg1's offsets and commits; at epoch 1
// it writes 8 records to orders-11-0 and aborts, orders-11-1 getting a marker with no data.
// Truth: Kafka's kafka-dump-log texts stored beside the fixture (--deep-iteration for the batches and markers,
// --offsets-decoder for the offset commits, --transaction-log-decoder for the coordinator's records) and
// expected.json (describeTransactions, the generator's notes of what each session read).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'
import { linesOver } from '../support/width.js'

const ORDERS = path.join(FIXTURES, 'orders')
const LOGS = path.join(ORDERS, 'logs')
const expected = JSON.parse(fs.readFileSync(path.join(ORDERS, 'expected.json'), 'utf8')) as {
  extra: { groupId: string; transactionalId: string }
  notes: string[]
  transactions: Array<{ rows: Array<Record<string, string>> }>
}
const dumpText = (dir: string, kind: string): string =>
  fs.readFileSync(path.join(ORDERS, 'dump', dir, `00000000000000000000.log.${kind}.txt`), 'utf8')

interface DumpRun {
  partition: string
  epoch: number
  firstOffset: number | null
  lastOffset: number | null
  records: number
  marker: { offset: number; type: string; producerEpoch: number; coordinatorEpoch: number }
}

/** kafka-dump-log --deep-iteration: producer 1's data batches up to each of its markers */
function dumpRuns(dir: string): DumpRun[] {
  const out: DumpRun[] = []
  let cur: Omit<DumpRun, 'marker'> | null = null
  let controlEpoch = -1
  for (const line of dumpText(dir, 'deep').split('\n')) {
    const b =
      /^baseOffset: (\d+) lastOffset: (\d+) count: (\d+) .*producerId: (-?\d+) producerEpoch: (-?\d+) .*isControl: (true|false)/.exec(
        line,
      )
    if (b !== null) {
      if (b[4] !== '1') continue
      if (b[6] === 'true') {
        controlEpoch = Number(b[5])
        continue
      }
      cur ??= { partition: dir, epoch: Number(b[5]), firstOffset: Number(b[1]), lastOffset: null, records: 0 }
      cur.lastOffset = Number(b[2])
      cur.records += Number(b[3])
      continue
    }
    const m = /offset: (\d+) .*endTxnMarker: (COMMIT|ABORT) coordinatorEpoch: (\d+)/.exec(line)
    if (m !== null) {
      out.push({
        ...(cur ?? { partition: dir, epoch: controlEpoch, firstOffset: null, lastOffset: null, records: 0 }),
        marker: { offset: Number(m[1]), type: m[2]!, producerEpoch: controlEpoch, coordinatorEpoch: Number(m[3]) },
      })
      cur = null
    }
  }
  return out
}

/** the notes' "session N read K inputs: (partition, offset) ..." as the next offset per input partition */
function sessionOffsets(note: string): Map<number, number> {
  const next = new Map<number, number>()
  for (const m of note.matchAll(/\((\d+), (\d+)\)/g))
    next.set(Number(m[1]), Math.max(next.get(Number(m[1])) ?? 0, Number(m[2]) + 1))
  return next
}

interface Tx {
  transactionalId: string | null
  producerId: number
  producerEpoch: number
  transactionVersion: string
  outcome: string
  joinedBy: string
  partitions: Array<{
    topic: string
    partition: number
    producerEpoch: number
    firstOffset: number
    lastDataOffset: number | null
    records: number
    outcome: string
    marker: { offset: number; type: string; producerEpoch: number; coordinatorEpoch: number } | null
  }>
  offsetCommits: Array<{
    group: string
    topic: string
    partition: number
    offset: number
    committedBefore: number | null
    committedAfter: number | null
  }>
  coordinator: Array<{ state: string; timestamp: number; partitions: string[] }>
  findings: unknown[]
}

describe('transactions on the orders fixture (3.9.1, TV1)', async () => {
  const r = await runCli(['transactions', '--json', LOGS])
  const j = JSON.parse(r.stdout) as {
    schemaVersion: number
    transactions: Tx[]
    transactionalIds: Array<Record<string, unknown>>
  }
  const runs = ['__consumer_offsets-1', 'orders-11-0', 'orders-11-1', 'orders-11-2'].flatMap(dumpRuns)

  it('lists tx-rw-1 twice, at epochs 0 and 1, joined by the coordinator, without findings', () => {
    expect(r.code).toBe(0)
    expect(j.schemaVersion).toBe(2)
    expect(
      j.transactions.map((t) => [
        t.transactionalId,
        t.producerId,
        t.producerEpoch,
        t.transactionVersion,
        t.joinedBy,
        t.findings.length,
      ]),
    ).toEqual([
      [expected.extra.transactionalId, 1, 0, 'TV1', 'coordinator', 0],
      [expected.extra.transactionalId, 1, 1, 'TV1', 'coordinator', 0],
    ])
  })

  it.each([0, 1])(
    'epoch %i: every partition it touched, with offsets, records and marker as kafka-dump-log prints them',
    (epoch) => {
      const t = j.transactions.find((x) => x.producerEpoch === epoch)!
      const want = runs
        .filter((x) => x.marker !== undefined && x.epoch === epoch)
        .map((x) => ({
          // a partition-level transaction as every command names it: a marker without data starts (firstOffset) at its marker
          topic: x.partition.replace(/-\d+$/, ''),
          partition: Number(/-(\d+)$/.exec(x.partition)![1]),
          producerEpoch: x.epoch,
          firstOffset: x.firstOffset ?? x.marker.offset,
          lastDataOffset: x.lastOffset,
          records: x.records,
          outcome: x.marker.type === 'COMMIT' ? 'committed' : 'aborted',
          marker: x.marker,
        }))
      expect(t.partitions).toEqual(want)
      expect(t.outcome).toBe(want[0]!.marker.type === 'COMMIT' ? 'committed' : 'aborted')
    },
  )

  it('the story of the course: 6 + 2 records committed, 8 aborted, orders-11-1 a marker without data', () => {
    const [first, second] = j.transactions
    expect(first!.outcome).toBe('committed')
    expect(first!.partitions.filter((p) => p.topic === 'orders-11').map((p) => [p.partition, p.records])).toEqual([
      [0, 6],
      [2, 2],
    ])
    expect(second!.outcome).toBe('aborted')
    expect(
      second!.partitions.filter((p) => p.topic === 'orders-11').map((p) => [p.partition, p.records, p.marker?.type]),
    ).toEqual([
      [0, 8, 'ABORT'],
      [1, 0, 'ABORT'],
    ])
  })

  it("carries group txg1's offsets: what each session read, as the offsets decoder prints the commits", () => {
    const commits = [
      ...dumpText('__consumer_offsets-1', 'offsets').matchAll(
        /key: \{"type":"1","data":\{"group":"([^"]+)","topic":"([^"]+)","partition":(\d+)\}\} payload: \{"version":"\d+","data":\{"offset":(\d+)/g,
      ),
    ].map((m) => ({ group: m[1]!, topic: m[2]!, partition: Number(m[3]), offset: Number(m[4]) }))
    expect(commits).toHaveLength(6)
    const got = j.transactions.map((t) =>
      t.offsetCommits.map((c) => ({ group: c.group, topic: c.topic, partition: c.partition, offset: c.offset })),
    )
    expect(got.flat()).toEqual(commits)
    for (const [i, note] of expected.notes.slice(0, 2).entries()) {
      const next = sessionOffsets(note)
      expect(got[i]!.every((c) => c.group === expected.extra.groupId && next.get(c.partition) === c.offset)).toBe(true)
      expect(got[i]!.map((c) => c.partition).sort()).toEqual([...next.keys()].sort())
    }
  })

  it("the group's committed offset before and after each: session 1's commit, then the abort leaves it there (input read again)", () => {
    const s1 = sessionOffsets(expected.notes[0]!)
    const [first, second] = j.transactions
    expect(first!.offsetCommits.map((c) => [c.partition, c.committedBefore, c.committedAfter])).toEqual(
      first!.offsetCommits.map((c) => [c.partition, null, s1.get(c.partition)]),
    )
    expect(second!.offsetCommits.map((c) => [c.partition, c.committedBefore, c.committedAfter])).toEqual(
      second!.offsetCommits.map((c) => [c.partition, s1.get(c.partition), s1.get(c.partition)]),
    )
  })

  it("has the coordinator's records of each transaction, as the transaction log decoder prints them", () => {
    const recs = [
      ...dumpText('__transaction_state-2', 'txnlog').matchAll(
        /producerEpoch:(\d+),state=(\w+),partitions=\[([^\]]*)\],txnLastUpdateTimestamp=(\d+)/g,
      ),
    ].map((m) => ({
      epoch: Number(m[1]),
      state: m[2]!,
      partitions: m[3] === '' ? [] : m[3]!.split(',').sort(),
      timestamp: Number(m[4]),
    }))
    const perTx = j.transactions.map((t) =>
      t.coordinator.map((c) => ({ state: c.state, partitions: c.partitions, timestamp: c.timestamp })),
    )
    // each transaction: its records from the first Ongoing to its Complete*
    const cut = (epoch: number) =>
      recs.filter((x) => x.epoch === epoch && x.state !== 'Empty').map(({ epoch: _e, ...rest }) => rest)
    expect(perTx).toEqual([cut(0), cut(1)])
    expect(perTx[0]!.map((c) => c.state)).toEqual(['Ongoing', 'Ongoing', 'PrepareCommit', 'CompleteCommit'])
  })

  it("the coordinator's newest state of tx-rw-1 is what describeTransactions said", () => {
    const d = expected.transactions[0]!.rows[0]!
    expect(j.transactionalIds).toEqual([
      {
        transactionalId: d.TransactionalId,
        producerId: Number(d.ProducerId),
        producerEpoch: Number(d.ProducerEpoch),
        state: d.TransactionState,
        partitions: [],
        transactionTimeoutMs: Number(d.TransactionTimeoutMs),
        lastUpdateTimestamp: expect.any(Number),
      },
    ])
  })

  it('text within 80 columns, telling the story', async () => {
    const t = await runCli(['transactions', LOGS])
    expect(t.code).toBe(0)
    expect(linesOver(t.stdout, [LOGS])).toEqual([])
    expect(t.stdout).toMatch(/tx-rw-1 +producer 1 epoch 0 +TV1 +committed/)
    expect(t.stdout).toMatch(/tx-rw-1 +producer 1 epoch 1 +TV1 +aborted/)
    expect(t.stdout).toContain('offsets of group txg1: orders-10-0 none -> 3, orders-10-1 none -> 3,')
    expect(t.stdout).toContain('offsets of group txg1: orders-10-0 3 -> 6 (aborted: group at 3),')
  })

  it('without __transaction_state the id is null and the text says where it looked; the runs are joined by their markers', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-tx-'))
    try {
      for (const p of ['orders-11-0', 'orders-11-1', 'orders-11-2'])
        fs.cpSync(path.join(LOGS, p), path.join(dir, p), { recursive: true })
      const js = JSON.parse((await runCli(['transactions', '--json', dir])).stdout) as { transactions: Tx[] }
      expect(
        js.transactions.map((t) => [
          t.transactionalId,
          t.producerEpoch,
          t.joinedBy,
          t.outcome,
          t.partitions.map((p) => `${p.topic}-${p.partition}:${p.records}`).join(' '),
        ]),
      ).toEqual([
        [null, 0, 'marker-timestamps', 'committed', 'orders-11-0:6 orders-11-2:2'],
        [null, 1, 'marker-timestamps', 'aborted', 'orders-11-0:8 orders-11-1:0'],
      ])
      const t = await runCli(['transactions', dir])
      expect(t.stdout.replaceAll('\n', ' ')).toContain(
        `no __transaction_state partition among the paths or in their log directories (${dir})`,
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('transactions on part of the orders fixture', () => {
  it('one partition: its runs, the coordinator found in its log directory, and the listed partitions not read', async () => {
    const r = await runCli(['transactions', '--json', path.join(LOGS, 'orders-11-0')])
    const j = JSON.parse(r.stdout) as { transactions: Array<Tx & { partitionsNotRead: string[] }> }
    // the coordinator's PrepareCommit/PrepareAbort partition lists, from the transaction log decoder's text, less orders-11-0
    const prepares = [
      ...dumpText('__transaction_state-2', 'txnlog').matchAll(/state=Prepare\w+,partitions=\[([^\]]*)\]/g),
    ].map((m) =>
      m[1]!
        .split(',')
        .sort()
        .filter((p) => p !== 'orders-11-0'),
    )
    expect(j.transactions.map((t) => t.partitionsNotRead)).toEqual(prepares)
    expect(j.transactions.map((t) => [t.transactionalId, t.outcome, t.partitions.map((p) => p.records)])).toEqual([
      ['tx-rw-1', 'committed', [6]],
      ['tx-rw-1', 'aborted', [8]],
    ])
  })
})

describe("README's transactions section", () => {
  it('shows what tsdump prints on the orders fixture', async () => {
    const readme = fs.readFileSync(path.join(FIXTURES, '..', '..', 'README.md'), 'utf8')
    const m = /\$ tsdump transactions fixtures\/broker\/orders\/logs\n([\s\S]*?)```/.exec(readme)
    expect(m).not.toBeNull()
    const r = await runCli(['transactions', 'fixtures/broker/orders/logs'], { cwd: path.join(FIXTURES, '..', '..') })
    expect(r.stdout).toBe(m![1])
  })
})
