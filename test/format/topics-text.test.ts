// Internal-topic formatters on hand-built records: each release's text (the variant tables), the
// --json values, Kafka's error texts and the findings for records a release cannot decode.
import { describe, expect, it } from 'vitest'
import { schemasFor } from '../../src/decode/protocol/registry.js'
import * as offsetsTable from '../../src/decode/protocol/generated/consumer-offsets-messages.js'
import * as rlmmTable from '../../src/decode/protocol/generated/remote-log-metadata-messages.js'
import * as shareTable from '../../src/decode/protocol/generated/share-group-state-messages.js'
import { decodeTransactionLogValue } from '../../src/decode/topics/transaction-state.js'
import { formatOffsetsRecord } from '../../src/format/topics/consumer-offsets-text.js'
import { javaDouble } from '../../src/format/topics/kafka-json.js'
import { formatRemoteLogMetadataRecord } from '../../src/format/topics/remote-log-metadata-text.js'
import { scalaHashSetOrder } from '../../src/format/topics/scala-hash-set.js'
import { formatShareGroupStateRecord } from '../../src/format/topics/share-group-state-text.js'
import { formatTransactionLogRecord } from '../../src/format/topics/transaction-state-text.js'
import { encodeMessage, uvarint } from '../decode/protocol/encode.js'

function str16(s: string): Buffer {
  const b = Buffer.from(s)
  const l = Buffer.alloc(2)
  l.writeInt16BE(b.length)
  return Buffer.concat([l, b])
}
function i16(n: number): Buffer {
  const b = Buffer.alloc(2)
  b.writeInt16BE(n)
  return b
}
function i32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}
function i64(n: bigint): Buffer {
  const b = Buffer.alloc(8)
  b.writeBigInt64BE(n)
  return b
}

function txnValueV0(status: number, parts: Array<[string, number[]]> | null): Buffer {
  const arr =
    parts === null
      ? [i32(-1)]
      : [i32(parts.length), ...parts.flatMap(([t, ps]) => [str16(t), i32(ps.length), ...ps.map(i32)])]
  return Buffer.concat([i16(0), i64(7n), i16(2), i32(60000), Buffer.from([status]), ...arr, i64(1000n), i64(900n)])
}
/** TransactionLogValue v1 with tags 0 previousProducerId=6, 2 clientTransactionVersion=2 */
const TXN_V1 = Buffer.concat([
  i16(1),
  i64(7n),
  i16(3),
  i32(1000),
  Buffer.from([4]),
  Buffer.from([2, 2]),
  Buffer.from('t'),
  Buffer.from([2]),
  i32(5),
  Buffer.from([0]),
  i64(11n),
  i64(10n),
  Buffer.from([2]),
  Buffer.from([0, 8]),
  i64(6n),
  Buffer.from([2, 2]),
  i16(2),
])
const TXN_KEY = Buffer.concat([i16(0), str16('my-txn')])

