// `tsdump cleanup` against a live 4.4.0 broker on a random seed (issue #22): the seeded random cleanup workload
// (scripts/fixtures/v44/cleanup-random.mjs) writes with the cleaner off, the log dir is copied (before/), the broker
// restarts with the cleaner and retention on until they are done (after/). Predicted on before/ with --now = the first
// clean's start, the broker's cleaner checkpoint, log starts and the records left (after/'s batch headers) are the truth.
//
// Seed: drawn at run time and printed; TSDUMP_CLEANUP_SEED=<n> replays a run.
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-ignore -- untyped .mjs: the broker, the Java workload and the copies
import { runCleanupRandom } from '../../scripts/fixtures/v44/cleanup-random.mjs'
import { runCleanup } from '../../src/commands/cleanup.js'
import type { CleanupCommandOptions } from '../../src/commands/cleanup.js'
import { runCommand } from '../support/txn-segment-builder.js'
import { recordsBelow } from '../support/cleanup-truth.js'

const seed = process.env.TSDUMP_CLEANUP_SEED
  ? Number(process.env.TSDUMP_CLEANUP_SEED)
  : Math.floor(Math.random() * 2 ** 31)
// the workload is written for Kafka 4.4.0 (its Java driver, the fixture's release): under another KAFKA_VERSION
// (.ci/run's 3.9.1 pass) it is skipped with the reason, so that it runs once per .ci/run
const RELEASE = '4.4.0'
const otherRelease = process.env.KAFKA_VERSION !== undefined && process.env.KAFKA_VERSION !== RELEASE
if (otherRelease)
  console.log(
    `[cleanup-random] skipped: the scenario runs on Kafka ${RELEASE}, this pass is KAFKA_VERSION=${process.env.KAFKA_VERSION}`,
  )
else console.log(`[cleanup-random] seed ${seed} (replay with TSDUMP_CLEANUP_SEED=${seed})`)

interface Observed {
  topic: string
  partition: number
  logStartOffset: number
}
interface Answers {
  before: { partitions: Observed[]; checkpoints: Record<string, Record<string, number>> }
  after: { partitions: Observed[]; checkpoints: Record<string, Record<string, number>> }
}
let r: { before: string; after: string; cleanedAt: number | null; answers: Answers; dispose: () => void }
let rows: Array<Record<string, unknown> & { topic: string; partition: number }>

beforeAll(async () => {
  if (otherRelease) return
  r = await runCleanupRandom({ seed })
  const out = await runCommand(async (o: CleanupCommandOptions, ctx) => runCleanup(o, ctx), {
    paths: [r.before],
    format: 'json',
    now: r.cleanedAt ?? Date.now(),
  })
  expect(out.code, out.err).toBeLessThan(2)
  rows = (JSON.parse(out.out) as { partitions: typeof rows }).partitions
})

afterAll(() => {
  r?.dispose()
})

describe.skipIf(otherRelease)(`cleanup on a random workload (seed ${seed}) equals what the 4.4.0 broker did`, () => {
  it('cleaned range, records left and log start of every partition observed', () => {
    expect(r.cleanedAt, 'the broker cleaned something').not.toBeNull()
    const cp = (a: Answers['before'], tp: string): number | undefined =>
      a.checkpoints['cleaner-offset-checkpoint']?.[tp]
    const checked: string[] = []
    for (const o of r.answers.after.partitions) {
      const tp = `${o.topic}-${o.partition}`
      const p = rows.find((x) => x.topic === o.topic && x.partition === o.partition)
      expect(p, tp).toBeDefined()
      const policy = String(p!.cleanupPolicy)
      const after = cp(r.answers.after, tp)
      if (policy.includes('compact')) {
        const cleaned = after !== undefined && after !== cp(r.answers.before, tp)
        expect(p!.cleanableNow, `${tp} cleaned by the broker`).toBe(cleaned)
        if (cleaned) {
          expect(p!.firstUncleanableOffset, tp).toBe(after)
          expect(p!.cleanedUpTo, tp).toBe(after)
          expect(p!.recordsAfterCleaning, tp).toBe(recordsBelow(path.join(r.after, tp), after!).data)
          checked.push(
            `${tp} cleaned to ${after} (${String(p!.uncleanableBecause)}), ${String(p!.recordsAfterCleaning)} records left`,
          )
        }
      }
      if (policy.includes('delete')) {
        expect(p!.logStartOffsetAfterRetention, tp).toBe(o.logStartOffset)
        checked.push(`${tp} log start ${o.logStartOffset}`)
      }
    }
    console.log(`[cleanup-random] seed ${seed}: ${checked.join('; ')}`)
    // the workload always has a compacted topic the cleaner cleans and a delete-policy one
    expect(checked.some((c) => c.includes('cleaned to'))).toBe(true)
    expect(checked.some((c) => c.includes('log start'))).toBe(true)
  })
})
