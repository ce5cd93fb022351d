import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeGroupRecordKey, decodeTransactionLogValue, formatOffsetsRecord, formatTransactionLogRecord, scalaHashSetOrder } from '../../src/decode/internal-topics.js'
import { readLog } from '../../src/decode/log-reader.js'
import { decodeRecords } from '../../src/decode/records.js'
import { BufferSource } from '../../src/io/buffer-source.js'

function str16 (s: string): Buffer { const b = Buffer.from(s); const l = Buffer.alloc(2); l.writeInt16BE(b.length); return Buffer.concat([l, b]) }
function i16 (n: number): Buffer { const b = Buffer.alloc(2); b.writeInt16BE(n); return b }
function i32 (n: number): Buffer { const b = Buffer.alloc(4); b.writeInt32BE(n); return b }
function i64 (n: bigint): Buffer { const b = Buffer.alloc(8); b.writeBigInt64BE(n); return b }

function txnValueV0 (status: number, parts: Array<[string, number[]]> | null): Buffer {
  const arr = parts === null ? [i32(-1)] : [i32(parts.length), ...parts.flatMap(([t, ps]) => [str16(t), i32(ps.length), ...ps.map(i32)])]
  return Buffer.concat([i16(0), i64(7n), i16(2), i32(60000), Buffer.from([status]), ...arr, i64(1000n), i64(900n)])
}

describe('__transaction_state records (3.9 --transaction-log-decoder text)', () => {
  it('formats key, value and tombstone', () => {
    const key = Buffer.concat([i16(0), str16('my-txn')])
    expect(formatTransactionLogRecord(key, txnValueV0(1, [['orders', [0]]]), 0n)).toEqual({
      key: 'transaction_metadata::transactionalId=my-txn',
      payload: 'producerId:7,producerEpoch:2,state=Ongoing,partitions=[orders-0],txnLastUpdateTimestamp=1000,txnTimeoutMs=60000',
    })
    expect(formatTransactionLogRecord(key, null, 0n)).toEqual({ key: 'transaction_metadata::transactionalId=my-txn', payload: '<DELETE>' })
    expect(formatTransactionLogRecord(Buffer.concat([i16(3), str16('x')]), null, 0n)).toEqual({ key: 'unknown::version=3' })
    expect(formatTransactionLogRecord(null, null, 5n).error).toContain('offset 5')
  })

  it('decodes flexible v1 values with tagged fields', () => {
    const tagged = Buffer.concat([Buffer.from([2]), Buffer.from([0, 8]), i64(6n), Buffer.from([2, 2]), i16(2)])
    const v1 = Buffer.concat([i16(1), i64(7n), i16(3), i32(1000), Buffer.from([4]), Buffer.from([2, 2]), Buffer.from('t'), Buffer.from([2]), i32(5),
      Buffer.from([0]), i64(11n), i64(10n), tagged])
    expect(decodeTransactionLogValue(v1)).toMatchObject({ version: 1, producerId: 7n, producerEpoch: 3, transactionStatus: 4,
      transactionPartitions: [{ topic: 't', partitionIds: [5] }], previousProducerId: 6n, clientTransactionVersion: 2 })
  })

  it('orders partitions like Scala\'s mutable.HashSet', () => {
    const tps = [['orders-11', 0], ['orders-11', 2], ['__consumer_offsets', 1]].map(([topic, partition]) => ({ topic: topic as string, partition: partition as number }))
    expect(scalaHashSetOrder(tps).map((t) => `${t.topic}-${t.partition}`)).toEqual(['orders-11-2', '__consumer_offsets-1', 'orders-11-0'])
  })
})

