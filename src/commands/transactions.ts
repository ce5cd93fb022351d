// `tsdump transactions`: every transaction as one unit across the partitions it wrote, its offset commits
// and its coordinator's records. Each data partition is scanned for its runs (scan/transaction-runs.ts),
// each __consumer_offsets partition for its offset commits too, every __transaction_state partition among
// the paths or in their log directories for the coordinator's records; analysis/transaction-join/ joins them.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE } from '../analysis/findings.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { completeTransaction } from '../analysis/transaction-join/consistency.js'
import { coordinatorEpisodes, transactionalIdsByProducer } from '../analysis/transaction-join/episodes.js'
import { exactlyOnce } from '../analysis/transaction-join/exactly-once.js'
import { fillGroupPositions } from '../analysis/transaction-join/group-positions.js'
import { idFamilies } from '../analysis/transaction-join/id-families.js'
import { joinRuns } from '../analysis/transaction-join/join.js'
import { judgeOpenRuns } from '../analysis/transaction-join/open-runs.js'
import type { JoinedTransaction, OffsetCommitRecord, PartitionRun, TransactionsResult } from '../analysis/transaction-join/types.js'
import type { LostRecords } from '../analysis/lost-records.js'
import type { TransactionStateRecord } from '../analysis/transactional-id-state.js'
import { lastTransactionStates } from '../analysis/transactional-id-state.js'
import { printTransactionsJson } from '../format/transactions-json.js'
import { printTransactionsText } from '../format/transactions-text.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { scanOffsetCommits } from '../scan/offset-commit-scan.js'
import { scanNewestCopies } from '../scan/partition-copies.js'
import { resolvePartitions } from '../scan/partition-scan.js'
import { resolveFilter } from '../scan/filter-resolve.js'
import { scanTransactionLog } from '../scan/transaction-log-scan.js'
import { stateDirs } from '../scan/transactional-id.js'
import type { CommandContext } from './context.js'
import { selectsPartition } from './topic-partition-filter.js'
import type { TopicPartitionFilter } from './topic-partition-filter.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'
import type { RemoteInput } from '../io/remote/spec.js'

/** transactions()'s options (the library): what the command line gives, resolved */
export interface TransactionsLibraryOptions {
  /** --transactional-id / --producer-id / --from-time / --to-time */
  filter?: RangeSpec
  /** --remote-storage: remote segments read before the local ones */
  remote?: RemoteInput
  /** false: stop at framing damage as Kafka's reader does (--no-resync) */
  resync?: boolean
  /** epoch ms that ages are measured against (--now); default the clock */
  now?: number
  /** age in minutes above which an open transaction is hanging (analysis/hanging.ts; default 15) */
  maxTransactionTimeoutMinutes?: number
  /** --topic / --partition: the transactions that wrote to these partitions only */
  only?: TopicPartitionFilter
}

/** `tsdump transactions`' options: the library's, and how to print */
export interface TransactionsOptions extends TransactionsLibraryOptions {
  paths: string[]
  format?: 'text' | 'json'
  color?: boolean
  wide?: boolean
}

const cmp = (a: bigint | null, b: bigint | null): number => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1)

/** transactions()'s result: as every library function's, with the paths that could not be used (then nothing else is read) */
export type TransactionsLibraryResult = TransactionsResult & { unusable: Finding[] }

/**
 * The transactions under `paths`, joined; `unusable` holds the paths that cannot be used (then the rest is empty).
 * @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record, USAGE for crossed bounds (scan/filter-resolve.ts)
 */
