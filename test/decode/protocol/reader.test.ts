// The schema reader against records encoded from the same generated definitions with random values:
// every message of every topic table, in every release and every valid version, round-trips, keeps
// Kafka's JsonConverter field order (declaration order, tagged fields only when not default), and a
// truncated encoding is a DecodeError with a position inside the input, never a crash.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DecodeError } from '../../../src/decode/errors.js'
import { decodeMessage } from '../../../src/decode/protocol/reader.js'
import { schemasFor } from '../../../src/decode/protocol/registry.js'
import type { SchemaTable } from '../../../src/decode/protocol/registry.js'
import type { FieldDef, SchemaStruct, SchemaValue } from '../../../src/decode/protocol/types.js'
import { inRange, KAFKA_RELEASES } from '../../../src/decode/protocol/types.js'
import * as clusterMetadata from '../../../src/decode/protocol/generated/cluster-metadata-messages.js'
import * as consumerOffsets from '../../../src/decode/protocol/generated/consumer-offsets-messages.js'
import * as control from '../../../src/decode/protocol/generated/control-messages.js'
import * as remoteLogMetadata from '../../../src/decode/protocol/generated/remote-log-metadata-messages.js'
import * as shareGroupState from '../../../src/decode/protocol/generated/share-group-state-messages.js'
import * as transactionState from '../../../src/decode/protocol/generated/transaction-state-messages.js'
import { encodeMessage, messageArb } from './encode.js'

const TABLES: Record<string, SchemaTable> = {
  clusterMetadata,
  consumerOffsets,
  control,
  remoteLogMetadata,
  shareGroupState,
  transactionState,
}

/** the keys of every struct in `v`, depth first, to compare with the declaration order */
function keyOrder(fields: readonly FieldDef[], v: SchemaStruct): string[] {
  const out: string[] = [Object.keys(v).join(',')]
  for (const fd of fields) {
    const x = v[fd.name]
    if (fd.type !== 'struct' || x === undefined || x === null) continue
    for (const s of (Array.isArray(x) ? x : [x]) as SchemaValue[])
      out.push(...keyOrder(fd.fields ?? [], s as SchemaStruct))
  }
  return out
}

function declared(fields: readonly FieldDef[], v: SchemaStruct): string[] {
  const out: string[] = [
    fields
      .map((f) => f.name)
      .filter((n) => v[n] !== undefined)
      .join(','),
  ]
  for (const fd of fields) {
    const x = v[fd.name]
    if (fd.type !== 'struct' || x === undefined || x === null) continue
    for (const s of (Array.isArray(x) ? x : [x]) as SchemaValue[])
      out.push(...declared(fd.fields ?? [], s as SchemaStruct))
  }
  return out
}

