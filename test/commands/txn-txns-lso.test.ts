import { afterEach, describe, expect, it } from 'vitest'
import { runLso } from '../../src/commands/lso.js'
import { runTxns } from '../../src/commands/txns.js'
import { buildOrders11, LogDir, LogWriter, runCommand } from '../support/txn-segment-builder.js'
import { linesOver, shellJoined } from '../support/width.js'

const dirs: LogDir[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove()
})
function logDir(): LogDir {
  const d = new LogDir()
  dirs.push(d)
  return d
}

describe('txns', () => {
  it('tells partition 0 of orders-11 as the chapter does', async () => {
    const d = logDir()
    buildOrders11(d)
    const r = await runCommand(runTxns, { paths: [d.partitionPath('orders-11', 0)], wide: true })
    expect(r.code).toBe(0)
    const lines = r.out.split('\n').map((l) => l.replace(/\s+/g, ' ').trim())
    expect(lines).toContain('OFFSETS PRODUCER KIND RECORDS OUTCOME MARKER COORDINATOR_EPOCH FIRST_TIMESTAMP NOTES')
    expect(lines).toContain('0..5 pid 4001 epoch 0 transactional 6 committed COMMIT at 6 0 2023-11-14T22:13:20.000Z')
    expect(
      lines.some((l) =>
        /^7\.\.14 pid 4001 epoch 1 transactional 8 aborted ABORT at 15 0 2023-11-14T22:\d\d:\d\d\.\d{3}Z$/.test(l),
      ),
    ).toBe(true)
    expect(r.out).toContain('lane [C|A|]')
    const narrow = (await runCommand(runTxns, { paths: [d.partitionPath('orders-11', 0)] })).out
      .split('\n')
      .map((l) => l.replace(/\s+/g, ' ').trim())
    expect(narrow).toContain('0..5 4001/0 txn 6 committed 6 0 2023-11-14T22:13:20Z')
  })

  it('--json lists runs with outcome and marker, named as every command names a transaction', async () => {
    const d = logDir()
    buildOrders11(d)
    const r = await runCommand(runTxns, {
      paths: [d.partitionPath('orders-11', 0), d.partitionPath('orders-11', 1)],
      format: 'json',
    })
    const j = JSON.parse(r.out) as { partitions: Array<{ runs: Array<Record<string, unknown>>; lane: string }> }
    expect(
      j.partitions[0]!.runs.map((x) => [x.kind, x.firstOffset, x.lastDataOffset, x.outcome, x.marker, x.producerEpoch]),
    ).toEqual([
      ['transaction', 0, 5, 'committed', { offset: 6, type: 'COMMIT', producerEpoch: 0, coordinatorEpoch: 0 }, 0],
      ['transaction', 7, 14, 'aborted', { offset: 15, type: 'ABORT', producerEpoch: 1, coordinatorEpoch: 0 }, 1],
    ])
    expect(j.partitions[0]!.lane).toBe('C|A|')
    expect(j.partitions[1]!.runs).toMatchObject([
      { kind: 'empty-transaction', outcome: 'aborted', lastDataOffset: null, marker: { offset: 0, type: 'ABORT' } },
    ])
  })

  it('shows plain runs, open transactions, interleaving and other control batches', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.plain(2)
    w.txn(1n, 0, 2)
    w.txn(2n, 0, 1)
    w.txn(1n, 0, 1)
    w.marker(1n, 0, 'COMMIT')
    w.leaderChange()
    d.segment('mix', 0, 0n, w.batches)
    const r = await runCommand(runTxns, { paths: [d.partitionPath('mix', 0)], wide: true })
    expect(r.out).toMatch(/0\.\.1\s+pid -1\s+plain\s+2\s.*1 batch/)
    expect(r.out).toMatch(/2\.\.5\s+pid 1 epoch 0\s+transactional\s+3\s+committed\s+COMMIT at 6.*interleaved/)
    expect(r.out).toMatch(/4\s+pid 2 epoch 0\s+transactional\s+1\s+OPEN/)
    expect(r.out).toMatch(/7\s+pid -1\s+control LEADER_CHANGE/)
    expect(r.out).toContain('lane [.COC|+]')
  })
})

