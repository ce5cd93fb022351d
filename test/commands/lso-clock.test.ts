// Issue 12 item 1: `lso` measures a transaction's age against the clock (or --now), as
// `kafka-transactions.sh find-hanging` does, and prints find-hanging's table. The truth is the live broker's
// describe-producers output stored in fixtures/broker/open-txn/expected.json and Kafka's own dump of the log.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, TEST_NOW } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

interface ProducerRow {
  ProducerId: string
  ProducerEpoch: string
  LatestCoordinatorEpoch: string
  LastTimestamp: string
  CurrentTransactionStartOffset: string
}
interface Expected {
  partitions: Array<{
    topic: string
    partition: number
    highWatermark: number
    lastStableOffset: number
    readCommittedRecords: number
    readUncommittedRecords: number
  }>
  producers: Array<{ topic: string; partition: number; rows: ProducerRow[] }>
}
interface HangingRow {
  topic: string
  partition: number
  producerId: number
  producerEpoch: number
  coordinatorEpoch: number
  firstOffset: number
  lastTimestamp: number
  durationMinutes: number
}
interface LsoJson {
  now: number
  hanging: boolean
  hangingTransactions: HangingRow[]
  partitions: Array<{
    blocking: {
      hanging: boolean
      recordsWaiting: number
      abortedBeyondLso: number
      ageMs: number
      lastTimestampIso: string
    }
  }>
}

const dir = path.join(FIXTURES, 'open-txn')
const logs = path.join(dir, 'logs')
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected
const part = expected.partitions[0]!
const open = expected.producers[0]!.rows.find((r) => r.CurrentTransactionStartOffset !== 'None')!
const last = Number(open.LastTimestamp)
const MIN = 60_000

/** records of aborted transactions at or after `from`, from kafka-dump-log's own --deep-iteration output */
function abortedFromKafkaDump(from: number): number {
  const text = fs.readFileSync(path.join(dir, 'dump/stuck-0/00000000000000000000.log.deep.txt'), 'utf8')
  const pending = new Map<string, number[]>()
  let aborted = 0
  const lines = text.split('\n')
  lines.forEach((l, i) => {
    if (!l.startsWith('baseOffset:')) return
    const pid = /producerId: (-?\d+)/.exec(l)![1]!
    if (l.includes('isControl: true')) {
      // Kafka names the marker type on the control record's line, after the batch line
      if ((lines[i + 1] ?? '').includes('endTxnMarker: ABORT'))
        aborted += (pending.get(pid) ?? []).filter((o) => o >= from).length
      pending.delete(pid)
    } else if (l.includes('isTransactional: true')) {
      const [a, b] = [Number(/baseOffset: (\d+)/.exec(l)![1]), Number(/lastOffset: (\d+)/.exec(l)![1])]
      for (let o = a; o <= b; o++) (pending.get(pid) ?? pending.set(pid, []).get(pid)!).push(o)
    }
  })
  return aborted
}

