// Every internal-topic record type, with random values encoded from the generated definitions, written
// into a segment and dumped by each Kafka release's own kafka-dump-log (`--offsets-decoder`,
// `--transaction-log-decoder`, `--share-group-state-decoder`, `--cluster-metadata-decoder`,
// `--remote-log-metadata-decoder`); tsdump's formatter must give the same key/payload text on every line.
// Needs .cache/kafka-<version>/lib (KAFKA_VERSION=<v> scripts/kafka/install.sh); skips with the reason.
// The seed is printed; TSDUMP_ORACLE_SEED=<n> replays a run.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keyVersion, schemasFor } from '../../src/decode/protocol/registry.js'
import type { SchemaTable } from '../../src/decode/protocol/registry.js'
import type { KafkaRelease, MessageDef, SchemaStruct } from '../../src/decode/protocol/types.js'
import * as metadataTable from '../../src/decode/protocol/generated/cluster-metadata-messages.js'
import * as offsetsTable from '../../src/decode/protocol/generated/consumer-offsets-messages.js'
import * as rlmmTable from '../../src/decode/protocol/generated/remote-log-metadata-messages.js'
import * as shareTable from '../../src/decode/protocol/generated/share-group-state-messages.js'
import * as txnTable from '../../src/decode/protocol/generated/transaction-state-messages.js'
import { formatClusterMetadataRecord } from '../../src/format/topics/cluster-metadata-text.js'
import { formatOffsetsRecord } from '../../src/format/topics/consumer-offsets-text.js'
import type { FormattedRecord } from '../../src/format/topics/formatted-record.js'
import { formatRemoteLogMetadataRecord } from '../../src/format/topics/remote-log-metadata-text.js'
import { formatShareGroupStateRecord } from '../../src/format/topics/share-group-state-text.js'
import { formatTransactionLogRecord } from '../../src/format/topics/transaction-state-text.js'
import { encodeMessage, messageArb, uvarint } from '../decode/protocol/encode.js'
import { expectedTails, formattedTail } from '../support/record-tails.js'
import { encodeBatch } from '../support/segment-builder.js'

const ROOT = path.resolve(__dirname, '../..')
const RELEASES: Array<[KafkaRelease, string]> = [
  ['3.9', '3.9.1'],
  ['4.0', '4.0.2'],
  ['4.1', '4.1.2'],
  ['4.2', '4.2.2'],
  ['4.3', '4.3.1'],
  ['4.4', '4.4.0'],
]
const SEED = Number(process.env.TSDUMP_ORACLE_SEED ?? Date.now() % 2147483647)
console.log(`topics-oracle seed ${SEED} (TSDUMP_ORACLE_SEED=${SEED} replays it)`)

interface Rec {
  key: Buffer | null
  value: Buffer | null
}
type Format = (r: Rec, offset: bigint, release: KafkaRelease) => FormattedRecord

const i16 = (n: number): Buffer => {
  const b = Buffer.alloc(2)
  b.writeInt16BE(n)
  return b
}
let sampleIndex = 0
function sample<T>(arb: fc.Arbitrary<T>): T {
  return fc.sample(arb, { seed: SEED + sampleIndex++, numRuns: 1 })[0]!
}

/** what the Java objects built from a record insist on, so Kafka prints the record instead of aborting */
type Fix = (def: MessageDef, v: SchemaStruct) => SchemaStruct

function coordinatorRecords(table: SchemaTable, release: KafkaRelease, fix: Fix, perType = 3): Rec[] {
  const out: Rec[] = []
  for (const [type, [keyDef, valueDef]] of [...schemasFor(table, release).coordinator].sort((a, b) => a[0] - b[0])) {
    const kv = keyVersion(keyDef, type)
    for (let i = 0; i < perType; i++) {
      const key = Buffer.concat([i16(type), encodeMessage(keyDef, kv, sample(messageArb(keyDef, kv)))])
      const [lo, hi] = valueDef.validVersions!
      const version = lo + (i % (hi - lo + 1))
      const value = fix(valueDef, sample(messageArb(valueDef, version)))
      out.push({ key, value: Buffer.concat([i16(version), encodeMessage(valueDef, version, value)]) })
    }
    out.push({
      key: Buffer.concat([i16(type), encodeMessage(keyDef, kv, sample(messageArb(keyDef, kv)))]),
      value: null,
    })
  }
  return out
}

