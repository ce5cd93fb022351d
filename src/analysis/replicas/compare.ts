// The copies of one partition side by side: which is the leader, where each other copy stops agreeing with
// it (the epoch rule, then the batches), what each holds past that point, and what differs in between.
// Replication copies batches as they are (ReplicaFetcherThread appends the leader's bytes), so below the
// divergence point every batch of a follower is the leader's batch: same offsets, CRC and leader epoch.
// The batches were walked before (lockstep.ts: every copy read once, side by side); this judges what the walk saw.
import type { Finding } from '../findings.js'
import { finding, locatePartitionFindings } from '../findings.js'
import type { EpochList, Truncation } from './epoch-rule.js'
import { truncationAgainst } from './epoch-rule.js'
import type { PairDiff, Walked } from './lockstep.js'
import type { PastPoint } from './past-point.js'
import type { ReplicaBatch, ReplicaInput } from './replica-input.js'

export interface ReplicaComparison {
  broker: string
  logDir: string
  topicId: string | null
  logStartOffset: bigint
  logEndOffset: bigint
  highWatermark: bigint | null
  lastStableOffset: bigint
  /** the latest epoch of the cache used; null when no epoch is known */
  leaderEpoch: number | null
  epochCache: EpochList
  /** leader-epoch-checkpoint, or the batches' own epochs when the file is absent or damaged */
  epochCacheFrom: 'checkpoint' | 'batches'
  isLeader: boolean
  /** the truncation the epoch rule gives against the leader (null for the leader itself) */
  truncation: Truncation | null
  /** first offset this copy holds that the leader does not; null when it agrees with the leader */
  divergenceOffset: bigint | null
  /** the batches from divergenceOffset on, the first BATCHES_LISTED of them */
  batchesPastDivergence: ReplicaBatch[]
  /** how many batches there are from divergenceOffset on */
  batchesPastDivergenceCount: number
  recordsPastDivergence: number
  /** of those, the records below this copy's high watermark: consumers could read them */
  recordsPastDivergenceBelowHighWatermark: number
  /** compacted partitions: offsets below the cleaned point this copy and the leader both hold, compared by key and value; null otherwise */
  recordsComparedBelowCleanedPoint: number | null
}

export interface PartitionComparison {
  topic: string
  partition: number
  /** false: on one broker only, listed and not compared */
  compared: boolean
  leader: string | null
  /** the cleaner's point on any copy: below it the copies are compacted on their own schedules */
  cleanedTo: bigint | null
  replicas: ReplicaComparison[]
  findings: Finding[]
}

function cacheOf(r: ReplicaInput): { cache: EpochList; from: 'checkpoint' | 'batches' } {
  return r.epochCheckpoint !== null
    ? { cache: r.epochCheckpoint, from: 'checkpoint' }
    : { cache: r.batchEpochs, from: 'batches' }
}

const latestEpoch = (cache: EpochList): number | null => cache.at(cache.length - 1)?.epoch ?? null

function describeBatch(b: ReplicaBatch): string {
  return `offsets ${b.baseOffset}-${b.lastOffset} epoch ${b.partitionLeaderEpoch} crc ${b.crc}`
}

/**
 * What copy `i` holds from `point` on: tallied by the walk when the point was among those it foresaw, else read
 * again (`readPast`: one more walk of that copy, for a point no rule before the walk gave)
 */
export type ReadPast = (i: number, point: bigint) => PastPoint

/**
 * Compare the copies of one partition (all with the same topic and partition) from what the walk of their batches
 * gathered (`walked`, in the order of `inputs`).
 */
