// `transactions` in bounded memory: a hash join by producer id, then an external merge. While the files are read
// (the coordinator's records first, then each partition once), every run, coordinator episode (cut as its records
// come: EpisodeCutter), producer -> id record and transactional offset commit goes to the bucket of its producer
// id: in memory when the input is small, else a temp file under os.tmpdir() (io/spill.ts). Every join key starts
// with the producer id, so each bucket is joined on its own (analysis/transaction-join/bucket-join.ts) with the
// facts that span producers kept whole but small: the partitions read and damaged, each group's commits as int64
// triples (GroupTimelines), the newest coordinator state per id. Each bucket's transactions, sorted, are a run;
// the runs merged give the listed order, one transaction at a time, and what needs all of them (the exactly-once
// check, the id families) is tallied as they pass.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import type { LostRecords } from '../analysis/lost-records.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { BucketInput, Ordered } from '../analysis/transaction-join/bucket-join.js'
import { compareOrdered, joinBucket, stateWanted } from '../analysis/transaction-join/bucket-join.js'
import { EpisodeCutter } from '../analysis/transaction-join/episodes.js'
import { ExactlyOnceTally } from '../analysis/transaction-join/exactly-once.js'
import { GroupTimelines, RunSpans } from '../analysis/transaction-join/group-positions.js'
import { idFamilies, idFamily } from '../analysis/transaction-join/id-families.js'
import { flinkSinks } from '../analysis/transaction-join/flink-ids.js'
import { streamsApplications } from '../analysis/transaction-join/streams-ids.js'
import type {
  Episode,
  JoinedTransaction,
  OffsetCommitRecord,
  PartitionRun,
  TransactionsStreamed,
} from '../analysis/transaction-join/types.js'
import type { TransactionStateRecord } from '../analysis/transactional-id-state.js'
import { replacesNewest, sortStates, transactionalIdState } from '../analysis/transactional-id-state.js'
import {
  FileTable,
  commitRecordR,
  commitRecordW,
  episodeR,
  episodeW,
  joinedR,
  joinedW,
  runR,
  runW,
} from '../analysis/transaction-join/wire.js'
import type { DamageRef } from '../analysis/transactions.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { sizeOf } from '../io/dir-listing.js'
import { SpillDir, mergeSorted } from '../io/spill.js'
import type { PartitionDir } from '../io/discover.js'
import { scanOffsetCommits } from './offset-commit-scan.js'
import { scanNewestCopies } from './partition-copies.js'
import { scanTransactionLog } from './transaction-log-scan.js'
import { stateDirs } from './transactional-id.js'

/** input bytes per bucket: a bucket's join holds several times its share of the input as objects */
export const BUCKET_BYTES = 2 * 1024 * 1024
/** at most this many buckets (the merge reads one chunk of each at a time): past it the buckets grow */
export const MAX_BUCKETS = 512

export interface StreamInput {
  /** partition directories inside a named log dir that could not be read (resolvePartitions) */
  unreadable?: Finding[]
  partitions: PartitionDir[]
  paths: string[]
  filter?: RangeSpec
  selects?: (topic: string, partition: number) => boolean
  resync: boolean
  nowMs: number
  nowGiven: boolean
  maxTransactionTimeoutMinutes: number
  /** input bytes per bucket (tests make it small to exercise the temp files); 0 or more than the input: one bucket in memory */
  bucketBytes?: number
  /** told the temp directory when there is one (tests check it is removed) */
  onSpill?: (dir: string) => void
}

/** TransactionsStreamed, and its temp files' removal (items does it at its end or when left early) */
export interface TransactionsStream extends TransactionsStreamed {
  close: () => void
}

type Item = ['r', PartitionRun] | ['e', number, Episode] | ['i', bigint, string] | ['c', string, OffsetCommitRecord]

/** the buckets: arrays when the input is small, else one temp file each (the values as wire.ts writes them) */
class Buckets {
  private readonly mem: Item[][] | null

  constructor(
    readonly n: number,
    readonly spill: SpillDir | null,
    readonly files: FileTable,
  ) {
    this.mem = spill === null ? Array.from({ length: n }, () => []) : null
  }

  of(pid: bigint): number {
    const n = BigInt(this.n)
    return Number(((pid % n) + n) % n)
  }

  put(pid: bigint, item: Item): void {
    const b = this.of(pid)
    if (this.mem !== null) {
      this.mem[b]!.push(item)
      return
    }
    const f = this.files
    const w =
      item[0] === 'r'
        ? ['r', runW(item[1], f)]
        : item[0] === 'e'
          ? ['e', item[1], episodeW(item[2], f)]
          : item[0] === 'i'
            ? ['i', String(item[1]), item[2]]
            : ['c', item[1], commitRecordW(item[2], f)]
    this.spill!.append(`b${b}`, JSON.stringify(w))
  }