describe('lso against the clock (open-txn fixture)', () => {
  it('without --now, by the clock of its context, the transaction begun on 2026-11-29 is hanging: exit 1, find-hanging row = describe-producers row', async () => {
    // the context's clock (the process's in the CLI), here a fixed one: a test never depends on the machine's
    const before = TEST_NOW
    const r = await runCli(['lso', '--json', logs], { now: TEST_NOW })
    const after = TEST_NOW
    expect(r.code).toBe(1)
    const j = JSON.parse(r.stdout) as LsoJson
    expect(j.now).toBe(before)
    expect(j.hanging).toBe(true)
    expect(j.hangingTransactions).toHaveLength(1)
    const row = j.hangingTransactions[0]!
    expect(row).toMatchObject({
      topic: part.topic,
      partition: part.partition,
      producerId: Number(open.ProducerId),
      producerEpoch: Number(open.ProducerEpoch),
      coordinatorEpoch: Number(open.LatestCoordinatorEpoch),
      firstOffset: Number(open.CurrentTransactionStartOffset),
      lastTimestamp: last,
    })
    // find-hanging: TimeUnit.MILLISECONDS.toMinutes(now - lastTimestamp)
    expect(row.durationMinutes).toBeGreaterThanOrEqual(Math.floor((before - last) / MIN))
    expect(row.durationMinutes).toBeLessThanOrEqual(Math.floor((after - last) / MIN))
    expect(j.partitions[0]!.blocking.hanging).toBe(true)
  })

  it('with --now just after its last timestamp it is not hanging: exit 0, both as epoch ms and as ISO-8601', async () => {
    for (const now of [String(last + 1000), new Date(last + 1000).toISOString()]) {
      const r = await runCli(['lso', '--json', '--now', now, logs])
      expect(r.code).toBe(0)
      const j = JSON.parse(r.stdout) as LsoJson
      expect(j.now).toBe(last + 1000)
      expect(j.hanging).toBe(false)
      expect(j.hangingTransactions).toEqual([])
      expect(j.partitions[0]!.blocking).toMatchObject({
        hanging: false,
        ageMs: 1000,
        lastTimestampIso: new Date(last).toISOString(),
      })
    }
  })

  it('hanging means older than the timeout, strictly (find-hanging: duration > max transaction timeout)', async () => {
    const at = async (now: number, extra: string[] = []): Promise<number> =>
      (await runCli(['lso', '--now', String(now), ...extra, logs])).code
    expect(await at(last + 15 * MIN)).toBe(0)
    expect(await at(last + 15 * MIN + 1)).toBe(1)
    expect(await at(last + 15 * MIN + 1, ['--max-transaction-timeout', '20'])).toBe(0)
  })

  it('"records waiting" leaves out records of transactions already aborted', async () => {
    const j = JSON.parse((await runCli(['lso', '--json', '--now', String(last), logs])).stdout) as LsoJson
    const beyondLso = part.readUncommittedRecords - part.readCommittedRecords // Java consumer counts: 18 - 3
    const aborted = abortedFromKafkaDump(part.lastStableOffset)
    expect(aborted).toBeGreaterThan(0)
    expect(j.partitions[0]!.blocking.recordsWaiting).toBe(beyondLso - aborted)
    expect(j.partitions[0]!.blocking.abortedBeyondLso).toBe(aborted)
  })

  it("the text output has the table within 80 columns, ISO times, the coordinator epoch explained; --wide has Kafka's headers", async () => {
    const r = await runCli(['lso', '--now', String(last + 20 * MIN), logs])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`${Math.max(0, Number(open.LatestCoordinatorEpoch))}: --start-offset reads -1`)
    expect(r.stdout).toMatch(/LatestCoordinatorEpoch\s/)
    expect(r.stdout).toContain(`last timestamp  ${new Date(last).toISOString()} (${last})`)
    const tableLines = r.stdout
      .slice(r.stdout.indexOf('hanging transactions'))
      .split('\n')
      .slice(1)
      .filter((l) => l !== '')
    expect(tableLines[0]).toMatch(/^Topic\s+Part\s+PID\s+Epoch\s+CoordEpoch\s+Start\s+Last \(UTC\)\s+Min$/)
    expect(tableLines[1]!.split(/\s+/)).toEqual([
      part.topic,
      String(part.partition),
      open.ProducerId,
      open.ProducerEpoch,
      open.LatestCoordinatorEpoch,
      open.CurrentTransactionStartOffset,
      new Date(last).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      '20',
    ])
    for (const l of tableLines) expect(l.length).toBeLessThanOrEqual(80)
    const wide = await runCli(['lso', '--wide', '--now', String(last + 20 * MIN), logs])
    const w = wide.stdout.slice(wide.stdout.indexOf('hanging transactions')).split('\n')
    expect(w[1]!.split(/\s+/).slice(0, 8)).toEqual([
      'Topic',
      'Partition',
      'ProducerId',
      'ProducerEpoch',
      'CoordinatorEpoch',
      'StartOffset',
      'LastTimestamp',
      'LastTimestamp(ISO)',
    ])
    expect(w[2]!.split(/\s+/)[6]).toBe(open.LastTimestamp)
  })

  it('a --now that is not a time is a usage error', async () => {
    for (const bad of ['yesterday', '2026-11-29T15:00:00', '12e3']) {
      const r = await runCli(['lso', '--now', bad, logs])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
    }
  })
})