export function comparePartition(
  topic: string,
  partition: number,
  inputs: readonly ReplicaInput[],
  walked: Walked,
  readPast: ReadPast,
): PartitionComparison {
  const label = `${topic}-${partition}`
  const findings: Finding[] = []
  const caches = inputs.map(cacheOf)
  for (const r of inputs) if (r.epochCheckpointDamage !== null) findings.push(r.epochCheckpointDamage)
  const cleaned = inputs.map((r) => r.cleanedTo).filter((c): c is bigint => c !== null)
  const cleanedTo = cleaned.length === 0 ? null : cleaned.reduce((a, b) => (b > a ? b : a))
  const base = (r: ReplicaInput, i: number): ReplicaComparison => ({
    broker: r.broker,
    logDir: r.logDir,
    topicId: r.topicId,
    logStartOffset: r.logStartOffset,
    logEndOffset: r.logEndOffset,
    highWatermark: r.highWatermark,
    lastStableOffset: r.lastStableOffset,
    leaderEpoch: latestEpoch(caches[i]!.cache),
    epochCache: caches[i]!.cache,
    epochCacheFrom: caches[i]!.from,
    isLeader: false,
    truncation: null,
    divergenceOffset: null,
    batchesPastDivergence: [],
    batchesPastDivergenceCount: 0,
    recordsPastDivergence: 0,
    recordsPastDivergenceBelowHighWatermark: 0,
    recordsComparedBelowCleanedPoint: null,
  })
  const replicas = inputs.map(base)
  const listingProblems: Finding[][] = inputs.map(() => [])
  if (inputs.length < 2) {
    findings.push(
      finding(
        'REPLICA_SINGLE_COPY',
        `${label} is in ${inputs[0]?.logDir ?? 'one log directory'} only: listed, not compared`,
        spanOf(inputs),
      ),
    )
    locate(findings, label, inputs)
    return { topic, partition, compared: false, leader: null, cleanedTo, replicas, findings }
  }
  // the leader: the copy with the newest epoch, then the longest log (the one a later election would keep)
  let li = 0
  replicas.forEach((r, i) => {
    const l = replicas[li]!
    const e = r.leaderEpoch ?? -1
    const le = l.leaderEpoch ?? -1
    if (e > le || (e === le && r.logEndOffset > l.logEndOffset)) li = i
  })
  const leader = inputs[li]!
  replicas[li]!.isLeader = true
  let unread = 0
  const leaderLog = {
    cache: caches[li]!.cache,
    logEndOffset: leader.logEndOffset,
    highWatermark: leader.highWatermark ?? leader.logEndOffset,
  }
  inputs.forEach((r, i) => {
    if (i === li) return
    const c = replicas[i]!
    if (r.topicId !== null && leader.topicId !== null && r.topicId !== leader.topicId) {
      findings.push(
        finding(
          'REPLICA_TOPIC_ID_DIFFERS',
          `${label}: broker ${r.broker} holds topic id ${r.topicId}, the leader (broker ${leader.broker}) ${leader.topicId}: the topic was deleted and recreated; these copies are not compared`,
          { file: `${r.logDir}/${label}/partition.metadata`, position: 0 },
        ),
      )
      return
    }
    const t = truncationAgainst(
      { cache: caches[i]!.cache, logEndOffset: r.logEndOffset, highWatermark: r.highWatermark ?? r.logEndOffset },
      leaderLog,
    )
    c.truncation = t
    let point = t.offset < r.logEndOffset ? t.offset : null
    // the first batch below the point the epoch rule gives that the leader does not hold as it is
    const diff: PairDiff | null = walked.copies[i]!.firstDiff[li] ?? null
    if (diff !== null && diff.reach < t.offset) {
      const d = diff.batch
      findings.push(
        finding(
          'REPLICA_BATCHES_DIFFER',
          `${label}: below the point the epoch rule gives (${t.offset}), broker ${r.broker}'s batch (${describeBatch(d)}) is not the leader's (${diff.theirs === null ? `broker ${leader.broker} has no batch at ${d.baseOffset}` : `broker ${leader.broker}: ${describeBatch(diff.theirs)}`}): Kafka will not repair this copy`,
          { file: d.file, position: d.position },
        ),
      )
      point = d.baseOffset
    }
    if (cleanedTo !== null && walked.records !== null) {
      const rc = walked.records.result(i, li)
      c.recordsComparedBelowCleanedPoint = rc.compared
      unread += rc.unread
      if (rc.first !== null) {
        const diff = rc.first.mine.key !== rc.first.theirs.key ? 'key' : 'value'
        findings.push(
          finding(
            'REPLICA_RECORDS_DIFFER',
            `${label}: below the cleaned point ${cleanedTo}, the record at offset ${rc.first.offset} on broker ${r.broker} has another ${diff} than the leader's (broker ${leader.broker}; SHA-256 ${rc.first.mine[diff]} vs ${rc.first.theirs[diff]}): compaction only removes records, it never changes one`,
            { firstOffset: rc.first.offset, lastOffset: rc.first.offset },
          ),
        )
        if (point === null || rc.first.offset < point) point = rc.first.offset
      }
    }
    if (point === null) return
    c.divergenceOffset = point
    const tallied = walked.copies[i]!.past.get(point)
    const past = tallied !== undefined && tallied.highWatermark === r.highWatermark ? tallied : readPast(i, point)
    c.batchesPastDivergenceCount = past.batches
    c.batchesPastDivergence = past.listed
    c.recordsPastDivergence = past.records
    c.recordsPastDivergenceBelowHighWatermark = r.highWatermark !== null ? past.recordsBelowHighWatermark : 0
    listingProblems[i] = past.problems
    const hwNote =
      c.recordsPastDivergenceBelowHighWatermark > 0
        ? `; ${c.recordsPastDivergenceBelowHighWatermark} of them below its high watermark ${r.highWatermark}: committed there, and readable by consumers, yet not on the leader`
        : ''
    const epochs = t.steps
      .map((s) => `epoch ${s.requestedEpoch} -> the leader's ${s.leader.epoch} ending at ${s.leader.endOffset}`)
      .join(', then ')
    findings.push(
      finding(
        'REPLICA_DIVERGED',
        `${label}: broker ${r.broker} diverges from the leader (broker ${leader.broker}) at offset ${point} (${epochs}): ${c.recordsPastDivergence} records in ${c.batchesPastDivergenceCount} batches past it are not on the leader and go when the copy follows it${hwNote}`,
        { firstOffset: point, lastOffset: r.logEndOffset - 1n },
      ),
    )
    findings.push(...markerFindings(label, r, leader, past))
  })
  findings.push(...offsetFindings(label, replicas))
  findings.push(...damageFindings(label, inputs, walked, li))
  if (cleanedTo !== null) {
    const counts = replicas
      .filter((r) => r.recordsComparedBelowCleanedPoint !== null)
      .map((r) => `broker ${r.broker} ${r.recordsComparedBelowCleanedPoint}`)
    const how =
      counts.length === 0
        ? 'only the epochs were compared there'
        : `there the records at offsets both a copy and the leader hold were compared by key and value (SHA-256): ${counts.join(', ')} offsets${unread > 0 ? `; ${unread} batches too large or damaged to read were left out` : ''}`
    findings.push(
      finding(
        'REPLICA_COMPACTED',
        `${label} is compacted (a copy's cleaner-offset-checkpoint is at ${cleanedTo}): each broker cleans on its own schedule, so batches below ${cleanedTo} were not compared byte for byte; ${how}`,
        { firstOffset: spanOf(inputs).firstOffset, lastOffset: cleanedTo - 1n },
      ),
    )
  }
  locate(findings, label, inputs)
  // where the listed batches' records could not be read, copy by copy
  for (const p of listingProblems) findings.push(...p)
  return { topic, partition, compared: true, leader: leader.broker, cleanedTo, replicas, findings }
}