  /** bucket b's items in the order put, then forgotten */
  *take(b: number): Generator<Item> {
    if (this.mem !== null) {
      const l = this.mem[b]!
      this.mem[b] = []
      yield* l
      return
    }
    const f = this.files
    for (const line of this.spill!.lines(`b${b}`)) {
      const w = JSON.parse(line) as [string, ...unknown[]]
      if (w[0] === 'r') yield ['r', runR(w[1] as unknown[], f)]
      else if (w[0] === 'e') yield ['e', w[1] as number, episodeR(w[2] as unknown[], f)]
      else if (w[0] === 'i') yield ['i', BigInt(w[1] as string), w[2] as string]
      else yield ['c', w[1] as string, commitRecordR(w[2] as unknown[], f)]
    }
    this.spill!.remove(`b${b}`)
  }
}

function inputBytes(dirs: readonly PartitionDir[]): number {
  let n = 0
  for (const d of dirs)
    for (const f of d.files)
      if (f.kind === 'log' && f.remote === undefined && f.stdin !== true) n += sizeOf(f.path) ?? 0
  return n
}

export function streamTransactions(inp: StreamInput): TransactionsStream {
  const { filter } = inp
  // a partition directory that could not be read (the others were) is one more finding
  const findings: Finding[] = [...(inp.unreadable ?? [])]
  const { dirs, logDirs } = stateDirs(inp.paths)
  const data = inp.partitions.filter((d) => d.topic !== '__transaction_state')
  const per = inp.bucketBytes ?? BUCKET_BYTES
  const total = inputBytes(data) + inputBytes(dirs)
  const n = per <= 0 || total <= per ? 1 : Math.min(MAX_BUCKETS, Math.ceil(total / per))
  const spill = n > 1 ? new SpillDir('tsdump-transactions-', n) : null
  const files = new FileTable()
  const buckets = new Buckets(n, spill, files)
  if (spill !== null) inp.onSpill?.(spill.dir)
  try {
    // the coordinator's records: episodes to their producer's bucket; per id only its newest record, when it was first seen, and which producer ids it named last
    const newest = new Map<string, TransactionStateRecord>()
    const firstSeen = new Map<string, bigint | null>()
    const named = new Map<string, string>()
    const lost: LostRecords[] = []
    const cut = new EpisodeCutter((e, seq) => {
      buckets.put(e.producerId, ['e', seq, e])
    })
    for (const d of dirs) {
      const read = scanTransactionLog(d, (r) => {
        cut.add(r)
        const prev = newest.get(r.transactionalId)
        if (prev === undefined || replacesNewest(r.offset, prev.offset)) newest.set(r.transactionalId, r)
        if (!firstSeen.has(r.transactionalId))
          firstSeen.set(r.transactionalId, r.value?.transactionLastUpdateTimestampMs ?? null)
        const v = r.value
        if (v === null) return
        const ids = `${v.producerId}/${v.previousProducerId}/${v.nextProducerId}`
        if (named.get(r.transactionalId) === ids) return
        named.set(r.transactionalId, ids)
        for (const pid of [v.producerId, v.previousProducerId, v.nextProducerId])
          if (pid >= 0n) buckets.put(pid, ['i', pid, r.transactionalId])
      })
      for (const f of read.findings.listed) findings.push(f)
      for (const l of read.lost) lost.push(l)
    }
    cut.end()
    named.clear()
    // each partition once: runs and transactional commits to their producer's bucket
    const scanned = new Set<string>()
    const damaged = new Map<string, DamageRef>()
    const groups = new GroupTimelines()
    const plain = new Map<string, OffsetCommitRecord[]>()
    const checkpoints = new Map<string, OffsetCheckpoint | null>()
    // a __consumer_offsets partition's runs, while it is read: which COMMIT made each transactional commit take effect
    const spans = new Map<string, RunSpans>()
    const onRun = (r: PartitionRun): void => {
      const label = `${r.topic}-${r.partition}`
      // the last damaged run of a partition says where (as the join always took it)
      if (r.damage !== undefined) damaged.set(label, r.damage)
      if (r.topic === '__consumer_offsets') {
        let sp = spans.get(label)
        if (sp === undefined) {
          sp = new RunSpans()
          spans.set(label, sp)
        }
        sp.add(r)
      }
      buckets.put(r.producerId, ['r', r])
    }
    for (const s of scanNewestCopies(data, checkpoints, inp.resync, onRun)) {
      scanned.add(s.label)
      for (const f of s.findings) if (f.severity !== 'info' || f.code === 'PARTITION_COPY_CHOSEN') findings.push(f)
      if (s.dir.topic === '__consumer_offsets') {
        const sp = spans.get(s.label)
        const ps: OffsetCommitRecord[] = []
        const c = scanOffsetCommits(s.dir, (x) => {
          if (!x.transactional) {
            ps.push(x)
            return
          }
          buckets.put(x.producerId, ['c', s.label, x])
          const at = sp?.committedAt(x.producerId, x.recordOffset) ?? null
          if (at !== null)
            groups.add(s.label, x.group, x.topic, x.partition, { record: x.recordOffset, at, offset: x.offset })
        })
        plain.set(s.label, ps)
        groups.addPlain(s.label, ps)
        for (const f of c.findings.listed) findings.push(f)
      }
      spans.clear()
    }
    return finish()

    function finish(): TransactionsStream {
      const records = [...newest.values()]
      newest.clear()
      // judged with the places the coordinator's records were lost: past them an owner is unknown (analysis/hanging.ts)
      const judged = sortStates(records.map((r) => transactionalIdState(r, lost)))
      const states = sortStates(records.map((r) => transactionalIdState(r, lost))).filter(
        (s) => filter === undefined || stateWanted(s.transactionalId, s.producerId, filter),
      )
      records.length = 0
      const ctx = {
        scanned,
        damaged,
        groups,
        states: judged,
        nowMs: inp.nowMs,
        maxTransactionTimeoutMs: inp.maxTransactionTimeoutMinutes * 60_000,
        ...(filter !== undefined ? { filter } : {}),
        ...(inp.selects !== undefined ? { selects: inp.selects } : {}),
      }
      // each bucket joined on its own into a sorted run
      const runs: Ordered[][] = []
      let count = 0
      let producers = 0
      // the Flink and Kafka Streams ids' transactions, for their attribution (flink-ids.ts, streams-ids.ts): the
      // only ones held, and only those whose id has their shape
      const shaped: Ordered[] = []
      for (let b = 0; b < buckets.n; b++) {
        const input: BucketInput = { runs: [], episodes: [], idByProducer: new Map(), commits: new Map() }
        const eps: Array<[number, Episode]> = []
        for (const it of buckets.take(b)) {
          if (it[0] === 'r') input.runs.push(it[1])
          else if (it[0] === 'e') eps.push([it[1], it[2]])
          else if (it[0] === 'i') input.idByProducer.set(it[1], it[2])
          else {
            let l = input.commits.get(it[1])
            if (l === undefined) {
              l = []
              input.commits.set(it[1], l)
            }
            l.push(it[2])
          }
        }
        input.episodes = eps.sort((x, y) => x[0] - y[0]).map((x) => x[1])
        const sorted = joinBucket(input, ctx)
        for (const o of sorted)
          if (o.t.transactionalId !== null && idFamily(o.t.transactionalId).kind !== 'plain') shaped.push(o)
        count += sorted.length
        producers += new Set(sorted.map((o) => o.t.producerId)).size
        if (spill === null) runs.push(sorted)
        else {
          for (const o of sorted)
            spill.append(`r${b}`, JSON.stringify([o.key === null ? null : String(o.key), joinedW(o.t, files)]))
          spill.finish(`r${b}`)
        }
      }
      const eos = new ExactlyOnceTally()
      const result: TransactionsStream = {
        count,
        producers,
        transactionalIds: states,
        exactlyOnce: [],
        idFamilies: [],
        ...shapedAttribution(
          shaped.sort(compareOrdered).map((o) => o.t),
          judged,
        ),
        stateLogs: dirs.map((d) => d.path),
        lookedIn: logDirs.map((d) => path.resolve(d)),
        findings,
        nowMs: inp.nowMs,
        nowGiven: inp.nowGiven,
        maxTransactionTimeoutMinutes: inp.maxTransactionTimeoutMinutes,
        items: items(),
        close: () => spill?.close(),
      }
      function* items(): Generator<JoinedTransaction> {
        const shownIds = new Set<string>()
        try {
          const seqs: Array<Iterator<Ordered>> =
            spill === null
              ? runs.map((r) => r[Symbol.iterator]())
              : Array.from({ length: buckets.n }, (_, b) =>
                  (function* () {
                    for (const l of spill.lines(`r${b}`)) {
                      const [key, t] = JSON.parse(l) as [string | null, unknown[]]
                      yield { key: key === null ? null : BigInt(key), t: joinedR(t, files) }
                    }
                  })(),
                )
          for (const o of mergeSorted(seqs, (a, b) => compareOrdered(a, b) < 0)) {
            const t = o.t
            eos.add(t)
            if (t.transactionalId !== null) {
              shownIds.add(t.transactionalId)
              if (!firstSeen.has(t.transactionalId)) firstSeen.set(t.transactionalId, t.firstTimestamp)
            }
            yield t
          }
        } finally {
          spill?.close()
        }
        const e = eos.finish(plain.values())
        for (const f of e.findings) findings.push(f)
        // one at a time: a million producers as arguments overflow the stack
        for (const p of e.producers) result.exactlyOnce.push(p)
        const wantedIds = new Set(states.map((s) => s.transactionalId))
        const ids = new Map(
          [...firstSeen].filter(([id]) => filter === undefined || wantedIds.has(id) || shownIds.has(id)),
        )
        for (const f of idFamilies(ids)) result.idFamilies.push(f)
      }
      return result
    }
  } catch (e) {
    spill?.close()
    throw e
  }
}

/** the Flink sinks' and Kafka Streams applications' attribution, over their transactions in the output's order */
function shapedAttribution(
  txs: JoinedTransaction[],
  states: ReturnType<typeof sortStates>,
): Pick<TransactionsStream, 'streams' | 'flinkSinks'> {
  return { streams: streamsApplications(txs), flinkSinks: flinkSinks(txs, states) }
}
