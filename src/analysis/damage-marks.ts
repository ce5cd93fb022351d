// What damage in a partition's log does to its transactions. Bytes that could not be read (a damaged
// region the scan resumed after, a torn tail, a batch whose header or control record is damaged) may hold
// any producer's data or COMMIT/ABORT marker. So a transaction open at the damage, or one whose producer
// had no marker since the damage, has an unknown outcome whatever marker is read after it: the marker
// found may end a later transaction of the same producer, and the one that ended it may be in the damage.
// Kafka's own reader stops at the first such entry (LogSegment.recover truncates there); the partition scan
// goes on as the dump does, and says which findings follow from the damage instead of blaming the indexes.
import type { I64 } from '../bytes/int64.js'
import { i64Add } from '../bytes/int64.js'
import type { Finding } from './findings.js'
import { finding } from './findings.js'
import type { DamageRef } from './transactions.js'
import type { TransactionOutcome } from './partition-transaction.js'

export class DamageMarks {
  /** the first damage of the partition (where the findings that follow from damage point) and the latest */
  first: DamageRef | null = null
  private latest: DamageRef | null = null
  /** producers that had a COMMIT/ABORT since the latest damage: their next transaction is readable whole */
  private readonly marked = new Set<I64>()
  /** after damaged bytes, the offset the next batch has when no batch was lost in them; null: not waiting */
  private expected: I64 | null = null
  private waiting = false

  /**
   * Bytes at `at` could not be read: every transaction open now is marked (and `cut`: a later data batch of
   * another epoch begins a new transaction). `lastOffset`: the last offset read before them, when batches may be
   * lost in them (a damaged region or tail); undefined for a damaged batch whose offsets are known.
   */
  damaged(
    at: DamageRef,
    open: Iterable<{ damage?: DamageRef; cut: boolean; outcome: TransactionOutcome }>,
    lastOffset?: I64 | null,
  ): void {
    this.first ??= at
    for (const t of open) {
      t.damage ??= at
      t.cut = true
      t.outcome = 'unknown'
    }
    if (lastOffset === undefined) return
    this.latest = at
    this.marked.clear()
    this.expected = lastOffset === null ? null : i64Add(lastOffset, 1)
    this.waiting = true
  }

  /** the first batch after damaged bytes: offsets that follow on mean no batch was lost in them */
  next(baseOffset: I64): void {
    if (!this.waiting) return
    this.waiting = false
    if (this.expected !== null && baseOffset === this.expected) this.latest = null
  }

  /** the damage a transaction of `pid` starting now (data, or a marker with none open) may have lost its beginning in */
  beginning(pid: I64): DamageRef | undefined {
    return this.latest !== null && !this.marked.has(pid) ? this.latest : undefined
  }

  /** `pid` wrote a marker after the latest damage */
  ended(pid: I64): void {
    if (this.latest !== null) this.marked.add(pid)
  }
}

/** the finding of a transaction whose outcome the damage hides; `marker`: the marker read after the damage, if any */
export function unknownOutcome(
  t: { producerId: I64; firstOffset: I64; damage?: DamageRef },
  marker: { type: string; offset: I64 } | null,
): Finding {
  const d = t.damage!
  return finding(
    'TXN_OUTCOME_UNKNOWN',
    `producer ${t.producerId}'s transaction from offset ${t.firstOffset}: outcome unknown, its data or marker may lie in the bytes ` +
      `that could not be read at ${d.file}:${d.position}` +
      (marker !== null
        ? ` (the ${marker.type} at ${marker.offset} is counted)`
        : ' (no marker after them: not judged open or hanging)'),
    { file: d.file, position: d.position },
  )
}

/**
 * The txnindex and snapshot cross-checks compare the index files with the markers that could be read; with
 * damage their differences follow from the unreadable bytes, not from the indexes: one finding at the damage.
 */
export function indexesNotChecked(d: DamageRef): Finding {
  return finding(
    'TXNINDEX_NOT_CHECKED',
    `the log has bytes that could not be read at ${d.file}:${d.position}: .txnindex and producer snapshots not cross-checked ` +
      'against it (what they list may be in those bytes; the damage, not the indexes, is what to repair)',
    { file: d.file, position: d.position },
  )
}