describe('__transaction_state (--transaction-log-decoder)', () => {
  it('3.9 and 4.0: TransactionLog.formatRecordKeyAndValue text', () => {
    for (const release of ['3.9', '4.0'] as const) {
      expect(formatTransactionLogRecord(TXN_KEY, txnValueV0(1, [['orders', [0]]]), 0n, release)).toMatchObject({
        key: 'transaction_metadata::transactionalId=my-txn',
        payload:
          'producerId:7,producerEpoch:2,state=Ongoing,partitions=[orders-0],txnLastUpdateTimestamp=1000,txnTimeoutMs=60000',
      })
    }
    expect(formatTransactionLogRecord(TXN_KEY, null, 0n)).toMatchObject({
      key: 'transaction_metadata::transactionalId=my-txn',
      payload: '<DELETE>',
    })
    expect(formatTransactionLogRecord(Buffer.concat([i16(3), str16('x')]), null, 0n)).toMatchObject({
      key: 'unknown::version=3',
    })
    expect(formatTransactionLogRecord(null, null, 5n).error).toBe(
      'Failed to decode message at offset 5 using the transaction log decoder (message had a missing key)',
    )
  })

  it('4.1-4.3: JSON with tagged fields where they differ from the default; 4.4 names transactionStatus (KAFKA-20712)', () => {
    const json =
      '{"version":"1","data":{"producerId":7,"previousProducerId":6,"producerEpoch":3,"transactionTimeoutMs":1000,"transactionStatus":4,' +
      '"transactionPartitions":[{"topic":"t","partitionIds":[5]}],"transactionLastUpdateTimestampMs":11,"transactionStartTimestampMs":10,"clientTransactionVersion":2}}'
    for (const release of ['4.1', '4.2', '4.3'] as const) {
      expect(formatTransactionLogRecord(TXN_KEY, TXN_V1, 0n, release)).toMatchObject({
        key: '{"type":"0","data":{"transactionalId":"my-txn"}}',
        payload: json,
      })
    }
    const r = formatTransactionLogRecord(TXN_KEY, TXN_V1, 0n, '4.4')
    expect(r.payload).toBe(json.replace('"transactionStatus":4', '"transactionStatus":"CompleteCommit"'))
    expect(r.keyJson).toEqual({ type: '0', data: { transactionalId: 'my-txn' } })
    expect(r.payloadJson).toMatchObject({
      version: '1',
      data: { producerId: 7, previousProducerId: 6, transactionStatus: 'CompleteCommit', clientTransactionVersion: 2 },
    })
    expect(formatTransactionLogRecord(null, null, 5n, '4.4').error).toBe(
      'Failed to decode message at offset 5 using the specified decoder (message had a missing key)',
    )
  })

  it('decodes flexible v1 values with tagged fields for the analysis (defaults filled in)', () => {
    expect(decodeTransactionLogValue(TXN_V1)).toMatchObject({
      version: 1,
      producerId: 7n,
      producerEpoch: 3,
      transactionStatus: 4,
      transactionPartitions: [{ topic: 't', partitionIds: [5] }],
      previousProducerId: 6n,
      nextProducerId: -1n,
      nextProducerEpoch: -1,
      clientTransactionVersion: 2,
    })
  })

  it("orders partitions like Scala's mutable.HashSet", () => {
    const tps = [
      ['orders-11', 0],
      ['orders-11', 2],
      ['__consumer_offsets', 1],
    ].map(([topic, partition]) => ({ topic: topic as string, partition: partition as number }))
    expect(scalaHashSetOrder(tps).map((t) => `${t.topic}-${t.partition}`)).toEqual([
      'orders-11-2',
      '__consumer_offsets-1',
      'orders-11-0',
    ])
  })
})

const compactStr = (s: string): Buffer => Buffer.concat([uvarint(Buffer.byteLength(s) + 1), Buffer.from(s)])