export function transactions (paths: string[], opts: TransactionsLibraryOptions = {}): TransactionsLibraryResult {
  const { remote, only } = opts
  const filter = resolveFilter(opts.filter, paths)
  const resync = opts.resync !== false
  const hanging = opts
  const { partitions, unusable } = resolvePartitions(paths, remote)
  if (unusable.length > 0) {
    return { unusable, transactions: [], transactionalIds: [], stateLogs: [], lookedIn: [], exactlyOnce: [], idFamilies: [], findings: [],
      nowMs: hanging.now ?? Date.now(), nowGiven: hanging.now !== undefined, maxTransactionTimeoutMinutes: hanging.maxTransactionTimeoutMinutes ?? 15 }
  }
  const findings: Finding[] = []
  const records: TransactionStateRecord[] = []
  const { dirs, logDirs } = stateDirs(paths)
  const lost: LostRecords[] = []
  for (const d of dirs) {
    const read = scanTransactionLog(d, (r) => { records.push(r) })
    for (const f of read.findings.listed) findings.push(f)
    for (const l of read.lost) lost.push(l)
  }
  const runs: PartitionRun[] = []
  const commits = new Map<string, OffsetCommitRecord[]>()
  const scanned = new Set<string>()
  const checkpoints = new Map<string, OffsetCheckpoint | null>()
  for (const s of scanNewestCopies(partitions.filter((d) => d.topic !== '__transaction_state'), checkpoints, resync)) {
    scanned.add(s.label)
    for (const r of s.runs) runs.push(r)
    for (const f of s.findings) if (f.severity !== 'info' || f.code === 'PARTITION_COPY_CHOSEN') findings.push(f)
    if (s.dir.topic === '__consumer_offsets') {
      const c = scanOffsetCommits(s.dir)
      commits.set(s.label, c.commits)
      for (const f of c.findings.listed) findings.push(f)
    }
  }
  const episodes = coordinatorEpisodes(records)
  const idByProducer = transactionalIdsByProducer(records)
  const all = joinRuns(runs, episodes)
  const damaged = new Map(runs.filter((r) => r.damage !== undefined).map((r) => [`${r.topic}-${r.partition}`, r.damage!] as const))
  for (const t of all) completeTransaction(t, { scanned, idByProducer, commits, damaged })
  fillGroupPositions(all, commits)
  const nowMs = hanging.now ?? Date.now()
  const timeoutMin = hanging.maxTransactionTimeoutMinutes ?? 15
  judgeOpenRuns(all, lastTransactionStates(records), nowMs, timeoutMin * 60_000)
  // in the order they began: the coordinator's first record, else the first marker (data timestamps can be event times: Kafka Streams)
  const began = (t: JoinedTransaction): bigint | null => t.episode?.states[0]?.timestamp ?? t.runs.reduce<bigint | null>((m, r) => (r.marker === null ? m : m === null || r.marker.timestamp < m ? r.marker.timestamp : m), null) ?? t.firstTimestamp
  // each key computed once, not twice per comparison
  const keyOf = new Map(all.map((t) => [t, began(t)]))
  all.sort((a, b) => cmp(keyOf.get(a)!, keyOf.get(b)!) || cmp(a.producerId, b.producerId) || a.producerEpoch - b.producerEpoch)
  keyOf.clear()
  const states = lastTransactionStates(records, lost).filter((s) => filter === undefined || stateWanted(s.transactionalId, s.producerId, filter))
  const shown = all.filter((t) => (filter === undefined || wanted(t, filter)) && (only === undefined || t.runs.some((r) => selectsPartition(only, r.topic, r.partition))))
  const eos = exactlyOnce(shown, commits.values())
  for (const f of eos.findings) findings.push(f)
  // each id's first coordinator record dates it (ids created per hour)
  const firstSeen = new Map<string, bigint | null>()
  for (const r of records) if (!firstSeen.has(r.transactionalId)) firstSeen.set(r.transactionalId, r.value?.transactionLastUpdateTimestampMs ?? null)
  for (const t of shown) if (t.transactionalId !== null && !firstSeen.has(t.transactionalId)) firstSeen.set(t.transactionalId, t.firstTimestamp)
  const ids = new Map([...firstSeen].filter(([id]) => filter === undefined || states.some((s) => s.transactionalId === id) || shown.some((t) => t.transactionalId === id)))
  return {
    transactions: shown, transactionalIds: states, exactlyOnce: eos.producers, idFamilies: idFamilies(ids),
    stateLogs: dirs.map((d) => d.path), lookedIn: logDirs.map((d) => path.resolve(d)), findings,
    nowMs, nowGiven: hanging.now !== undefined, maxTransactionTimeoutMinutes: timeoutMin, unusable,
  }
}

function stateWanted (id: string, pid: bigint | null, f: RangeSpec): boolean {
  if (f.transactionalId !== undefined) return id === f.transactionalId
  return f.producerIds === undefined || (pid !== null && f.producerIds.includes(pid))
}

/** --transactional-id / --producer-id: that producer's transactions; --from-time / --to-time: those overlapping the range */
function wanted (t: JoinedTransaction, f: RangeSpec): boolean {
  if (f.transactionalId !== undefined && t.transactionalId !== null && t.transactionalId !== f.transactionalId) return false
  if (f.producerIds !== undefined && !f.producerIds.includes(t.producerId)) return false
  if (f.fromTime !== undefined && t.lastTimestamp !== null && t.lastTimestamp < BigInt(f.fromTime)) return false
  if (f.toTime !== undefined && t.firstTimestamp !== null && t.firstTimestamp > BigInt(f.toTime)) return false
  return true
}

export function runTransactions (opts: TransactionsOptions, ctx: CommandContext): number {
  const { paths, format: _format, color: _color, wide: _wide, ...lib } = opts
  const r = transactions(paths, { ...lib, now: opts.now ?? ctx.now() })
  if (r.unusable.length > 0) {
    writeUnusable(r.unusable, ctx)
    return EXIT_USAGE
  }
  r.nowGiven = opts.now !== undefined
  if (opts.format === 'json') printTransactionsJson(r, ctx.stdout)
  else printTransactionsText(r, ctx, { colorLevel: opts.color === false ? 0 : ctx.colorLevel, wide: opts.wide === true })
  return partitionExitCode([], r.findings.concat(r.transactions.flatMap((t) => t.findings)))
}
