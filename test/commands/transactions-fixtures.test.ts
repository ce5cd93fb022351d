// `tsdump transactions --json` on the transactions scenario written by real brokers through the Java client:
// 4.4.0 with transaction version 2 (KIP-890: one epoch per transaction) and 3.9.1 with version 1 (several
// transactions share producer id and epoch, joined through __transaction_state). Truth: expected.json, the
// generator's own log of every transaction it ran (id, partitions, records, offsets sent, outcome; written by
// scripts/fixtures/transactions-lib.mjs from what the client was told) and the broker's Admin
// describeTransactions answer for every id.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'
import { linesOver } from '../support/width.js'

interface LogPartition {
  topic: string
  partition: number
  records: number
  firstOffset: number
  lastOffset: number
}
interface LogTx {
  seq: number
  transactionalId: string
  producerId: number
  producerEpoch: number
  transactionVersion: number
  outcome: string
  partitions: LogPartition[]
  offsetsSent: Array<{
    group: string
    topic: string
    partition: number
    offset: number
    metadata: string
    offsetsPartition: number
  }>
}
interface Described {
  transactionalId: string
  state: string
  producerId: number
  producerEpoch: number
  transactionTimeoutMs: number
  topicPartitions: Array<{ topic: string; partition: number }>
}
interface Expected {
  observedAt: number
  transactionLog: LogTx[]
  describeTransactions: Described[]
  groupOffsets: Array<{ groupId: string; offsets: Array<{ topic: string; partition: number; offset: number }> }>
  consumerCommits: Array<{ app: string; group: string; topic: string; partition: number }>
  producerSessions: Array<{ app: string; transactionalId: string }>
}
interface Eos {
  transactionalId: string
  groups: Array<{ group: string; transactions: number }>
  mixedCommits: Array<{ group: string; partitions: string[]; plainCommits: number }>
  noOffsets: boolean
  groupsAdvancingOutside: Array<{ group: string; commits: number }>
}
interface Family {
  kind: string
  prefix: string
  ids: number
  subtasks?: number[]
  maxCounter?: number
  processIds?: string[]
}
interface Tx {
  transactionalId: string | null
  producerId: number
  producerEpoch: number
  transactionVersion: string | null
  outcome: string
  joinedBy: string
  partitions: Array<{
    topic: string
    partition: number
    firstOffset: number
    lastDataOffset: number | null
    records: number
    marker: { type: string } | null
  }>
  offsetCommits: Array<{
    group: string
    topic: string
    partition: number
    offset: number
    metadata: string
    committedBefore: number | null
    committedAfter: number | null
  }>
  findings: Array<{ code: string }>
}
interface Ids {
  transactionalId: string
  producerId: number
  producerEpoch: number
  state: string
  partitions: string[]
  transactionTimeoutMs: number
}

/** the generator's words for how a transaction ended -> what its markers say (a fence or a timeout is the coordinator's abort) */
const OUTCOME: Record<string, string> = {
  committed: 'committed',
  aborted: 'aborted',
  fenced: 'aborted',
  'timed-out': 'aborted',
  open: 'open',
}
const byTp = <T extends { topic: string; partition: number }>(a: T, b: T): number =>
  a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition

describe.each([
  ['4.4.0 (TV2)', path.join(FIXTURES_44, 'transactions'), 'TV2'],
  ['3.9.1 (TV1)', path.join(FIXTURES, 'transactions'), 'TV1'],
])('transactions on the %s transactions fixture', async (_name, dir, version) => {
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected
  // as of the broker's own answers (observedAt): the open transactions were minutes old, within their timeout
  const asOf = String(expected.observedAt)
  const r = await runCli(['transactions', '--json', '--now', asOf, path.join(dir, 'logs')])
  const j = JSON.parse(r.stdout) as {
    transactions: Tx[]
    transactionalIds: Ids[]
    exactlyOnce: Eos[]
    idFamilies: Family[]
    findings: Array<{ code: string; message: string }>
  }
  const dataOf = (t: Tx) => t.partitions.filter((p) => p.topic !== '__consumer_offsets')
  const find = (g: LogTx): Tx[] =>
    j.transactions.filter(
      (t) =>
        t.transactionalId === g.transactionalId &&
        t.producerId === g.producerId &&
        dataOf(t).some(
          (p) =>
            p.topic === g.partitions[0]!.topic &&
            p.partition === g.partitions[0]!.partition &&
            p.firstOffset === g.partitions[0]!.firstOffset,
        ),
    )

  it('lists exactly the transactions the generator ran, none twice, with no finding but the timeout abort', () => {
    // exit 1: the exactly-once findings below (the scenario's mixed commits and output without offsets)
    expect(r.code).toBe(1)
    expect(j.transactions).toHaveLength(expected.transactionLog.length)
    for (const g of expected.transactionLog) expect(find(g), `seq ${g.seq} ${g.transactionalId}`).toHaveLength(1)
    const timedOut = expected.transactionLog.filter((g) => g.outcome === 'timed-out')
    expect(timedOut.length).toBeGreaterThan(0)
    expect(j.transactions.flatMap((t) => t.findings.map((f) => `${t.transactionalId} ${f.code}`)).sort()).toEqual(
      timedOut.map((g) => `${g.transactionalId} TXN_TIMED_OUT`).sort(),
    )
  })

  it('says who aborted each aborted transaction as the generator saw it end', () => {
    // the generator's words: aborted (its abortTransaction), fenced (a new producer of the same id), timed-out
    // (waited for the coordinator's abort). Transaction version 2 bumps the epoch at every end, so before the
    // deadline its records cannot tell the producer's abort from a fence
    const want: Record<string, string | null> =
      version === 'TV1'
        ? {
            aborted: 'client',
            fenced: 'new-producer-session',
            'timed-out': 'coordinator-timeout',
            committed: null,
            open: null,
          }
        : {
            aborted: 'client-or-new-session',
            fenced: 'client-or-new-session',
            'timed-out': 'coordinator-timeout',
            committed: null,
            open: null,
          }
    for (const g of expected.transactionLog) {
      const t = find(g)[0] as Tx & { abortedBy: string | null }
      expect(t.abortedBy, `seq ${g.seq} ${g.transactionalId} (${g.outcome})`).toBe(want[g.outcome])
    }
  })

  it.each(expected.transactionLog.map((g) => [g.seq, g.transactionalId, g]))(
    'seq %i (%s): partitions, records, offsets, outcome, version',
    (_seq, _id, g) => {
      const t = find(g)[0]!
      expect(t.transactionVersion).toBe(version)
      expect(t.transactionVersion).toBe(`TV${g.transactionVersion}`)
      expect(t.producerEpoch).toBe(g.producerEpoch)
      expect(t.outcome).toBe(OUTCOME[g.outcome])
      expect(
        dataOf(t).map((p) => ({
          topic: p.topic,
          partition: p.partition,
          records: p.records,
          firstOffset: p.firstOffset,
          lastOffset: p.lastDataOffset,
        })),
      ).toEqual([...g.partitions].sort(byTp))
      expect(
        t.offsetCommits
          .map((c) => ({
            group: c.group,
            topic: c.topic,
            partition: c.partition,
            offset: c.offset,
            metadata: c.metadata,
          }))
          .sort(byTp),
      ).toEqual(
        g.offsetsSent
          .map((o) => ({
            group: o.group,
            topic: o.topic,
            partition: o.partition,
            offset: o.offset,
            metadata: o.metadata,
          }))
          .sort(byTp),
      )
      // the offsets went into the group's __consumer_offsets partition, inside the transaction
      expect(t.partitions.filter((p) => p.topic === '__consumer_offsets').map((p) => p.partition)).toEqual([
        ...new Set(g.offsetsSent.map((o) => o.offsetsPartition)),
      ])
      if (g.outcome !== 'open')
        expect(
          t.partitions.every((p) => p.marker?.type === (OUTCOME[g.outcome] === 'committed' ? 'COMMIT' : 'ABORT')),
        ).toBe(true)
      else expect(t.partitions.every((p) => p.marker === null)).toBe(true)
      // TV2 joins by epoch alone; TV1 needs the coordinator's records when a producer epoch holds several transactions
      if (version === 'TV2') expect(t.joinedBy).toBe('producer-epoch')
      else expect(['coordinator', 'producer-epoch']).toContain(t.joinedBy)
    },
  )

  it("the coordinator's newest state of every id equals describeTransactions", () => {
    const got = new Map(j.transactionalIds.map((s) => [s.transactionalId, s]))
    expect(j.transactionalIds).toHaveLength(expected.describeTransactions.length)
    for (const d of expected.describeTransactions) {
      const s = got.get(d.transactionalId)
      expect(s, d.transactionalId).toBeDefined()
      expect(
        {
          state: s!.state,
          producerId: s!.producerId,
          producerEpoch: s!.producerEpoch,
          transactionTimeoutMs: s!.transactionTimeoutMs,
          partitions: s!.partitions,
        },
        d.transactionalId,
      ).toEqual({
        state: d.state,
        producerId: d.producerId,
        producerEpoch: d.producerEpoch,
        transactionTimeoutMs: d.transactionTimeoutMs,
        partitions: d.topicPartitions.map((p) => `${p.topic}-${p.partition}`).sort(),
      })
    }
  })

  it("--transactional-id tells that id's transactions in order", async () => {
    const id = 'rpw-0'
    const f = JSON.parse(
      (await runCli(['transactions', '--json', '--transactional-id', id, path.join(dir, 'logs')])).stdout,
    ) as { transactions: Tx[] }
    const want = expected.transactionLog.filter((g) => g.transactionalId === id)
    expect(
      f.transactions.map((t) => [t.producerEpoch, dataOf(t).map((p) => `${p.topic}-${p.partition}@${p.firstOffset}`)]),
    ).toEqual(
      want.map((g) => [
        g.producerEpoch,
        [...g.partitions].sort(byTp).map((p) => `${p.topic}-${p.partition}@${p.firstOffset}`),
      ]),
    )
  })

  it("exactly-once: the groups each producer's transactions carry, mixed commits and output without offsets, as the generator ran them", () => {
    const eos = new Map(j.exactlyOnce.map((p) => [p.transactionalId, p]))
    // the groups each id sent offsets of (sendOffsetsToTransaction), counted per transaction
    for (const id of new Set(expected.transactionLog.map((g) => g.transactionalId))) {
      const mine = expected.transactionLog.filter((g) => g.transactionalId === id)
      const groups = [...new Set(mine.flatMap((g) => g.offsetsSent.map((o) => o.group)))].sort()
      expect(eos.get(id)?.groups, id).toEqual(
        groups.map((group) => ({
          group,
          transactions: mine.filter((g) => g.offsetsSent.some((o) => o.group === group)).length,
        })),
      )
    }
    // the consumer's own commits (commitSync outside any transaction), per app: mixed into a group its transactions carry, or beside transactions without offsets
    const appOf = new Map(expected.producerSessions.map((p) => [p.transactionalId, p.app]))
    const want: Array<[string, string, string, number]> = []
    for (const id of [...eos.keys()].sort()) {
      const outside = expected.consumerCommits.filter((c) => c.app === appOf.get(id))
      if (outside.length === 0) continue
      const carries = eos.get(id)!.groups.some((g) => g.group === outside[0]!.group)
      want.push([id, carries ? 'EOS_MIXED_COMMITS' : 'EOS_NO_OFFSETS', outside[0]!.group, outside.length])
    }
    expect(want.length).toBeGreaterThanOrEqual(2)
    const got = [...eos.values()]
      .flatMap((p) => [
        ...p.mixedCommits.map((m) => [p.transactionalId, 'EOS_MIXED_COMMITS', m.group, m.plainCommits]),
        ...p.groupsAdvancingOutside.map((a) => [p.transactionalId, 'EOS_NO_OFFSETS', a.group, a.commits]),
      ])
      .sort()
    expect(got).toEqual(want.sort())
    expect(j.findings.map((f) => f.code).sort()).toEqual(want.map((w) => w[1]).sort())
  })

  it('id families: the Flink-shaped sink ids and the real Kafka Streams application, counted', () => {
    const ids = [...new Set(expected.producerSessions.map((p) => p.transactionalId))]
    const flink = expected.producerSessions.filter((p) => p.app === 'flink').map((p) => p.transactionalId)
    const streams = [
      ...new Set(expected.producerSessions.filter((p) => p.app === 'streams').map((p) => p.transactionalId)),
    ]
    const f = j.idFamilies.find((x) => x.kind === 'flink-kafka-sink')!
    expect(f.ids).toBe(new Set(flink).size)
    expect(f.subtasks).toEqual([...new Set(flink.map((i) => Number(i.split('-').at(-2))))].sort())
    expect(f.maxCounter).toBe(Math.max(...flink.map((i) => Number(i.split('-').at(-1)))))
    const k = j.idFamilies.filter((x) => x.kind === 'kafka-streams')
    expect(k.map((x) => x.ids)).toEqual([streams.length])
    expect(j.idFamilies.reduce((n, x) => n + x.ids, 0)).toBe(ids.length)
  })

  it("the group's committed offset after the last transaction carrying it is what listConsumerGroupOffsets says", () => {
    let checked = 0
    for (const g of expected.groupOffsets) {
      for (const o of g.offsets) {
        const carrying = j.transactions.filter((t) =>
          t.offsetCommits.some(
            (c) =>
              c.group === g.groupId && c.topic === o.topic && c.partition === o.partition && c.committedAfter !== null,
          ),
        )
        if (carrying.length === 0) continue
        const last = carrying
          .at(-1)!
          .offsetCommits.find((c) => c.group === g.groupId && c.topic === o.topic && c.partition === o.partition)!
        expect(last.committedAfter, `${g.groupId} ${o.topic}-${o.partition}`).toBe(o.offset)
        checked++
      }
    }
    expect(checked).toBeGreaterThanOrEqual(9)
  })

  it('the Flink sink transaction left open is attributed, with the known causes, in transactions and in lso', async () => {
    // the generator's log: the restored job (smaller parallelism) left one orders-sink-<subtask>-<checkpoint> id open
    const open = expected.transactionLog.filter(
      (g) =>
        g.outcome === 'open' &&
        expected.producerSessions.some((p) => p.app === 'flink' && p.transactionalId === g.transactionalId),
    )
    expect(open).toHaveLength(1)
    const [, prefix, subtask, counter] = /^(.+)-(\d+)-(\d+)$/.exec(open[0]!.transactionalId)!
    const named = `Flink KafkaSink prefix ${prefix}, subtask ${subtask}, counter ${counter}`
    const t = await runCli(['transactions', '--now', asOf, path.join(dir, 'logs')])
    // transactions sees the whole sink: its subtask wrote no more while the others went on (analysis/transaction-join/flink-ids.ts)
    expect(t.stdout).toContain(
      `${open[0]!.transactionalId}  producer ${open[0]!.producerId} epoch 0  ${version}  open\n  ${named}\n  lingering Flink sink transaction: a restore with a smaller parallelism`,
    )
    const l = await runCli(['lso', '--now', asOf, path.join(dir, 'logs')])
    expect(l.stdout).toContain(`  transactional id ${open[0]!.transactionalId}: state Ongoing`)
    expect(l.stdout).toContain(`    ${named}\n    known causes of a Flink sink transaction left open`)
    expect(linesOver(t.stdout, [path.join(dir, 'logs')])).toEqual([])
    const mine = l.stdout.split('\n').filter((x) => /Flink|parallelism|transactionalIdPrefix/.test(x))
    expect(mine.length).toBeGreaterThanOrEqual(3)
    expect(linesOver(mine.join('\n'), [path.join(dir, 'logs')])).toEqual([])
  })
})