describe('lso', () => {
  function hanging(d: LogDir): string {
    const w = new LogWriter(0n, 1_700_000_000_000n)
    w.plain(1)
    w.txn(77n, 4, 3, 1_700_000_000_000n) // opened and left
    w.plain(5)
    w.time = 1_700_000_000_000n + 20n * 60_000n // 20 minutes later
    w.plain(1)
    d.segment('orders', 3, 0n, w.batches)
    d.snapshot('orders', 3, 0n, [])
    return d.partitionPath('orders', 3)
  }

  it('prints the blocking transaction, both abort forms, and exits 1 when older than the timeout', async () => {
    const d = logDir()
    const p = hanging(d)
    // ages are measured against now: here, the time of the partition's newest batch (20 min after the transaction)
    const r = await runCommand(runLso, {
      paths: [p],
      bootstrapServer: 'kafka:9092',
      now: 1_700_000_000_000 + 20 * 60_000,
    })
    expect(r.code).toBe(1)
    expect(r.out).toContain('LSO 1 < HW 10')
    expect(r.out).toContain('producerId 77 producerEpoch 4')
    expect(r.out).toContain('9 records waiting')
    expect(r.out).toContain('HANGING')
    // within 80 columns: each command cut with shell continuations, one command once the shell joins its lines
    expect(linesOver(r.out, [])).toEqual([])
    expect(shellJoined(r.out)).toContain(
      'kafka-transactions.sh --bootstrap-server kafka:9092 abort --topic orders --partition 3 --start-offset 1',
    )
    expect(shellJoined(r.out)).toContain(
      'kafka-transactions.sh --bootstrap-server kafka:9092 abort --topic orders --partition 3 --producer-id 77 --producer-epoch 4 --coordinator-epoch 0',
    )
  })

  it('exits 0 when the open transaction is younger than --max-transaction-timeout', async () => {
    const d = logDir()
    const r = await runCommand(runLso, {
      paths: [hanging(d)],
      maxTransactionTimeoutMinutes: 30,
      format: 'json',
      now: 1_700_000_000_000 + 20 * 60_000,
    })
    expect(r.code).toBe(0)
    const j = JSON.parse(r.out) as { partitions: Array<{ blocking: Record<string, unknown> }>; hanging: boolean }
    expect(j.hanging).toBe(false)
    expect(j.partitions[0]!.blocking).toMatchObject({
      producerId: 77,
      producerEpoch: 4,
      firstOffset: 1,
      recordsWaiting: 9,
      ageMs: 20 * 60_000,
      hanging: false,
      state: 'open',
    })
  })

  it('takes the coordinator epoch from the last marker of the producer', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.txn(5n, 1, 1)
    w.marker(5n, 1, 'COMMIT', 9)
    w.txn(5n, 1, 2)
    d.segment('ce', 0, 0n, w.batches)
    const r = await runCommand(runLso, { paths: [d.partitionPath('ce', 0)], format: 'json' })
    const j = JSON.parse(r.out) as { partitions: Array<{ blocking: Record<string, unknown> }> }
    expect(j.partitions[0]!.blocking).toMatchObject({
      coordinatorEpoch: 9,
      coordinatorEpochSource: 'marker',
      firstOffset: 2,
    })
  })

  it('--transactional-id prints the coordinating __transaction_state partition', async () => {
    const d = logDir()
    buildOrders11(d)
    const r = await runCommand(runLso, { paths: [d.root], transactionalId: 'tx-rw-1', transactionStatePartitions: 50 })
    expect(r.code).toBe(0)
    // "tx-rw-1".hashCode() = -943186862; Utils.abs → 943186862 % 50 = 12
    expect(r.out).toContain('transactional id tx-rw-1 is coordinated by __transaction_state-12')
    expect(r.out).toContain('orders-11-0: LSO 16 = HW 16, nothing is blocked')
  })
})

describe('lso coordinator epoch', () => {
  it("a marker newer than the producer snapshot wins: the broker fences an abort below the producer's epoch", async () => {
    const d = logDir()
    const w = new LogWriter()
    w.txn(5n, 1, 1)
    w.marker(5n, 1, 'COMMIT', 0) // 0..1, in the snapshot at 2 with coordinator epoch 0
    w.txn(5n, 1, 1)
    w.marker(5n, 1, 'ABORT', 3) // a new coordinator (epoch 3) wrote this marker after the snapshot
    w.txn(5n, 1, 2)
    d.segment('ce', 1, 0n, w.batches)
    d.snapshot('ce', 1, 2n, [{ producerId: 5n, producerEpoch: 1, coordinatorEpoch: 0, lastOffset: 1n }])
    const r = await runCommand(runLso, { paths: [d.partitionPath('ce', 1)], format: 'json' })
    const j = JSON.parse(r.out) as { partitions: Array<{ blocking: Record<string, unknown> }> }
    expect(j.partitions[0]!.blocking).toMatchObject({
      coordinatorEpoch: 3,
      coordinatorEpochSource: 'marker',
      firstOffset: 4,
    })
  })
})