describe('__consumer_offsets (--offsets-decoder)', () => {
  it('formats an offset commit v3 and a tombstone, in every release', () => {
    const key = Buffer.concat([i16(1), str16('g'), str16('t'), i32(4)])
    const value = Buffer.concat([i16(3), i64(42n), i32(-1), str16(''), i64(1000n)])
    for (const release of ['3.9', '4.0', '4.1', '4.4'] as const) {
      expect(formatOffsetsRecord(key, value, 0n, release)).toMatchObject({
        key: '{"type":"1","data":{"group":"g","topic":"t","partition":4}}',
        payload: '{"version":"3","data":{"offset":42,"leaderEpoch":-1,"metadata":"","commitTimestamp":1000}}',
      })
    }
    expect(formatOffsetsRecord(key, null, 0n).payload).toBe('<DELETE>')
    expect(formatOffsetsRecord(Buffer.concat([i16(32767)]), null, 7n)).toMatchObject({
      key: 'Unknown record type 32767 at offset 7, skipping.',
      finding: { code: 'UNKNOWN_RECORD_TYPE' },
    })
  })

  it('KIP-848 records as DumpLogSegmentsTest shows them; OffsetCommitValue v4 topicId from 4.1 (KAFKA-19141)', () => {
    const key = Buffer.concat([i16(3), str16('group')])
    const value = Buffer.concat([i16(0), i32(10), uvarint(0)])
    expect(formatOffsetsRecord(key, value, 0n, '4.4')).toMatchObject({
      key: '{"type":"3","data":{"groupId":"group"}}',
      payload: '{"version":"0","data":{"epoch":10}}',
    })
    const topicId = Buffer.alloc(16, 1)
    const v4 = Buffer.concat([i16(4), i64(5n), i32(2), compactStr('m'), i64(9n), Buffer.from([1, 0, 16]), topicId])
    const k1 = Buffer.concat([i16(1), str16('g'), str16('t'), i32(0)])
    expect(formatOffsetsRecord(k1, v4, 0n, '4.4').payload).toBe(
      `{"version":"4","data":{"offset":5,"leaderEpoch":2,"metadata":"m","commitTimestamp":9,"topicId":"${topicId.toString('base64url')}"}}`,
    )
    expect(formatOffsetsRecord(k1, v4, 0n, '4.0').payload).toBe(
      '{"version":"4","data":{"offset":5,"leaderEpoch":2,"metadata":"m","commitTimestamp":9}}',
    )
  })

  it('which types each release prints: 3.9 up to 8, 4.0 up to 16, 4.1+ every type its definitions have', () => {
    const streams = Buffer.concat([i16(17), str16('sg')])
    expect(formatOffsetsRecord(streams, null, 3n, '4.0').key).toBe('Unknown record type 17 at offset 3, skipping.')
    expect(formatOffsetsRecord(streams, null, 3n, '4.4')).toMatchObject({
      key: '{"type":"17","data":{"groupId":"sg"}}',
      payload: '<DELETE>',
    })
    const regex = Buffer.concat([i16(16), str16('g'), str16('t.*')])
    expect(formatOffsetsRecord(regex, null, 0n, '3.9').key).toBe('Unknown record type 16 at offset 0, skipping.')
    expect(formatOffsetsRecord(regex, null, 0n, '4.0').key).toBe(
      '{"type":"16","data":{"groupId":"g","regularExpression":"t.*"}}',
    )
    // ShareGroupPartitionMetadata (9) was deleted in 4.1 (KAFKA-17747)
    expect(formatOffsetsRecord(Buffer.concat([i16(9), str16('g')]), null, 0n, '4.1').key).toBe(
      'Unknown record type 9 at offset 0, skipping.',
    )
    expect([...schemasFor(offsetsTable, '4.4').coordinator.keys()].sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23,
    ])
  })

  it('unknown value versions: 4.1+ say so (KAFKA-18672); every release flags them', () => {
    const key = Buffer.concat([i16(3), str16('group')])
    const v9 = Buffer.concat([i16(9), i32(10), uvarint(0)])
    expect(formatOffsetsRecord(key, v9, 2n, '4.4')).toMatchObject({
      key: 'Error at offset 2, skipping. Found an unknown record version 9 for 3 type',
      finding: { code: 'UNKNOWN_RECORD_VERSION' },
    })
    expect(formatOffsetsRecord(key, v9, 2n, '3.9').finding?.code).toBe('UNKNOWN_RECORD_VERSION')
  })

  it("Kafka's error text for a value that does not fit its type", () => {
    const key = Buffer.concat([i16(1), str16('g'), str16('t'), i32(0)])
    const r = formatOffsetsRecord(key, Buffer.concat([i16(0), i64(1n), i16(50)]), 4n, '4.4')
    expect(r.key).toBe(
      "Error at offset 4, skipping. Could not read record with version 0 from value's buffer due to: Error reading byte array of 50 byte(s): only 0 byte(s) available.",
    )
    expect(r.finding).toMatchObject({ code: 'BAD_INTERNAL_RECORD' })
  })

  it('keeps malformed embedded consumer protocol bytes as base64', () => {
    const member = [
      str16('m'),
      str16('c'),
      str16('/h'),
      i32(3000),
      i32(10000),
      i32(Buffer.from('Subscription').length),
      Buffer.from('Subscription'),
      i32(Buffer.from('Assignment').length),
      Buffer.from('Assignment'),
    ]
    const value = Buffer.concat([i16(1), str16('consumer'), i32(1), str16('range'), str16('m'), i32(1), ...member])
    const r = formatOffsetsRecord(Buffer.concat([i16(2), str16('g')]), value, 0n)
    expect(r.payload).toContain('"subscription":"U3Vic2NyaXB0aW9u"')
    expect(r.payload).toContain('"assignment":"QXNzaWdubWVudA=="')
  })

  it('missing key: 4.1+ share one text (KAFKA-18616)', () => {
    expect(formatOffsetsRecord(null, null, 1n, '3.9').error).toBe(
      'Failed to decode message at offset 1 using offset topic decoder (message had a missing key)',
    )
    expect(formatOffsetsRecord(null, null, 1n, '4.1').error).toBe(
      'Failed to decode message at offset 1 using the specified decoder (message had a missing key)',
    )
  })
})