describe('__consumer_offsets records (3.9 --offsets-decoder text)', () => {
  it('formats an offset commit v3 and a tombstone', () => {
    const key = Buffer.concat([i16(1), str16('g'), str16('t'), i32(4)])
    const value = Buffer.concat([i16(3), i64(42n), i32(-1), str16(''), i64(1000n)])
    expect(formatOffsetsRecord(key, value, 0n)).toEqual({
      key: '{"type":"1","data":{"group":"g","topic":"t","partition":4}}',
      payload: '{"version":"3","data":{"offset":42,"leaderEpoch":-1,"metadata":"","commitTimestamp":1000}}',
    })
    expect(formatOffsetsRecord(key, null, 0n).payload).toBe('<DELETE>')
    expect(decodeGroupRecordKey(Buffer.concat([i16(2), str16('g')]))).toEqual({ type: 2, data: { group: 'g' } })
    expect(formatOffsetsRecord(Buffer.concat([i16(32767)]), null, 0n)).toEqual({ key: 'Unknown record type 32767 at offset 0, skipping.' })
  })

  it('keeps malformed embedded consumer protocol bytes as base64', () => {
    const member = [str16('m'), str16('c'), str16('/h'), i32(3000), i32(10000), i32(Buffer.from('Subscription').length), Buffer.from('Subscription'),
      i32(Buffer.from('Assignment').length), Buffer.from('Assignment')]
    const value = Buffer.concat([i16(1), str16('consumer'), i32(1), str16('range'), str16('m'), i32(1), ...member])
    const r = formatOffsetsRecord(Buffer.concat([i16(2), str16('g')]), value, 0n)
    expect(r.payload).toContain('"subscription":"U3Vic2NyaXB0aW9u"')
    expect(r.payload).toContain('"assignment":"QXNzaWdubWVudA=="')
  })
})

// Real broker files with Kafka's own dump output beside them (fixtures/broker/<scenario>/dump/...)
const BROKER = path.resolve(__dirname, '../../fixtures/broker')
interface Case { log: string, dump: string, kind: 'txnlog' | 'offsets' }
function cases (): Case[] {
  const out: Case[] = []
  if (!fs.existsSync(BROKER)) return out
  for (const scenario of fs.readdirSync(BROKER)) {
    const logs = path.join(BROKER, scenario, 'logs')
    if (!fs.existsSync(logs)) continue
    for (const part of fs.readdirSync(logs)) {
      const kind = part.startsWith('__transaction_state-') ? 'txnlog' : part.startsWith('__consumer_offsets-') ? 'offsets' : null
      if (kind === null) continue
      for (const f of fs.readdirSync(path.join(logs, part)).filter((n) => n.endsWith('.log'))) {
        const dump = path.join(BROKER, scenario, 'dump', part, `${f}.${kind}.txt`)
        if (fs.existsSync(dump)) out.push({ log: path.join(logs, part, f), dump, kind })
      }
    }
  }
  return out
}

describe('internal topics against kafka-dump-log output of real broker files', () => {
  const all = cases()
  if (all.length === 0) {
    it.skip('no fixtures/broker/*/dump/*.txnlog.txt or *.offsets.txt yet', () => {})
    return
  }
  for (const c of all) {
    it(`${path.relative(BROKER, c.log)} (${c.kind})`, () => {
      const expected = fs.readFileSync(c.dump, 'utf8').split('\n').filter((l) => l.startsWith('| offset:') && l.includes(' key: '))
        .map((l) => l.slice(l.indexOf(' key: ') + 6))
      const got: string[] = []
      const buf = fs.readFileSync(c.log)
      for (const ev of readLog(new BufferSource(buf, c.log))) {
        if (ev.kind !== 'batch' || ev.header.isControl) continue
        for (const rec of decodeRecords(ev.header, ev.bytes)) {
          const f = c.kind === 'txnlog' ? formatTransactionLogRecord(rec.key, rec.value, rec.offset) : formatOffsetsRecord(rec.key, rec.value, rec.offset)
          got.push(f.payload !== undefined ? `${f.key ?? ''} payload: ${f.payload}` : f.key ?? '')
        }
      }
      expect(got).toEqual(expected)
    })
  }
})