/**
 * The COMMIT and ABORT markers past the divergence point whose transaction the leader still has open (the first
 * MARKERS_KEPT markers past the point are checked; the last finding says how many more were not).
 */
function markerFindings(label: string, r: ReplicaInput, leader: ReplicaInput, past: PastPoint): Finding[] {
  const out: Finding[] = []
  for (const b of past.markers) {
    const open = leader.openTransactions.find((t) => t.producerId === b.producerId)
    if (open !== undefined) out.push(markerFinding(label, r, leader, b, open))
  }
  const last = out[out.length - 1]
  if (last !== undefined && past.markersOmitted > 0)
    last.message += `; ${past.markersOmitted} more markers past the divergence point were not checked`
  return out
}

function markerFinding(
  label: string,
  r: ReplicaInput,
  leader: ReplicaInput,
  b: ReplicaBatch,
  open: { firstOffset: bigint },
): Finding {
  return finding(
    'REPLICA_MARKER_LOST',
    `${label}: the ${b.marker} marker of producer ${b.producerId} (epoch ${b.producerEpoch}) at offset ${b.baseOffset} is on broker ${r.broker} only: on the leader (broker ${leader.broker}) its transaction from offset ${open.firstOffset} has no marker and stays open, so the LSO stays at ${leader.lastStableOffset} and read_committed consumers stop there (its coordinator considers it ended and will not write the marker again: tsdump lso on the leader's copy gives the abort command)`,
    { file: b.file, position: b.position },
  )
}

