// txns / lso on a __transaction_state partition keep one state per transactional id (two passes,
// scan/transaction-log-scan.ts), not every record (issue #14): the states must be those of every
// record taken whole (analysis/transactional-id-state.ts lastTransactionStates), the newest per id winning,
// a later record at the same offset too, tombstones included; and a batch larger than the read window,
// which the framer does not hold, is read record by record instead of being skipped.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { TransactionStateRecord } from '../../src/analysis/transactional-id-state.js'
import { lastTransactionStates } from '../../src/analysis/transactional-id-state.js'
import { scanTransactionLog } from '../../src/scan/transaction-log-scan.js'
import { TransactionStateReader } from '../../src/scan/transaction-state-read.js'
import { scanTransactionStatePartition } from '../../src/scan/transaction-state-partition.js'
import { discover } from '../../src/io/discover.js'
// the fuzz harness's own encoders (independent of src/: they write bytes by the spec)
import { transactionStateLog } from '../../scripts/fuzz/builders.mjs'
import { FileWriter, batch, record } from '../../scripts/fuzz/encode.mjs'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-txlog-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

function partition(name: string): string {
  const p = path.join(tmp, name, '__transaction_state-0')
  fs.mkdirSync(p, { recursive: true })
  return p
}

const key = (id: string): Buffer => {
  const b = Buffer.from(id)
  const h = Buffer.alloc(4)
  h.writeInt16BE(0, 0)
  h.writeInt16BE(b.length, 2)
  return Buffer.concat([h, b])
}
function value(pid: number, status: number): Buffer {
  // TransactionLogValue v0: producerId, producerEpoch, transactionTimeoutMs, transactionStatus, partitions (none), lastUpdate, start
  const b = Buffer.alloc(2 + 8 + 2 + 4 + 1 + 4 + 16)
  b.writeBigInt64BE(BigInt(pid), 2)
  b.writeInt32BE(60000, 12)
  b[16] = status
  b.writeInt32BE(0, 17)
  b.writeBigInt64BE(1700000000000n, 21)
  b.writeBigInt64BE(1700000000000n, 29)
  return b
}

/** the one-pass reader's states beside every record (`all`) */
function states(dir: string): { two: ReturnType<TransactionStateReader['finish']>; all: TransactionStateRecord[] } {
  const d = discover([dir]).partitions[0]!
  const all: TransactionStateRecord[] = []
  scanTransactionLog(d, (r) => {
    all.push(r)
  })
  const r = new TransactionStateReader(d)
  r.readAlone()
  return { two: r.finish(), all }
}

describe('__transaction_state: one state per transactional id', () => {
  it('the newest record per id wins, as when every record is kept (a repeated offset: the later one; a tombstone: deleted)', () => {
    const p = partition('dups')
    const w = new FileWriter(path.join(p, '00000000000000000000.log'))
    const recs: Array<[number, string, Buffer | null]> = [
      [0, 'a', value(1, 1)],
      [1, 'b', value(2, 1)],
      [2, 'a', value(1, 2)],
      [2, 'a', value(9, 4)],
      [3, 'c', value(3, 1)],
      [4, 'c', null],
      [5, 'b', value(2, 4)],
      [1, 'b', value(7, 5)],
    ]
    for (const [o, id, v] of recs) w.write(batch({ baseOffset: o, count: 1 }, record({ key: key(id), value: v })))
    w.close()
    const { two, all } = states(p)
    expect(all).toHaveLength(recs.length)
    expect(two.states).toEqual(lastTransactionStates(all))
    expect(two.states.map((s) => [s.transactionalId, s.producerId, s.deleted])).toEqual([
      ['a', 9n, false],
      ['b', 2n, false],
      ['c', null, true],
    ])
  })

  it('a generated log of many records and few ids gives one state per id, each its newest', () => {
    const p = partition('gen')
    transactionStateLog(path.join(p, '00000000000000000000.log'), 3000, 70)
    const { two, all } = states(p)
    expect(two.states).toHaveLength(70)
    expect(two.states).toEqual(lastTransactionStates(all))
    expect(two.findings.listed).toEqual([])
  })

  it('read as a tap on the partition scan (values kept in the scanner window until it is read again), the same states', () => {
    const p = partition('tapped')
    // about 3 MiB: the scan's 256 KiB window is read again a dozen times, ids' newest records on both sides of it
    transactionStateLog(path.join(p, '00000000000000000000.log'), 20_000, 333)
    const d = discover([p]).partitions[0]!
    const { read } = scanTransactionStatePartition(d, new Map())
    const { two, all } = states(p)
    expect(read.states).toHaveLength(333)
    expect(read.states).toEqual(lastTransactionStates(all))
    expect(read.states).toEqual(two.states)
    expect(read.findings.listed).toEqual([])
  })

  it('a batch larger than the read window (8 MiB) is read record by record, not skipped', () => {
    const p = partition('big-batch')
    // 40,000 records of about 260 bytes (a 200-byte header each) in one batch: 9 MiB
    const pad = Buffer.alloc(200, 0x61)
    const parts: Buffer[] = []
    for (let i = 0; i < 40_000; i++)
      parts.push(
        record({
          key: key(`id-${i % 500}`),
          value: value(i % 500, 4),
          offsetDelta: i,
          headers: [[Buffer.from('p'), pad]],
        }),
      )
    const w = new FileWriter(path.join(p, '00000000000000000000.log'))
    w.write(batch({ count: parts.length }, Buffer.concat(parts)))
    w.close()
    expect(fs.statSync(path.join(p, '00000000000000000000.log')).size).toBeGreaterThan(8 * 1024 * 1024)
    const { two } = states(p)
    expect(two.findings.listed).toEqual([])
    expect(two.states).toHaveLength(500)
    expect(two.states.find((s) => s.transactionalId === 'id-7')?.offset).toBe(39_507n)
  })
})
