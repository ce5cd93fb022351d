// Kafka Streams attribution against what the real application did (fixtures/broker-4.4/streams-eos, written by
// Kafka Streams 4.4.0 with exactly_once_v2, scripts/fixtures/v44/streams-eos.mjs): its transactional ids as the
// coordinator listed them, the process id the stateful application kept in its state directory, and what each restart
// did to the transaction the halted run left open (the broker's describeTransactions after every step).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { doctor } from '../../../src/commands/doctor.js'
import { lso } from '../../../src/commands/lso.js'
import { transactions } from '../../../src/commands/transactions.js'
import { parseStreamsId } from '../../../src/analysis/transaction-join/streams-ids.js'
import type { StreamsApplication } from '../../../src/analysis/transaction-join/streams-ids.js'

const DIR = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'broker-4.4', 'streams-eos')
const exists = fs.existsSync(path.join(DIR, 'expected.json'))

interface Described {
  transactionalId: string
  state: string
  producerEpoch: number
  transactionTimeoutMs: number
  transactionStartTimeMs: number | null
  topicPartitions: string[]
}
interface Step {
  step: string
  observed: {
    at: number
    inputsNotInReadCommittedOutput: Record<string, string[]>
    listTransactions: Array<{ transactionalId: string; state: string }>
    describeTransactions: Described[]
  }
}
interface App {
  transactionalIds: string[]
  haltedRun?: string
  processFile?: string
  transactionTimeoutMs: number
}
interface Expected {
  streams: { applications: Record<string, App>; steps: Step[] }
}

function load(): { e: Expected; apps: Map<string, StreamsApplication> } {
  const e = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Expected
  const r = transactions([path.join(DIR, 'logs')], { now: Date.parse('2030-01-01T00:00:00Z') })
  if (r.unusable.length > 0) throw new Error('unusable paths')
  return { e, apps: new Map((r.streams ?? []).map((a) => [a.applicationId, a])) }
}
const step = (e: Expected, prefix: string): Step => e.streams.steps.find((s) => s.step.startsWith(prefix))!
const described = (s: Step, id: string): Described | undefined =>
  s.observed.describeTransactions.find((d) => d.transactionalId === id)

describe('Kafka Streams attribution on the streams-eos fixture', () => {
  it("names each application's process ids and threads as the coordinator listed its ids", (ctx) => {
    if (!exists) ctx.skip('fixture not generated: node scripts/generate-fixtures.mjs --kafka-version 4.4.0 streams-eos')
    const { e, apps } = load()
    expect([...apps.keys()].sort()).toEqual(Object.keys(e.streams.applications).sort())
    for (const [name, app] of Object.entries(e.streams.applications)) {
      const a = apps.get(name)!
      const ids = app.transactionalIds.map((id) => parseStreamsId(id)!)
      expect(ids.every((x) => x.applicationId === name)).toBe(true)
      expect([...a.processIds].sort()).toEqual([...new Set(ids.map((x) => x.processId))].sort())
      expect(a.churn).toBe(a.processIds.length - 1)
      expect(a.threads).toEqual([...new Set(ids.map((x) => x.thread))].sort())
    }
    // the stateful application kept one process id, the one in its state directory's kafka-streams-process-metadata
    const se = apps.get('se-app')!
    expect(se.processIds).toHaveLength(1)
    expect(e.streams.applications['se-app']!.processFile).toContain(se.processIds[0])
    expect(se.stores).toEqual(['counts'])
    expect(apps.get('sl-app')!.processIds).toHaveLength(2)
    expect(apps.get('sl-app')!.stores).toEqual([])
  })

  it("the stateless run's transaction: a restart leaves it to the timeout, as the broker showed", (ctx) => {
    if (!exists) ctx.skip('fixture not generated')
    const { e, apps } = load()
    const halted = e.streams.applications['sl-app']!.haltedRun!
    const j = apps.get('sl-app')!.judged.filter((t) => t.transactionalId === halted)
    expect(j).toHaveLength(1)
    expect(j[0]!.restart).toBe('lingers')
    // the broker: the restart ran under another transactional id (a new process id), so nothing but the coordinator's
    // timeout could end the halted run's transaction: Ongoing after the halt, CompleteAbort once start + timeout passed
    const ids = e.streams.applications['sl-app']!.transactionalIds
    expect(ids.filter((id) => id !== halted)).toHaveLength(1)
    const after = described(step(e, 'sl-app run 1 halted'), halted)!
    expect(after.state).toBe('Ongoing')
    const timedOut = step(e, 'sl-app run 1 transaction after')
    expect(described(timedOut, halted)!.state).toBe('CompleteAbort')
    expect(timedOut.observed.at).toBeGreaterThan(after.transactionStartTimeMs! + after.transactionTimeoutMs)
    // and nothing was lost: the next run processed that input again (no input missing from read_committed output)
    expect(j[0]!.why).toContain('processes it again: the output is delayed, not lost')
    expect(step(e, 'se-app run 2').observed).toMatchObject({ inputsNotInReadCommittedOutput: { 'sl-out': [] } })
    expect(j[0]!.deadline).toBe(BigInt(after.transactionStartTimeMs!) + BigInt(after.transactionTimeoutMs))
  })

  it("the stateful run's transaction: a restart fences it, as the restart on the same state directory did", (ctx) => {
    if (!exists) ctx.skip('fixture not generated')
    const { e, apps } = load()
    const se = apps.get('se-app')!
    const open = se.judged.filter((t) => t.outcome === 'open')
    expect(open).toHaveLength(1)
    expect(open[0]!.restart).toBe('fences')
    // the broker: run 1's open transaction was gone right after the restart with the same id, long before its deadline
    const id = open[0]!.transactionalId
    const before = described(step(e, 'se-app run 1'), id)!
    const after = step(e, 'se-app run 2')
    const now = described(after, id)!
    expect(before.state).toBe('Ongoing')
    expect(now.transactionStartTimeMs).not.toBe(before.transactionStartTimeMs)
    expect(after.observed.at).toBeLessThan(before.transactionStartTimeMs! + before.transactionTimeoutMs)
    // its changelog partitions are those the coordinator lists in the open transaction
    expect(open[0]!.changelogs).toEqual(now.topicPartitions.filter((p) => p.includes('-changelog-')).sort())
    expect(open[0]!.changelogs.length).toBeGreaterThan(0)
  })

  it('lso and doctor give the open transaction the same verdict as transactions (one rule), the one the restart bore out', (ctx) => {
    if (!exists) ctx.skip('fixture not generated')
    const { apps } = load()
    const open = apps.get('se-app')!.judged.filter((t) => t.outcome === 'open')
    expect(open).toHaveLength(1)
    const now = Date.parse('2030-01-01T00:00:00Z')
    const impact = lso([path.join(DIR, 'logs')], { now }).impact!.filter((i) => i.streamsRestart !== null)
    expect(impact.map((i) => i.transactionalId)).toEqual([open[0]!.transactionalId])
    expect(impact[0]!.streamsRestart).toEqual({ applicationId: 'se-app', restart: open[0]!.restart, why: open[0]!.why })
    // doctor words it in every finding about that transaction's partitions
    const said = doctor([path.join(DIR, 'logs')], { now }).findings.filter((f) =>
      f.message.includes('Kafka Streams application se-app: '),
    )
    expect(said.length).toBeGreaterThan(0)
    for (const f of said)
      expect(f.message).toContain(`Kafka Streams application se-app: a restart FENCES it: ${open[0]!.why}`)
  })
})
