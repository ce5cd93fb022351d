// The Flink fixture's run, live (Kafka 4.4.0 pass only): scripts/flink's real Flink 2.2 job with INCREMENTING ids is
// halted inside its committer, its pre-committed transactions time out, it is restored with parallelism 2 (the
// flink-incrementing scenario, scripts/flink/incrementing.mjs). Then, the broker stopped, `tsdump transactions` on
// its log directory must call exactly the transactions the job held in its committer lost, with as many records as
// the inputs no read_committed consumer read, and the subtasks that wrote must be the job's parallelism before and after.
// Skips itself, saying why, under 3.9.1 (the connector needs the 4.x broker's transaction APIs it was written for)
// or without mvn (the job's 49 jars come from Maven Central).
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transactions } from '../../src/commands/transactions.js'
import type { FlinkSink } from '../../src/analysis/transaction-join/flink-ids.js'
// @ts-ignore -- untyped .mjs helpers shared with the fixture generator
import * as L from '../../scripts/fixtures/lib.mjs'

const RELEASE: string = L.KAFKA_VERSION
const hasMvn = ((): boolean => {
  try {
    execFileSync('mvn', ['-v'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
const why =
  RELEASE !== '4.4.0'
    ? `Kafka ${RELEASE}: the Flink fixture runs against the 4.4.0 broker only`
    : !hasMvn
      ? "mvn not found: the Flink job's jars cannot be resolved"
      : null

let broker: any
let result: any
let logs: string
let sink: FlinkSink | undefined
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-flink-live-'))

beforeAll(async () => {
  if (why !== null) return
  // @ts-ignore -- untyped .mjs scenario module
  const inc = await import('../../scripts/flink/incrementing.mjs')
  broker = await L.startBroker({ name: 'flink-live', props: inc.brokerProps })
  const t0 = Date.now()
  result = await inc.run({ broker })
  console.log(
    `[flink] job halted, timed out and restored in ${Date.now() - t0} ms; held ${result.more.flink.heldInCommitter.join(', ')}`,
  )
  await broker.stop()
  logs = L.copyLogs(broker.logDir, tmp, result.copy)
  const r = transactions([logs])
  if (r.unusable.length > 0) throw new Error(`tsdump could not read ${logs}`)
  sink = r.flinkSinks?.[0]
})

afterAll(async () => {
  if (broker) {
    await broker.stop().catch(() => {})
    L.removeBrokerDir(broker)
  }
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe(`Flink 2.2 KafkaSink halted in its committer, live (Kafka ${RELEASE})`, () => {
  it('the lost transactions are the ones held in the committer, their records the inputs never read_committed', (ctx) => {
    if (why !== null) {
      console.log(`[flink] skipped: ${why}`)
      ctx.skip()
    }
    const f = result.more.flink
    expect(f.inputsNeverReadCommitted.length, 'the timed-out transactions held records').toBeGreaterThan(0)
    expect(sink?.naming).toBe('INCREMENTING')
    expect(sink!.lost.map((l) => l.transactionalId).sort()).toEqual([...f.heldInCommitter].sort())
    expect(sink!.lost.reduce((n, l) => n + l.records, 0)).toBe(f.inputsNeverReadCommitted.length)
    expect(sink!.phases[0]!.subtasks).toEqual([0, 1, 2])
    expect(sink!.phases[1]!.subtasks).toEqual([0, 1])
  })
})