/**
 * Batches whose stored CRC-32C does not match their bytes, on any copy. Replication copies batches as they are
 * and compares nothing, so the stored CRCs of two copies can agree while one copy's bytes are damaged: each copy
 * is checked as it is walked, and a copy that holds the same batch intact (same offsets, a CRC that checks) is
 * named: the walk sees the copies' batches of one offset side by side.
 */
function damageFindings(label: string, inputs: readonly ReplicaInput[], walked: Walked, leader: number): Finding[] {
  const out: Finding[] = []
  inputs.forEach((r, i) => {
    const w = walked.copies[i]!
    w.damaged.forEach((b, k) => {
      const intact = w.intactOn[k]!.map((j) => inputs[j]!.broker)
      const more =
        k === w.damaged.length - 1 && w.damagedCount > w.damaged.length
          ? `; ${w.damagedCount - w.damaged.length} more damaged batches on this copy`
          : ''
      out.push(
        finding(
          'REPLICA_COPY_DAMAGED',
          `${label}: broker ${r.broker}'s${i === leader ? " (the leader's)" : ''} batch at offsets ${b.baseOffset}-${b.lastOffset} fails its CRC: this copy is damaged there; ` +
            (intact.length > 0
              ? `${intact.length === 1 ? 'broker' : 'brokers'} ${intact.join(', ')} hold${intact.length === 1 ? 's' : ''} it intact`
              : 'no other copy holds it intact') +
            more,
          { file: b.file, position: b.position },
        ),
      )
    })
  })
  return out
}

/** partition-level findings (no file and position) name the partition and, unless they say which, the offsets the copies hold */
function locate(findings: Finding[], label: string, inputs: readonly ReplicaInput[]): void {
  const span = spanOf(inputs)
  locatePartitionFindings(findings, label, span.firstOffset, span.lastOffset)
}

/** the offsets the copies hold, from the lowest log start to the highest last offset: where a partition-level finding is */
function spanOf(inputs: readonly ReplicaInput[]): { firstOffset: bigint; lastOffset: bigint } {
  const first =
    inputs.reduce<bigint | null>((a, r) => (a === null || r.logStartOffset < a ? r.logStartOffset : a), null) ?? 0n
  const end =
    inputs.reduce<bigint | null>((a, r) => (a === null || r.logEndOffset > a ? r.logEndOffset : a), null) ?? 0n
  return { firstOffset: first, lastOffset: end > first ? end - 1n : first }
}

function offsetFindings(label: string, replicas: readonly ReplicaComparison[]): Finding[] {
  const out: Finding[] = []
  const hws = new Set(replicas.map((r) => String(r.highWatermark)))
  const lsos = new Set(replicas.map((r) => String(r.lastStableOffset)))
  if (hws.size > 1 || lsos.size > 1) {
    const list = (f: (r: ReplicaComparison) => bigint | null): string =>
      replicas.map((r) => `${r.broker}:${f(r) ?? '-'}`).join(' ')
    const leader = replicas.find((r) => r.isLeader)
    const above = replicas.filter(
      (r) =>
        !r.isLeader &&
        leader?.highWatermark != null &&
        r.highWatermark !== null &&
        r.highWatermark > leader.highWatermark,
    )
    const note =
      above.length === 0
        ? "a follower's lags its leader's"
        : `broker ${above.map((r) => r.broker).join(', ')} had a higher HW than the leader: consumers there could read offsets the leader reached later or never`
    // the offsets the copies disagree on: from the lowest of their HWs and LSOs to below the highest
    const marks = replicas.flatMap((r) => [r.highWatermark, r.lastStableOffset]).filter((v): v is bigint => v !== null)
    const lo = marks.reduce((a, b) => (b < a ? b : a))
    const hi = marks.reduce((a, b) => (b > a ? b : a))
    out.push(
      finding(
        'REPLICA_OFFSETS_DIFFER',
        `${label}: high watermarks ${list((r) => r.highWatermark)}, last stable offsets ${list((r) => r.lastStableOffset)} (${note})`,
        { firstOffset: lo, lastOffset: hi > lo ? hi - 1n : lo },
      ),
    )
  }
  return out
}