function framedRecords(table: SchemaTable, release: KafkaRelease, fix: Fix, perType = 3): Rec[] {
  const out: Rec[] = []
  for (const [apiKey, def] of [...schemasFor(table, release).byApiKey].sort((a, b) => a[0] - b[0])) {
    const [lo, hi] = def.validVersions!
    for (let i = 0; i < perType; i++) {
      const version = lo + (i % (hi - lo + 1))
      const v = fix(def, sample(messageArb(def, version)))
      out.push({
        key: null,
        value: Buffer.concat([uvarint(1), uvarint(apiKey), uvarint(version), encodeMessage(def, version, v)]),
      })
    }
  }
  return out
}

/**
 * ConsumerGroupMemberMetadataValue's tagged ClassicMemberMetadata at the edges of the JsonConverter's default
 * check (the arbitraries never draw a default tagged field): equal to `new ClassicMemberMetadata()` (skipped),
 * null, non-default, and default but carrying an unknown tag of its own (equals() compares those)
 */
function classicMemberEdges(release: KafkaRelease): Rec[] {
  const [keyDef, valueDef] = schemasFor(offsetsTable, release).coordinator.get(5)!
  const key = Buffer.concat([i16(5), encodeMessage(keyDef, keyVersion(keyDef, 5), { groupId: 'g', memberId: 'm' })])
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
  const value = (v: object): Buffer => Buffer.concat([i16(0), encodeMessage(valueDef, 0, { ...base, ...v })])
  const plain = value({})
  // presence 1, sessionTimeoutMs 0, supportedProtocols [] (compact 1), then the struct's own tags: {5: 1 byte}
  const unknownTagInside = Buffer.from([1, 0, 0, 0, 0, 1, 1, 5, 1, 0])
  return [
    { key, value: value({ classicMemberMetadata: { sessionTimeoutMs: 0, supportedProtocols: [] } }) },
    { key, value: value({ classicMemberMetadata: null }) },
    { key, value: value({ classicMemberMetadata: { sessionTimeoutMs: 1, supportedProtocols: [] } }) },
    {
      key,
      value: Buffer.concat([plain.subarray(0, -1), Buffer.from([1, 0, unknownTagInside.length]), unknownTagInside]),
    },
  ]
}

const asIs: Fix = (_d, v) => v
/**
 * JDK 17's Double.toString is not the shortest form for subnormals (JDK-4511638, fixed in JDK 19, where it
 * equals JavaScript's); the JVM here is 17, so quota values stay normal.
 */
const normalDoubles: Fix = (def, v) => {
  const out = { ...v }
  for (const f of def.fields)
    if (
      f.type === 'float64' &&
      typeof out[f.name] === 'number' &&
      Math.abs(out[f.name] as number) < 2.2250738585072014e-308
    )
      out[f.name] = 0.5
  return out
}
/** 3.9/4.0 text: an unknown state id or null transactionPartitions throws and the whole dump aborts */
const knownTxnState: Fix = (_d, v) => {
  const out = {
    ...v,
    transactionStatus: Math.abs(v.transactionStatus as number) % 8,
    transactionPartitions: v.transactionPartitions ?? [],
  }
  // 4.0: TransactionVersion.fromFeatureLevel throws on a level it does not know
  if (out.clientTransactionVersion !== undefined)
    out.clientTransactionVersion = Math.abs(out.clientTransactionVersion as number) % 3
  return out
}
/** RemoteLogSegmentMetadata's constructor checks offsets, epochs and state ids */
const validSegment: Fix = (def, v) => {
  const out = { ...v }
  if ('remoteLogSegmentState' in out) out.remoteLogSegmentState = Math.abs(out.remoteLogSegmentState as number) % 4
  if ('remotePartitionDeleteState' in out)
    out.remotePartitionDeleteState = Math.abs(out.remotePartitionDeleteState as number) % 3
  if ('startOffset' in out) {
    const start = (out.startOffset as bigint) < 0n ? -((out.startOffset as bigint) + 1n) : (out.startOffset as bigint)
    out.startOffset = start
    out.startOffset = start % (1n << 60n)
    out.endOffset = (start % (1n << 60n)) + ((out.endOffset as bigint) < 0n ? 0n : (out.endOffset as bigint) % 1000n)
    if ((out.segmentLeaderEpochs as unknown[]).length === 0)
      out.segmentLeaderEpochs = [{ leaderEpoch: 0, offset: start }]
  }
  void def
  return out
}