describe('__share_group_state (--share-group-state-decoder)', () => {
  const uuid = Buffer.alloc(16, 2).toString('base64url')
  const key = Buffer.concat([i16(0), str16('gs1'), Buffer.alloc(16, 2), i32(0)])
  it('4.4: ShareSnapshot key and value JSON; 4.0 wrote the value version as "type" and read its own schema', () => {
    const def44 = schemasFor(shareTable, '4.4').byName.get('ShareSnapshotValue')!
    const value = {
      snapshotEpoch: 1,
      stateEpoch: 2,
      leaderEpoch: 3,
      startOffset: 4n,
      createTimestamp: 5n,
      writeTimestamp: 6n,
      stateBatches: [{ firstOffset: 4n, lastOffset: 9n, deliveryState: 2, deliveryCount: 1 }],
    }
    const r = formatShareGroupStateRecord(key, Buffer.concat([i16(0), encodeMessage(def44, 0, value)]), 0n, '4.4')
    expect(r.key).toBe(`{"type":"0","data":{"groupId":"gs1","topicId":"${uuid}","partition":0}}`)
    expect(r.payload).toBe(
      '{"version":"0","data":{"snapshotEpoch":1,"stateEpoch":2,"leaderEpoch":3,"startOffset":4,"createTimestamp":5,"writeTimestamp":6,' +
        '"stateBatches":[{"firstOffset":4,"lastOffset":9,"deliveryState":2,"deliveryCount":1}]}}',
    )
    const def40 = schemasFor(shareTable, '4.0').byName.get('ShareSnapshotValue')!
    expect(def40).not.toEqual(def44)
    const v40 = { snapshotEpoch: 1, stateEpoch: 2, leaderEpoch: 3, startOffset: 4n, stateBatches: [] }
    const r40 = formatShareGroupStateRecord(key, Buffer.concat([i16(0), encodeMessage(def40, 0, v40)]), 0n, '4.0')
    expect(r40.payload).toBe(
      '{"type":"0","data":{"snapshotEpoch":1,"stateEpoch":2,"leaderEpoch":3,"startOffset":4,"stateBatches":[]}}',
    )
  })
})

describe('__remote_log_metadata (--remote-log-metadata-decoder)', () => {
  it("prints RemoteLogMetadataSerde's objects as their toString()", () => {
    const def = schemasFor(rlmmTable, '4.4').byApiKey.get(2)!
    const topicId = Buffer.alloc(16, 3).toString('base64url')
    const body = encodeMessage(def, 0, {
      topicIdPartition: { name: 'foo', id: topicId, partition: 0 },
      brokerId: 0,
      eventTimestampMs: 0n,
      remotePartitionDeleteState: 0,
    })
    const r = formatRemoteLogMetadataRecord(Buffer.concat([uvarint(1), uvarint(2), uvarint(0), body]), 0n, '4.4')
    expect(r.payload).toBe(
      `RemotePartitionDeleteMetadata{topicPartition=${topicId}:foo-0, state=DELETE_PARTITION_MARKED, eventTimestampMs=0, brokerId=0}`,
    )
    const seg = schemasFor(rlmmTable, '4.4').byApiKey.get(1)!
    const upd = encodeMessage(seg, 0, {
      remoteLogSegmentId: { topicIdPartition: { name: 'foo', id: topicId, partition: 0 }, id: topicId },
      brokerId: 0,
      eventTimestampMs: 0n,
      customMetadata: Buffer.alloc(4),
      remoteLogSegmentState: 1,
    })
    expect(formatRemoteLogMetadataRecord(Buffer.concat([uvarint(1), uvarint(1), uvarint(0), upd]), 0n).payload).toBe(
      `RemoteLogSegmentMetadataUpdate{remoteLogSegmentId=RemoteLogSegmentId{topicIdPartition=${topicId}:foo-0, id=${topicId}}, ` +
        'customMetadata=Optional[CustomMetadata{4 bytes}], state=COPY_SEGMENT_FINISHED, eventTimestampMs=0, brokerId=0}',
    )
    expect(formatRemoteLogMetadataRecord(Buffer.from([1, 9, 0]), 3n).payload).toMatch(/^Error at offset 3, skipping\. /)
  })
})

it('java.lang.Double.toString', () => {
  expect([0, 1, 100, 1.5, 1e7, 1.25e-4, -2e21, 0.001].map(javaDouble)).toEqual([
    '0.0',
    '1.0',
    '100.0',
    '1.5',
    '1.0E7',
    '1.25E-4',
    '-2.0E21',
    '0.001',
  ])
})
