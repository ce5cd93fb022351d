// The copies of one partition read side by side, each once: every copy's walk (replica-copy.ts) holds one batch,
// the batches of the lowest base offset go to the comparison together (analysis/replicas/lockstep.ts), and those
// walks move on. Memory is one read window per copy and what the comparison keeps, whatever the log size.
import type { Finding } from '../analysis/findings.js'
import type { PartitionComparison } from '../analysis/replicas/compare.js'
import { comparePartition } from '../analysis/replicas/compare.js'
import type { CopyPlan, Walked } from '../analysis/replicas/lockstep.js'
import { Lockstep, predictedPoints } from '../analysis/replicas/lockstep.js'
import type { PartitionDir } from '../io/discover.js'
import type { LogDirCheckpoints } from './replica-copy.js'
import { CopyWalk } from './replica-copy.js'
import { readPastAgain } from './replica-records.js'

/**
 * Not user options: a test turns off the points foreseen before the walk (so that every point but the batches' own
 * differences is read again), and is told of each read again.
 */
export interface ReplicasInternals {
  predictPoints?: boolean
  readAgain?: (partitionDir: string, point: bigint) => void
}

/** The copies of one partition (each on its broker), compared; the copies' own findings after the comparison's. */
export function compareCopies(
  copies: ReadonlyArray<{ broker: string; logDir: string; dir: PartitionDir }>,
  cps: LogDirCheckpoints,
  listRecords: number,
  internals: ReplicasInternals = {},
): PartitionComparison {
  const walks: CopyWalk[] = []
  let walked: Walked
  try {
    for (const c of copies) walks.push(new CopyWalk(c.broker, c.logDir, c.dir, cps))
    walked = sideBySide(walks, listRecords, internals)
  } finally {
    // a walk left midway (an exception) closes the segment it holds open
    for (const w of walks) w.close()
  }
  const read = walks.map((w, i) => w.input(walked.copies[i]!.batchEpochs))
  const { topic, partition } = copies[0]!.dir
  const cmp = comparePartition(
    topic!,
    partition!,
    read.map((r) => r.input),
    walked,
    (i, point) => {
      internals.readAgain?.(copies[i]!.dir.path, point)
      return readPastAgain(copies[i]!.dir, point, read[i]!.input.highWatermark, listRecords)
    },
  )
  for (const r of read) {
    cmp.findings.push(...r.findings)
    // the partition scan's notes (no .txnindex, ...) stay with reconcile; damage it found is reported here too
    for (const f of r.scanned.report.findings) if (f.severity !== 'info') cmp.findings.push(f as Finding)
  }
  return cmp
}

/** every copy's batches, the lowest base offset's together, through the comparison's walk */
function sideBySide(walks: readonly CopyWalk[], listRecords: number, internals: ReplicasInternals): Walked {
  for (const w of walks) w.next()
  const cleaned = walks.map((w) => w.cleanedTo).filter((c): c is bigint => c !== null)
  const cleanedTo = cleaned.length === 0 ? null : cleaned.reduce((a, b) => (b > a ? b : a))
  const lockstep = new Lockstep(planWalks(walks, internals.predictPoints !== false), cleanedTo, listRecords)
  const at: Array<CopyWalk | null> = walks.map(() => null)
  for (;;) {
    let min: bigint | null = null
    for (const w of walks) if (!w.done && (min === null || w.batch.baseOffset < min)) min = w.batch.baseOffset
    if (min === null) return lockstep.finish()
    walks.forEach((w, i) => {
      at[i] = !w.done && w.batch.baseOffset === min ? w : null
    })
    lockstep.column(at)
    for (const w of at) w?.next()
  }
}

/** what each walk knows before it starts: its log start, its high watermark as the scan will clamp it, its foreseen points */
function planWalks(walks: readonly CopyWalk[], predict: boolean): CopyPlan[] {
  const starts = walks.map((w) => w.logStart ?? (w.done ? null : w.batch.baseOffset))
  // UnifiedLog.updateHighWatermark: never below the log start (the partition scan's report clamps it so)
  const hws = walks.map((w, i) => {
    const hw = w.checkpointHighWatermark
    const s = starts[i] ?? null
    return hw === null || s === null || hw >= s ? hw : s
  })
  const points = predict
    ? predictedPoints(walks.map((w, i) => ({ cache: w.epochCheckpoint, highWatermark: hws[i] ?? null })))
    : walks.map(() => [])
  return walks.map((w, i) => ({
    logStart: starts[i] ?? null,
    highWatermark: hws[i] ?? null,
    points: points[i] ?? [],
    epochsFromBatches: w.epochCheckpoint === null,
  }))
}
