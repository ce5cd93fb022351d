// `tsdump export`'s one read of a partition: the partition scan every partition command shares (the analyzer's
// facts: HW, LSO, the transactions and their outcomes), with a tap on its frames that hands each batch's records
// out in the same pass, so each segment is read once, damaged or not.
//
// A transaction's outcome is written after its records, so a batch's visibility is not always known when it is
// read. It is when the batch lies below the first offset of the earliest transaction still unstable
// (AnalyzerProgress.unstableFrom) and below the checkpoint's HW: every transaction begun at or before it has
// ended (its ABORT, if any, is in the queue), and, while offsets increase, any transaction unstable at the end
// begins at or after that offset, so the final LSO and HW are not below it (without a checkpoint the HW is the
// log end, which no batch reaches). Such a batch is written at once; the others wait, in log order, in a queue
// that holds 8 MiB in memory and the rest in a scratch file (io/spill-queue.ts), and go as that offset moves
// past them, or at the partition's end with the final facts. A transaction that never ends makes the queue hold
// the rest of the partition on disk, not in memory.
//
// This is export-scan.ts exportRecords' record pass made from the scan's frames (docs/architecture.md, export).
// From the first frame that is not clean (damage, a tail, a CRC or header problem, a legacy entry, offsets that
// do not increase, a segment that cannot be opened) every later batch and finding waits in that queue for the
// partition's end, where the final facts decide them: the two passes' answers. The record pass stops at framing
// damage (readLog without resync), so a segment's batches go up to its first damage and none after; a tapped
// __transaction_state partition's records tap is told every batch the scan resyncs to. What was written before
// that frame is checked against the final facts (export-written.ts); where they reach back to it, everything is
// handed out again from a copy of all handed out before the end (`replay`, export-replay.ts: a scratch file within
// a budget, past which the two passes read the partition again) and the aborted transactions' log. A segment that shrinks while read ends at the record pass's finding where the read failed.
// A __transaction_state batch with a producer id (brokers write none) makes everything from it wait past the
// partition's end, until every coordinator partition has given its transactional ids (OneReadResult.finish). What
// this read cannot answer (a segment that opens only now) is read again in the two passes (commands/export.ts).
import type { Finding } from '../analysis/findings.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { toBigInt } from '../bytes/int64.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { NotClean } from './export-held.js'
import { OneRead } from './export-one-read.js'
import type { ExportVisitor, RecordsTap } from './export-scan.js'
import type { ScannedPartition } from './partition-scan.js'
import { scanPartition } from './partition-scan.js'

/**
 * What the one read gave: the scan, and `finish` when a __transaction_state partition's batch carried a producer id.
 * Its rows need every coordinator partition's transactional ids and --transactional-id's producer ids, known only
 * once all of them are read: they wait, with everything after them, for `finish` (the final filter), which tells
 * whether it answered (false: nothing it handed out counts, the two passes run).
 */
export interface OneReadResult {
  scanned: ScannedPartition
  finish?: (filter: RangeSpec | undefined) => boolean
  /** what `finish` would have ended (its scratch files), where it is not called (an error came first) */
  drop?: () => void
}

/**
 * Every record of the partition in log order, with its visibility, from one read; null when the log is not one
 * this read answers exactly as the two passes do (see the top of this file): nothing it handed out counts then.
 */
export function exportInOneRead(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  visit: ExportVisitor,
  findings: Finding[],
  filter?: RangeSpec,
  records?: RecordsTap,
): OneReadResult | null {
  const r = new OneRead(dir, checkpoints, visit, findings, filter, records)
  const mark = findings.length
  let deferred = false
  try {
    const scanned = scanPartition(dir, checkpoints, {
      analyzer: () => ({ sink: r.aborted, markerEpochs: false, progress: (p) => (r.progress = p) }),
      frames: () => (frames, src, file) => r.segment(frames, src, file),
      batch: (s) => r.fed(toBigInt(s.baseOffset), toBigInt(s.lastOffset)),
    })
    if (r.notClean) return null
    while (r.opened < r.logs.length) r.unopened(r.logs[r.opened++]!)
    if (!r.deferred) return r.end(scanned, mark) ? { scanned } : null
    deferred = true
    const finish = (final: RangeSpec | undefined): boolean => {
      try {
        r.refilter(final)
        return r.end(scanned, mark)
      } catch (e) {
        if (e instanceof NotClean) return false
        throw e
      } finally {
        r.close()
      }
    }
    return { scanned, finish, drop: () => r.close() }
  } catch (e) {
    if (e instanceof NotClean) return null
    throw e
  } finally {
    if (!deferred) r.close()
  }
}
