// `tsdump cleanup` on the cleanup fixture (fixtures/broker-4.4/cleanup): predicted on before/ with --now = cleanedAt,
// what the 4.4.0 broker did in after/ is the truth. The cleaner's checkpoint and the log starts come from expected.json
// (the broker's own files, checked against the copies by test/fixtures/cleanup-fixture.test.ts); the records left come
// from after/'s segments read with a batch-header reader of the tests' own (test/support/cleanup-truth.ts), not tsdump's.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCleanup } from '../../src/commands/cleanup.js'
import type { CleanupCommandOptions } from '../../src/commands/cleanup.js'
import { runCommand } from '../support/txn-segment-builder.js'
import { REPO_ROOT } from '../support/paths.js'
import { batchRanges as ranges, recordsBelow as below } from '../support/cleanup-truth.js'
import { linesOver } from '../support/width.js'

const DIR = path.join(REPO_ROOT, 'fixtures/broker-4.4/cleanup')

interface Summary {
  topic: string
  partition: number
  cleanerCheckpointBefore: number | null
  cleanerCheckpointAfter: number | null
  logStartOffsetAfter: number
}
interface Expected {
  cleanedAt: number
  summary: Summary[]
  configs: Record<string, { configs: Record<string, { value: string; source: string | null }> }>
  transactions: Array<{ rows: Array<{ ProducerId: string; ProducerEpoch: string; TopicPartitions: string }> }>
  producers: Array<{
    topic: string
    partition: number
    rows: Array<{ ProducerId: string; CurrentTransactionStartOffset: string }>
  }>
  after: {
    partitions: Array<{
      topic: string
      partition: number
      records?: { readUncommitted: Array<{ offset: number; value: string | null }> }
    }>
  }
  before: {
    partitions: Array<{
      topic: string
      partition: number
      records?: { readCommitted: Array<{ offset: number; key: string }> }
    }>
  }
}
const expected = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Expected
const batchRanges = (copy: string, part: string): Array<[number, number]> => ranges(path.join(DIR, copy, part))
const recordsBelow = (part: string, end: number): { data: number; markers: number } =>
  below(path.join(DIR, 'after', part), end)

type Row = Record<string, unknown> & { topic: string; partition: number; findings: Array<{ code: string }> }
async function cleanupJson(
  opts: Partial<CleanupCommandOptions> & { paths: string[] },
): Promise<{ code: number; rows: Row[]; out: string }> {
  const r = await runCommand(async (o: CleanupCommandOptions, ctx) => runCleanup(o, ctx), { format: 'json', ...opts })
  expect(r.err).toBe('')
  const doc = JSON.parse(r.out) as { schemaVersion: number; partitions: Row[] }
  expect(doc.schemaVersion).toBe(1)
  return { code: r.code, rows: doc.partitions, out: r.out }
}

