// lso's impact-first numbers against the brokers' and the stored kafka-dump-log text: per topic what
// read_committed consumers see (the Java consumer's counts in expected.json), the committed records waiting behind
// the open transaction (counted here from kafka-dump-log's deep text: records at or above the broker's LSO in
// batches that are not transactional or whose producer's next marker is a COMMIT), its own records, and the
// coordinator's deadline (kafka-transactions.sh describe: CurrentTransactionStartTimeMs + TransactionTimeoutMs).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { shellJoined } from '../support/width.js'
import { lso } from '../../src/commands/lso.js'

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures')

interface Batch {
  base: number
  last: number
  count: number
  pid: number
  txn: boolean
  control: boolean
  marker: string | null
}

/** the batches of a partition from kafka-dump-log --deep-iteration's stored text, every segment in order */
function dumpBatches(dumpDir: string): Batch[] {
  const out: Batch[] = []
  for (const f of fs
    .readdirSync(dumpDir)
    .filter((x) => x.endsWith('.log.deep.txt'))
    .sort()) {
    for (const line of fs.readFileSync(path.join(dumpDir, f), 'utf8').split('\n')) {
      const b =
        /^baseOffset: (\d+) lastOffset: (\d+) count: (\d+) .*producerId: (-?\d+) .*isTransactional: (\w+) isControl: (\w+)/.exec(
          line,
        )
      if (b !== null) {
        out.push({
          base: Number(b[1]),
          last: Number(b[2]),
          count: Number(b[3]),
          pid: Number(b[4]),
          txn: b[5] === 'true',
          control: b[6] === 'true',
          marker: null,
        })
        continue
      }
      const m = /endTxnMarker: (COMMIT|ABORT)/.exec(line)
      if (m !== null) out[out.length - 1]!.marker = m[1]!
    }
  }
  return out
}

/** records at or above `lso` that committed (or were never transactional), and those of producers with no marker after them */
function behind(batches: readonly Batch[], lso: number): { committed: number; open: Map<number, number> } {
  let committed = 0
  const open = new Map<number, number>()
  batches.forEach((b, i) => {
    if (b.control || b.last < lso) return
    if (!b.txn) {
      committed += b.count
      return
    }
    const end = batches.slice(i + 1).find((x) => x.control && x.pid === b.pid)
    if (end === undefined) open.set(b.pid, (open.get(b.pid) ?? 0) + b.count)
    else if (end.marker === 'COMMIT') committed += b.count
  })
  return { committed, open }
}

interface Expected {
  partitions: Array<{ topic: string; partition: number; lastStableOffset: number; highWatermark: number }>
  topics: Array<{ topic: string; readCommitted: number; readUncommitted: number }>
  transactions?: Array<{ rows?: Array<Record<string, string>> }>
}

describe.each(['broker/open-txn', 'broker-4.4/txn', 'broker-4.4/streams-eos'])('lso impact on %s', (name) => {
  const dir = path.join(FIXTURES, name)
  const exists = fs.existsSync(path.join(dir, 'expected.json'))
  it('equals what the broker, its consumers and kafka-dump-log say', (ctx) => {
    if (!exists) ctx.skip(`fixture ${name} not generated`)
    const e = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected
    const r = lso([path.join(dir, 'logs')], { now: Date.parse('2030-01-01T00:00:00Z'), bootstrapServer: 'B:9092' })
    const impact = r.impact ?? []
    const blocked = e.partitions.filter((p) => p.lastStableOffset < p.highWatermark && !p.topic.startsWith('__'))
    expect(blocked.length).toBeGreaterThan(0)
    // every blocked partition is held by exactly one impact entry
    expect(impact.flatMap((t) => t.topics.flatMap((x) => x.held)).sort()).toEqual(
      blocked.map((p) => `${p.topic}-${p.partition}`).sort(),
    )
    const described = new Map(
      (e.transactions ?? []).flatMap((t) => t.rows ?? []).map((row) => [row.TransactionalId!, row]),
    )
    for (const t of impact) {
      for (const x of t.topics) {
        const topic = e.topics.find((y) => y.topic === x.topic)!
        expect([x.topic, x.readCommitted, x.readUncommitted]).toEqual([
          x.topic,
          topic.readCommitted,
          topic.readUncommitted,
        ])
        let committed = 0
        let own = 0
        for (const label of x.held) {
          const p = blocked.find((y) => `${y.topic}-${y.partition}` === label)!
          const b = behind(dumpBatches(path.join(dir, 'dump', label)), p.lastStableOffset)
          committed += b.committed
          own += b.open.get(Number(t.producerId)) ?? 0
        }
        expect([x.topic, x.committedBehind, x.ownRecords]).toEqual([x.topic, committed, own])
      }
      expect(t.abortCommands).toHaveLength(t.topics.reduce((n, x) => n + x.held.length, 0))
      const d = t.transactionalId === null ? undefined : described.get(t.transactionalId)
      if (d !== undefined && d.TransactionState === 'Ongoing') {
        expect(t.deadlineMs).toBe(BigInt(d.CurrentTransactionStartTimeMs!) + BigInt(d.TransactionTimeoutMs!))
      }
      expect(t.forceTerminate).toBe(
        t.transactionalId === null
          ? null
          : `kafka-transactions.sh --bootstrap-server B:9092 forceTerminateTransaction --transactionalId ${t.transactionalId}`,
      )
    }
  })
})