describe('schema reader: random records encoded from the generated definitions', () => {
  for (const [topic, table] of Object.entries(TABLES)) {
    it(`${topic}: every message, release and version round-trips in declaration order`, () => {
      let checked = 0
      const seen = new Set<string>()
      for (const release of KAFKA_RELEASES) {
        for (const def of schemasFor(table, release).byName.values()) {
          const key = JSON.stringify(def)
          if (seen.has(key) || def.validVersions === null) continue
          seen.add(key)
          for (let version = def.validVersions[0]; version <= def.validVersions[1]; version++) {
            fc.assert(
              fc.property(messageArb(def, version), (value) => {
                const bytes = encodeMessage(def, version, value)
                const got = decodeMessage(bytes, def, version, 1000)
                expect(got).toEqual(value)
                expect(keyOrder(def.fields, got)).toEqual(declared(def.fields, got))
              }),
              { numRuns: 12 },
            )
            checked++
          }
        }
      }
      expect(checked).toBeGreaterThan(0)
    })
  }

  it('a truncated record is a DecodeError inside the input, for every cut', () => {
    const def = schemasFor(consumerOffsets, '4.4').byName.get('ConsumerGroupMemberMetadataValue')!
    const version = def.validVersions![1]
    fc.assert(
      fc.property(messageArb(def, version), fc.nat(), (value, cut) => {
        const bytes = encodeMessage(def, version, value)
        const at = cut % bytes.length
        try {
          decodeMessage(bytes.subarray(0, at), def, version, 500)
          expect.unreachable('a cut record decoded')
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError)
          expect((e as DecodeError).position).toBeGreaterThanOrEqual(500)
          expect((e as DecodeError).position).toBeLessThanOrEqual(500 + at)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('a null field keeps its place when tagged fields are present (RegisterBrokerRecord v3: rack null, logDirs tagged)', () => {
    const def = schemasFor(clusterMetadata, '4.4').byName.get('RegisterBrokerRecord')!
    const value = decodeMessage(
      encodeMessage(def, 3, {
        brokerId: 1,
        isMigratingZkBroker: false,
        incarnationId: 'AAAAAAAAAAAAAAAAAAAAAQ',
        brokerEpoch: 6n,
        endPoints: [],
        features: [],
        rack: null,
        fenced: true,
        inControlledShutdown: false,
        logDirs: ['AAAAAAAAAAAAAAAAAAAAAg'],
      }),
      def,
      3,
    )
    expect(Object.keys(value)).toEqual([
      'brokerId',
      'isMigratingZkBroker',
      'incarnationId',
      'brokerEpoch',
      'endPoints',
      'features',
      'rack',
      'fenced',
      'inControlledShutdown',
      'logDirs',
    ])
    expect(value.rack).toBeNull()
  })

  // what kafka-dump-log 3.9.1-4.4.0 print for these (test/broker/topics-oracle.test.ts classicMemberEdges)
  it('a tagged struct equal to its default-built one is omitted; null, non-default, or with unknown tags of its own, it is kept', () => {
    const def = schemasFor(consumerOffsets, '4.1').byName.get('ConsumerGroupMemberMetadataValue')!
    const base = {
      instanceId: null,
      rackId: null,
      clientId: 'c',
      clientHost: 'h',
      subscribedTopicNames: [],
      subscribedTopicRegex: null,
      rebalanceTimeoutMs: 5,
      serverAssignor: null,
    }
    const plain = encodeMessage(def, 0, base)
    const withTag = (body: number[]): Buffer =>
      Buffer.concat([plain.subarray(0, -1), Buffer.from([1, 0, body.length, ...body])])
    expect(decodeMessage(withTag([1, 0, 0, 0, 0, 1, 0]), def, 0)).toEqual(base)
    expect(decodeMessage(withTag([0]), def, 0)).toEqual({ ...base, classicMemberMetadata: null })
    expect(decodeMessage(withTag([1, 0, 0, 0, 1, 1, 0]), def, 0)).toEqual({
      ...base,
      classicMemberMetadata: { sessionTimeoutMs: 1, supportedProtocols: [] },
    })
    expect(decodeMessage(withTag([1, 0, 0, 0, 0, 1, 1, 5, 1, 0]), def, 0)).toEqual({
      ...base,
      classicMemberMetadata: { sessionTimeoutMs: 0, supportedProtocols: [] },
    })
  })

  it('reads a tagged field it knows and skips tags it does not', () => {
    const def = schemasFor(consumerOffsets, '4.4').byName.get('OffsetCommitValue')!
    const topicId = Buffer.alloc(16, 7)
    // version 4: offset, leaderEpoch, metadata (compact), commitTimestamp, tags {0: topicId, 9: junk}
    const bytes = Buffer.concat([
      Buffer.alloc(7),
      Buffer.from([42, 0, 0, 0, 1, 1]),
      Buffer.alloc(7),
      Buffer.from([9]),
      Buffer.from([2, 0, 16]),
      topicId,
      Buffer.from([9, 2, 0xab, 0xcd]),
    ])
    expect(decodeMessage(bytes, def, 4)).toEqual({
      offset: 42n,
      leaderEpoch: 1,
      metadata: '',
      commitTimestamp: 9n,
      topicId: topicId.toString('base64url'),
    })
    expect(inRange(def.flexibleVersions, 3)).toBe(false)
  })
})
