import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runReconcile } from '../../src/commands/reconcile.js'
import { runCommand } from '../support/txn-segment-builder.js'

// fixtures/broker/<scenario>/expected.json against reconcile on <scenario>/logs. The HW and LSO come from the broker
// (Admin API ListOffsets), the record counts from Kafka's Java consumer (kafka-console-consumer, one run per
// partition and isolation level: expected.json countedWith.javaConsumer), so every count must be equal, with
// interleaved aborted transactions too: reconcile applies the Java consumer's rule (CompletedFetch).
// (The kafkajs counts stored beside them are for reference only: kafkajs's read_committed filter shows
// aborted records with interleaved aborts; fixtures/README.md.)
const BROKER = path.resolve(__dirname, '../../fixtures/broker')

interface ExpectedPartition {
  topic: string
  partition: number
  highWatermark?: number
  lastStableOffset?: number
  readCommittedRecords?: number
  readUncommittedRecords?: number
}
interface Expected {
  partitions?: ExpectedPartition[]
  countedWith?: { javaConsumer?: string }
}

const all = fs.existsSync(BROKER)
  ? fs
      .readdirSync(BROKER)
      .filter(
        (s) => fs.existsSync(path.join(BROKER, s, 'expected.json')) && fs.existsSync(path.join(BROKER, s, 'logs')),
      )
  : []
const readExpected = (s: string): Expected =>
  JSON.parse(fs.readFileSync(path.join(BROKER, s, 'expected.json'), 'utf8')) as Expected
/** KRaft metadata scenarios carry no partition facts: test/fixtures/kraft.test.ts checks them */
const isKraftMetadata = (s: string): boolean =>
  (readExpected(s) as { extra?: { metadataTopics?: unknown } }).extra?.metadataTopics !== undefined
const scenarios = all.filter((s) => !isKraftMetadata(s))

describe('reconcile against real broker fixtures', () => {
  it('finds the broker fixtures', () => {
    expect(scenarios.length).toBeGreaterThan(0)
  })
  for (const s of scenarios) {
    it(s, async () => {
      const json = readExpected(s)
      const expected = json.partitions ?? []
      // a scenario that asserts nothing is a broken fixture, not a pass
      expect(expected.length, `${s}: expected.json lists no partitions`).toBeGreaterThan(0)
      for (const e of expected) {
        expect(
          [e.highWatermark, e.lastStableOffset, e.readCommittedRecords, e.readUncommittedRecords].some(
            (v) => v !== undefined,
          ),
          `${s} ${e.topic}-${e.partition}: no fact to check`,
        ).toBe(true)
      }
      if (expected.some((e) => e.readCommittedRecords !== undefined)) {
        expect(json.countedWith?.javaConsumer, `${s}: the counts are not the Java consumer's`).toMatch(
          /readCommittedRecords/,
        )
      }
      const r = await runCommand(runReconcile, { paths: [path.join(BROKER, s, 'logs')], format: 'json' })
      expect(r.code).toBeLessThan(2)
      const got = (JSON.parse(r.out) as { partitions: Array<Record<string, unknown>> }).partitions
      for (const e of expected) {
        const p = got.find((x) => x.topic === e.topic && x.partition === e.partition)
        expect(p, `${e.topic}-${e.partition}`).toBeDefined()
        if (e.highWatermark !== undefined)
          expect(p!.highWatermark, `${e.topic}-${e.partition} HW`).toBe(e.highWatermark)
        if (e.lastStableOffset !== undefined)
          expect(p!.lastStableOffset, `${e.topic}-${e.partition} LSO`).toBe(e.lastStableOffset)
        if (e.readCommittedRecords !== undefined)
          expect(p!.readCommitted, `${e.topic}-${e.partition} read_committed`).toBe(e.readCommittedRecords)
        if (e.readUncommittedRecords !== undefined)
          expect(p!.readUncommitted, `${e.topic}-${e.partition} read_uncommitted`).toBe(e.readUncommittedRecords)
      }
    })
  }
})