describe('lso prints the impact first', () => {
  it('open-txn: what consumers miss, then the commands, before the partition blocks, its lines within 80 columns, the commands too', async () => {
    const { runLso } = await import('../../src/commands/lso.js')
    const { runCommand } = await import('../support/txn-segment-builder.js')
    const r = await runCommand(runLso, {
      paths: [path.join(FIXTURES, 'broker/open-txn/logs')],
      now: Date.parse('2026-12-01T00:00:00Z'),
    })
    const lines = r.out.split('\n')
    expect(lines[0]).toBe('Open transaction producerId 1 epoch 0:')
    const text = shellJoined(lines.slice(0, lines.indexOf('')).join('\n')).replace(/\s+/g, ' ')
    expect(text).toContain(
      'stuck: read_committed consumers see 3 records of 18; 9 committed records wait behind it in stuck-0 (and its own 4 records)',
    )
    expect(text).toContain('no __transaction_state record of it among the paths says when')
    expect(text).toContain(
      'kafka-transactions.sh --bootstrap-server localhost:9092 abort --topic stuck --partition 0 --start-offset 3',
    )
    // no transactional id known: no forceTerminateTransaction
    expect(text).not.toContain('forceTerminateTransaction')
    expect(lines.findIndex((l) => l.startsWith('stuck-0: LSO 3 < HW 21'))).toBeGreaterThan(lines.indexOf(''))
    // the commands cut with shell continuations (joined above as a shell joins them)
    for (const l of lines.slice(0, lines.indexOf(''))) expect(l.length).toBeLessThanOrEqual(80)
  })
})

describe('lso names a Kafka Streams changelog in the open transaction as one', () => {
  it("streams-eos: the changelog the coordinator lists in se-app's open transaction", async (ctx) => {
    const dir = path.join(FIXTURES, 'broker-4.4/streams-eos')
    if (!fs.existsSync(path.join(dir, 'expected.json'))) ctx.skip('fixture streams-eos not generated')
    const e = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
      streams: {
        steps: Array<{
          observed: {
            describeTransactions: Array<{ transactionalId: string; state: string; topicPartitions: string[] }>
          }
        }>
      }
    }
    const last = e.streams.steps.at(-1)!.observed.describeTransactions.find((d) => d.state === 'Ongoing')!
    const { runLso } = await import('../../src/commands/lso.js')
    const { runCommand } = await import('../support/txn-segment-builder.js')
    const r = await runCommand(runLso, { paths: [path.join(dir, 'logs')], wide: true })
    const head = r.out.slice(0, r.out.indexOf('\n\n')).replace(/\s+/g, ' ')
    expect(head).toContain(`Open transaction ${last.transactionalId} `)
    const changelogs = [
      ...new Set(last.topicPartitions.filter((p) => p.includes('-changelog-')).map((p) => p.replace(/-\d+$/, ''))),
    ]
    expect(changelogs).toEqual(['se-app-counts-changelog'])
    expect(head).toContain("se-app-counts-changelog (changelog of se-app's store counts): read_committed")
    expect(head).toContain(`forceTerminateTransaction --transactionalId ${last.transactionalId}`)
  })
})