interface Topic {
  name: string
  option: string
  since: KafkaRelease
  records: (r: KafkaRelease) => Rec[]
  format: Format
}
const TOPICS: Topic[] = [
  {
    name: '__consumer_offsets',
    option: '--offsets-decoder',
    since: '3.9',
    records: (r) => [...coordinatorRecords(offsetsTable, r, asIs), ...classicMemberEdges(r)],
    format: (x, o, r) => formatOffsetsRecord(x.key, x.value, o, r),
  },
  {
    name: '__transaction_state',
    option: '--transaction-log-decoder',
    since: '3.9',
    records: (r) => coordinatorRecords(txnTable, r, r === '3.9' || r === '4.0' ? knownTxnState : asIs, 12),
    format: (x, o, r) => formatTransactionLogRecord(x.key, x.value, o, r),
  },
  {
    name: '__share_group_state',
    option: '--share-group-state-decoder',
    since: '4.0',
    records: (r) => coordinatorRecords(shareTable, r, asIs, 6),
    format: (x, o, r) => formatShareGroupStateRecord(x.key, x.value, o, r),
  },
  {
    name: '__cluster_metadata',
    option: '--cluster-metadata-decoder',
    since: '3.9',
    records: (r) => framedRecords(metadataTable, r, normalDoubles),
    format: (x, o, r) => formatClusterMetadataRecord(x.value, o, r),
  },
  {
    name: '__remote_log_metadata',
    option: '--remote-log-metadata-decoder',
    since: '3.9',
    records: (r) => framedRecords(rlmmTable, r, validSegment, 6),
    format: (x, o, r) => formatRemoteLogMetadataRecord(x.value, o, r),
  },
]

function dumpWithKafka(version: string, args: string[]): string {
  const lib = path.join(ROOT, '.cache', `kafka-${version}`, 'lib')
  const cls = /^(3\.|4\.[012]\.)/.test(version)
    ? 'kafka.tools.DumpLogSegments'
    : 'org.apache.kafka.tools.DumpLogSegments'
  const r = spawnSync(
    'java',
    ['-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', `${lib}/*`, cls, ...args],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  )
  if (r.status !== 0)
    throw new Error(
      `kafka-dump-log ${version} exited ${r.status}: ${r.stderr
        .split('\n')
        .filter((l) => !l.startsWith('log4j:'))
        .slice(0, 12)
        .join('\n')}`,
    )
  return r.stdout
}

describe("internal-topic text equals each release's kafka-dump-log on random records of every type", () => {
  for (const [release, version] of RELEASES) {
    const lib = path.join(ROOT, '.cache', `kafka-${version}`, 'lib')
    const reason = fs.existsSync(lib)
      ? null
      : `no ${path.relative(ROOT, lib)} (KAFKA_VERSION=${version} scripts/kafka/install.sh)`
    if (reason !== null) console.log(`skipping Kafka ${release}: ${reason}`)
    for (const t of TOPICS) {
      const applies = RELEASES.findIndex(([r]) => r === release) >= RELEASES.findIndex(([r]) => r === t.since)
      it.skipIf(reason !== null || !applies)(`Kafka ${version} ${t.option}`, () => {
        sampleIndex = RELEASES.findIndex(([r]) => r === release) * 1_000_000 + TOPICS.indexOf(t) * 100_000 // replayable per test
        const records = t.records(release)
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-oracle-'))
        try {
          const part = path.join(dir, `${t.name}-0`)
          fs.mkdirSync(part)
          // a few records per batch, offsets consecutive
          const batches: Buffer[] = []
          for (let i = 0; i < records.length; i += 4) {
            batches.push(
              encodeBatch({
                baseOffset: i,
                records: records.slice(i, i + 4).map((r) => ({ key: r.key, value: r.value })),
              }),
            )
          }
          const file = path.join(part, '00000000000000000000.log')
          fs.writeFileSync(file, Buffer.concat(batches))
          const expected = expectedTails(dumpWithKafka(version, [t.option, '--files', file]))
          const got = records.map((r, i) => formattedTail(t.format(r, BigInt(i), release)))
          expect(got.length).toBeGreaterThan(0)
          expect(got).toEqual(expected)
        } finally {
          fs.rmSync(dir, { recursive: true, force: true })
        }
      })
    }
  }
})