describe('cleanup predicts what the Kafka 4.4.0 cleaner and retention did (fixtures/broker-4.4/cleanup)', async () => {
  const { rows } = await cleanupJson({ paths: [path.join(DIR, 'before')], now: expected.cleanedAt })
  const row = (s: { topic: string; partition: number }): Row =>
    rows.find((r) => r.topic === s.topic && r.partition === s.partition)!

  it('reports every partition of the fixture, the metadata log aside', () => {
    expect(rows.map((r) => `${r.topic}-${r.partition}`).sort()).toEqual(
      expected.summary.map((s) => `${s.topic}-${s.partition}`).sort(),
    )
  })

  it.each(expected.summary.map((s) => [`${s.topic}-${s.partition}`, s] as const))(
    "%s: cleaned range, records left and log start equal the broker's",
    (_n, s) => {
      const r = row(s)
      const cfg = expected.configs[s.topic]!.configs
      expect(r.cleanupPolicy).toBe(cfg['cleanup.policy']!.value)
      if (cfg['cleanup.policy']!.value.includes('compact')) {
        const cleaned = s.cleanerCheckpointAfter !== null && s.cleanerCheckpointAfter !== s.cleanerCheckpointBefore
        expect(r.firstDirtyOffset).toBe(s.cleanerCheckpointBefore ?? 0)
        expect(r.cleanableNow, 'cleaned by the broker').toBe(cleaned)
        if (cleaned) {
          expect(r.firstUncleanableOffset).toBe(s.cleanerCheckpointAfter)
          expect(r.cleanedUpTo).toBe(s.cleanerCheckpointAfter)
          const left = recordsBelow(`${s.topic}-${s.partition}`, s.cleanerCheckpointAfter!)
          expect(r.recordsAfterCleaning).toBe(left.data)
          expect((r.markers as { kept: number }).kept, 'markers kept').toBe(left.markers)
          // the tombstones a Java consumer still read below the checkpoint (value null), where expected.json lists records
          const read = expected.after.partitions.find((p) => p.topic === s.topic && p.partition === s.partition)
            ?.records?.readUncommitted
          if (read !== undefined)
            expect((r.tombstones as { kept: number }).kept).toBe(
              read.filter((x) => x.offset < s.cleanerCheckpointAfter! && x.value === null).length,
            )
        }
      } else {
        expect(r.firstUncleanableOffset).toBeNull()
      }
      if (cfg['cleanup.policy']!.value.includes('delete'))
        expect(r.logStartOffsetAfterRetention).toBe(s.logStartOffsetAfter)
      else expect(r.logStartOffsetAfterRetention).toBeNull()
    },
  )

  it('names the rule that binds: the open transaction, the active segment, min.compaction.lag.ms', () => {
    const held = expected.transactions[0]!.rows[0]!
    const heldParts = held.TopicPartitions.split(',')
    expect(heldParts.length).toBeGreaterThan(0)
    for (const tp of heldParts) {
      const r = rows.find((x) => `${x.topic}-${x.partition}` === tp)!
      expect(r.uncleanableBecause, tp).toBe('last-stable-offset')
      const b = r.blockedBy as { producerId: number; producerEpoch: number; firstOffset: number; commands: string[] }
      expect(b.producerId).toBe(Number(held.ProducerId))
      expect(b.producerEpoch).toBe(Number(held.ProducerEpoch))
      const start = expected.producers
        .find((p) => `${p.topic}-${p.partition}` === tp)!
        .rows.find((x) => x.ProducerId === held.ProducerId)!.CurrentTransactionStartOffset
      expect(b.firstOffset).toBe(Number(start))
      expect(b.commands[0]).toBe(
        `kafka-transactions.sh --bootstrap-server localhost:9092 abort --topic ${r.topic} --partition ${r.partition} --start-offset ${start}`,
      )
    }
    expect(row({ topic: 'cu-lag', partition: 0 }).uncleanableBecause).toBe('min-compaction-lag')
    expect(row({ topic: 'cu-compact', partition: 0 }).uncleanableBecause).toBe('active-segment')
    for (const r of rows.filter((x) => x.uncleanableBecause !== 'last-stable-offset')) expect(r.blockedBy).toBeNull()
  })

  it('configs and their sources equal what kafka-configs.sh --describe --all said', () => {
    for (const r of rows) {
      const got = r.configs as Record<string, { value: string; source: string }>
      const want = expected.configs[r.topic]!.configs
      // the cleaner's own broker configs (log.cleaner.*) are not topic configs: describe --all of a topic has none
      const topicNames = Object.keys(got).filter((n) => !n.startsWith('log.cleaner.'))
      // 9 of the cleaner and retention, 3 of tiered storage (remote.storage.enable, local.retention.ms/bytes)
      expect(topicNames.length).toBe(12)
      for (const name of topicNames) {
        const c = got[name]!
        const w = want[name]!
        expect(c.value, `${r.topic} ${name}`).toBe(w.value)
        if (w.source !== null) expect(c.source, `${r.topic} ${name}`).toBe(w.source)
      }
    }
  })

  it('the text fits 80 columns', async () => {
    const r = await runCommand(async (o: CleanupCommandOptions, ctx) => runCleanup(o, ctx), {
      paths: [path.join(DIR, 'before')],
      now: expected.cleanedAt,
      top: 3,
    })
    expect(r.out).toContain('cu-lso-0')
    expect(r.out).toContain(
      `held by the open transactional offset commit of producer ${expected.transactions[0]!.rows[0]!.ProducerId}`,
    )
    expect(linesOver(r.out, [path.join(DIR, 'before')])).toEqual([])
  })
})

