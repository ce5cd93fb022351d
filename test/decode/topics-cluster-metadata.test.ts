// KRaft __cluster_metadata record values: the real metadata log from the corpus and synthetic records.
import { describe, it, expect } from 'vitest'
import * as fc from 'fast-check'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeMetadataRecord } from '../../src/decode/topics/cluster-metadata.js'
import { SchemaReadError } from '../../src/decode/protocol/reader.js'
import { DecodeError } from '../../src/decode/errors.js'
import { decodeBatchHeader } from '../../src/decode/batch-header.js'
import { decodeRecords } from '../../src/decode/records.js'

// ---- a tiny flexible-version encoder ----
function uvarint(n: number): Buffer {
  const out: number[] = []
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80)
    n = Math.floor(n / 128)
  }
  out.push(n)
  return Buffer.from(out)
}
const int8 = (v: number): Buffer => Buffer.from([v & 0xff])
function int32(v: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeInt32BE(v)
  return b
}
function int64(v: bigint): Buffer {
  const b = Buffer.alloc(8)
  b.writeBigInt64BE(v)
  return b
}
const str = (s: string | null): Buffer =>
  s === null ? uvarint(0) : Buffer.concat([uvarint(Buffer.byteLength(s) + 1), Buffer.from(s)])
const int32s = (a: number[] | null): Buffer =>
  a === null ? uvarint(0) : Buffer.concat([uvarint(a.length + 1), ...a.map(int32)])
const UUID = Buffer.from('00112233445566778899aabbccddeeff', 'hex')
function tags(fields: Array<[number, Buffer]>): Buffer {
  return Buffer.concat([
    uvarint(fields.length),
    ...fields.map(([t, b]) => Buffer.concat([uvarint(t), uvarint(b.length), b])),
  ])
}
const frame = (apiKey: number, version: number, ...body: Buffer[]): Buffer =>
  Buffer.concat([uvarint(1), uvarint(apiKey), uvarint(version), ...body])

describe('decodeMetadataRecord', () => {
  it('TOPIC_RECORD', () => {
    const m = decodeMetadataRecord(frame(2, 0, str('orders'), UUID, tags([])))
    expect(m).toMatchObject({
      type: 'TOPIC_RECORD',
      apiKey: 2,
      version: 0,
      unknownVersion: false,
      data: { name: 'orders', topicId: UUID.toString('base64url') },
    })
  })

  it('PARTITION_RECORD v2 with tagged ELR fields, v0 without directories', () => {
    const v2 = frame(
      3,
      2,
      int32(4),
      UUID,
      int32s([1, 2, 3]),
      int32s([1, 2]),
      int32s([]),
      int32s([]),
      int32(1),
      int32(7),
      int32(9),
      Buffer.concat([uvarint(3), UUID, UUID]),
      tags([
        [1, int32s([3])],
        [2, int32s(null)],
        [0, int8(1)],
      ]),
    )
    expect(decodeMetadataRecord(v2).data).toEqual({
      partitionId: 4,
      topicId: UUID.toString('base64url'),
      replicas: [1, 2, 3],
      isr: [1, 2],
      removingReplicas: [],
      addingReplicas: [],
      leader: 1,
      leaderEpoch: 7,
      partitionEpoch: 9,
      directories: [UUID.toString('base64url'), UUID.toString('base64url')],
      eligibleLeaderReplicas: [3],
      leaderRecoveryState: 1,
    })
    const v0 = frame(
      3,
      0,
      int32(0),
      UUID,
      int32s([1]),
      int32s([1]),
      int32s([]),
      int32s([]),
      int32(1),
      int32(0),
      int32(0),
      tags([]),
    )
    expect(decodeMetadataRecord(v0).data).toMatchObject({ removingReplicas: [], addingReplicas: [], partitionEpoch: 0 })
    expect(decodeMetadataRecord(v0).data).not.toHaveProperty('directories')
    // PartitionRecord.json: removingReplicas has no nullableVersions, so null is corrupt (Kafka says the same)
    const nulls = frame(
      3,
      0,
      int32(0),
      UUID,
      int32s([1]),
      int32s([1]),
      int32s(null),
      int32s(null),
      int32(1),
      int32(0),
      int32(0),
      tags([]),
    )
    expect(() => decodeMetadataRecord(nulls)).toThrow(/non-nullable field removingReplicas was serialized as null/)
  })

  it('PARTITION_CHANGE_RECORD: only present tagged fields appear; unknown tags are skipped', () => {
    const m = decodeMetadataRecord(
      frame(
        5,
        0,
        int32(1),
        UUID,
        tags([
          [1, int32(3)],
          [42, Buffer.from('future')],
        ]),
      ),
    )
    expect(m.data).toEqual({ partitionId: 1, topicId: UUID.toString('base64url'), leader: 3 })
  })

  it('int64 fields are bigint', () => {
    expect(decodeMetadataRecord(frame(15, 0, int32(1), int64(5n), int64(123456789012345n), tags([]))).data).toEqual({
      brokerId: 1,
      brokerEpoch: 5n,
      nextProducerId: 123456789012345n,
    })
  })

  it("tagged fields equal to their default are left out, as Kafka's JsonConverter does (lastKnownElr null)", () => {
    const v2 = frame(
      3,
      2,
      int32(4),
      UUID,
      int32s([1]),
      int32s([1]),
      int32s([]),
      int32s([]),
      int32(1),
      int32(7),
      int32(9),
      Buffer.concat([uvarint(1)]),
      tags([
        [2, int32s(null)],
        [0, int8(0)],
      ]),
    )
    expect(decodeMetadataRecord(v2).data).not.toHaveProperty('lastKnownElr')
    expect(decodeMetadataRecord(v2).data).not.toHaveProperty('leaderRecoveryState')
  })

  it("an unknown apiKey is an error with Kafka's text; an unknown version is read by field ranges and flagged", () => {
    try {
      decodeMetadataRecord(frame(99, 0, Buffer.from('whatever')), 40)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaReadError)
      expect((e as SchemaReadError).kafkaMessage).toBe(
        'org.apache.kafka.common.errors.UnsupportedVersionException: Unknown metadata id 99',
      )
      expect((e as SchemaReadError).position).toBe(40)
    }
    const v7 = decodeMetadataRecord(frame(2, 7, str('t'), UUID, tags([])))
    expect(v7).toMatchObject({
      type: 'TOPIC_RECORD',
      version: 7,
      unknownVersion: true,
      data: { name: 't', topicId: UUID.toString('base64url') },
    })
    // UnregisterControllerRecord (29) is new in 4.4 (generated overlays), ClearElrRecord (28) in 4.0
    expect(decodeMetadataRecord(frame(29, 0, int32(3), tags([])), 0, '4.4').type).toBe('UNREGISTER_CONTROLLER_RECORD')
    expect(() => decodeMetadataRecord(frame(29, 0, int32(3), tags([])), 0, '4.3')).toThrow(/unknown record type 29/)
    expect(decodeMetadataRecord(frame(28, 0, str('t'), tags([])), 0, '4.0').type).toBe('CLEAR_ELR_RECORD')
    expect(() => decodeMetadataRecord(frame(28, 0, str('t'), tags([])), 0, '3.9')).toThrow(/unknown record type 28/)
  })

  it('malformed values throw DecodeError with positions', () => {
    const topic = frame(2, 0, str('orders'), UUID, tags([]))
    expect(() => decodeMetadataRecord(topic.subarray(0, topic.length - 5), 100)).toThrow(DecodeError)
    const garbage = Buffer.concat([topic, Buffer.from([1])])
    try {
      decodeMetadataRecord(garbage, 100)
      expect.unreachable()
    } catch (e) {
      expect(e).toMatchObject({ code: 'BAD_RECORD', position: 100 + topic.length })
    }
    expect(() => decodeMetadataRecord(Buffer.concat([uvarint(0), uvarint(2), uvarint(0)]))).toThrow(DecodeError)
  })

  it('random bytes after a known header give a record or a DecodeError, never another exception', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 2, 3, 4, 5, 14, 17, 27),
        fc.nat(3),
        fc.uint8Array({ maxLength: 120 }),
        (apiKey, version, body) => {
          try {
            decodeMetadataRecord(frame(apiKey, version, Buffer.from(body)))
          } catch (e) {
            expect(e).toBeInstanceOf(DecodeError)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const corpus = path.resolve(repoRoot, '../shared/corpus')
const file = path.join(corpus, 'kraft-metadata/__cluster_metadata-0/00000000000000000000.log')
const haveCorpus = fs.existsSync(file)
if (!haveCorpus) console.warn(`corpus tests skipped: ${file} is absent`)

describe('corpus: a real KRaft metadata log', () => {
  it.skipIf(!haveCorpus)('every data record decodes to a known type', () => {
    const b = fs.readFileSync(file)
    const counts: Record<string, number> = {}
    let control = 0
    let pos = 0
    while (pos + 17 <= b.length) {
      const entry = b.subarray(pos, pos + 12 + b.readInt32BE(pos + 8))
      const h = decodeBatchHeader(entry, pos)
      for (const r of decodeRecords(h, entry)) {
        if (h.isControl) {
          control++
          continue
        }
        const m = decodeMetadataRecord(r.value!)
        expect(m.data).not.toBeNull()
        counts[m.type] = (counts[m.type] ?? 0) + 1
        if (m.type === 'REGISTER_BROKER_RECORD') {
          expect(m.data).toMatchObject({
            brokerId: 1,
            endPoints: [{ name: 'PLAINTEXT', host: 'localhost', port: 9092 }],
          })
        }
      }
      pos += entry.length
    }
    expect(control).toBe(5)
    expect(counts).toEqual({
      REGISTER_BROKER_RECORD: 4,
      FEATURE_LEVEL_RECORD: 1,
      BROKER_REGISTRATION_CHANGE_RECORD: 5,
      NO_OP_RECORD: 3054,
      ZK_MIGRATION_STATE_RECORD: 1,
      BEGIN_TRANSACTION_RECORD: 1,
      END_TRANSACTION_RECORD: 1,
    })
  })
})