describe('cleanup without the metadata log: --config, defaults and a bad checkpoint', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-cleanup-'))
  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true })
  })
  const lag = path.join(tmp, 'cu-lag-0')
  fs.cpSync(path.join(DIR, 'before', 'cu-lag-0'), lag, { recursive: true })

  it('takes --config over the default, says where each value came from, and reports the missing checkpoint', async () => {
    const { rows } = await cleanupJson({
      paths: [lag],
      now: expected.cleanedAt,
      configs: new Map([
        ['cleanup.policy', 'compact'],
        ['log.cleaner.min.compaction.lag.ms', '3600000'],
      ]),
    })
    const r = rows[0]!
    const configs = r.configs as Record<string, { value: string; source: string }>
    expect(configs['min.compaction.lag.ms']).toEqual({ value: '3600000', source: '--config' })
    expect(configs['delete.retention.ms']).toEqual({ value: '86400000', source: 'DEFAULT_CONFIG' })
    expect(r.uncleanableBecause).toBe('min-compaction-lag')
    expect(r.firstUncleanableOffset).toBe(expected.summary.find((s) => s.topic === 'cu-lag')!.cleanerCheckpointAfter)
    expect(r.findings.map((f) => f.code)).toContain('CLEANER_CHECKPOINT_UNREADABLE')
  })

  it('a checkpoint beyond the log end is reset to the log start (LogCleanerManager.cleanableOffsets), with a finding', async () => {
    fs.writeFileSync(path.join(tmp, 'cleaner-offset-checkpoint'), '0\n1\ncu-lag 0 999\n')
    const { rows, code } = await cleanupJson({
      paths: [lag],
      now: expected.cleanedAt,
      configs: new Map([['cleanup.policy', 'compact']]),
    })
    expect(rows[0]!.firstDirtyOffset).toBe(0)
    expect(rows[0]!.findings.map((f) => f.code)).toContain('CLEANER_CHECKPOINT_OUT_OF_RANGE')
    expect(code).toBe(1)
    // without min.compaction.lag.ms the active segment binds
    expect(rows[0]!.uncleanableBecause).toBe('active-segment')
  })
})

describe("cleanup: a full offset map stops the clean where Kafka's does (Cleaner.buildOffsetMapForSegment)", () => {
  it("log.cleaner.dedupe.buffer.size of 4 slots (3 keys at load factor 0.9): the clean ends before the 4th key's batch", async () => {
    const { rows } = await cleanupJson({
      paths: [path.join(DIR, 'before', 'cu-compact-0')],
      now: expected.cleanedAt,
      configs: new Map([['log.cleaner.dedupe.buffer.size', String(4 * 24)]]),
    })
    const r = rows[0]!
    const from = expected.summary.find((s) => s.topic === 'cu-compact')!.cleanerCheckpointBefore!
    // the keys a Java read_committed consumer read in the dirty section (aborted data is never mapped), in offset order
    const read = expected.before.partitions
      .find((p) => p.topic === 'cu-compact')!
      .records!.readCommitted.filter((x) => x.offset >= from)
    // once the map holds 3 keys, the next record is refused, whatever its key: the map is full
    const seen = new Set<string>()
    const third = read.findIndex((x) => {
      seen.add(x.key)
      return seen.size === 3
    })
    const fourth = read[third + 1]!
    // the batch holding that record is not mapped: the map's latest offset is the previous batch's last offset
    const ranges = batchRanges('before', 'cu-compact-0')
    const i = ranges.findIndex(([b, l]) => b <= fourth.offset && fourth.offset <= l)
    expect(r.dirtyKeys).toEqual({ count: 3, offsetMapFull: true })
    expect(r.cleanedUpTo).toBe(ranges[i - 1]![1] + 1)
    expect(r.cleanedUpTo).toBeLessThan(expected.summary.find((s) => s.topic === 'cu-compact')!.cleanerCheckpointAfter!)
  })
})
