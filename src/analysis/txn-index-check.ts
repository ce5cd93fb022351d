// Cross-check of the aborted transactions implied by ABORT markers against the .txnindex files.
// Kafka appends AbortedTxn(producerId, firstOffset, lastOffset = marker offset, lastStableOffset) to the
// txnindex of the segment holding the marker, for aborted transactions that had data
// (LogSegment.updateTxnIndex; empty transactions get none, KAFKA-10702). Consumers trust these
// entries, so a missing one exposes aborted data and an extra one hides committed data. An entry ending at an
// ABORT marker whose data is gone is the cleaner's (CleanedTransactionMetadata.onControlBatchRead), not an error.
//
// The entries stay in the table decode/txn-index-table.ts reads from the files' bytes (a big partition can
// have hundreds of thousands of them); markers are matched against them while the batches stream by.
import { int64Halves } from '../bytes/int64.js'
import type { TxnIndexTable } from '../decode/txn-index-table.js'
import type { FindingSink } from './finding-list.js'
import { MAX_LISTED_PER_CODE } from './finding-list.js'
import type { Finding } from './findings.js'

export interface ExpectedAbortedTxn {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
  lastStableOffset: bigint
}

const F_DUPLICATE = 1
const F_MATCHED = 2
const F_EMPTY_ABORT = 4
/** matched, but its firstOffset / lastStableOffset disagrees with the log (the finding is kept for the first ones only) */
const F_FIRST_MISMATCH = 8
const F_LSO_MISMATCH = 16

/**
 * Streams the markers of a partition against its txnindex entries. Memory: one byte per entry plus
 * at most MAX_LISTED_PER_CODE findings of each code; no per-marker state.
 */
export class TxnIndexChecker {
  private readonly flags: Uint8Array
  /** the kept mismatch findings by entry, and how many of each kind */
  private readonly mismatches = new Map<number, Finding>()
  private keptFirst = 0
  private keptLso = 0
  /** the first MAX_LISTED_PER_CODE missing entries (a report lists no more of a code), the rest counted */
  private readonly missing = new Map<string, Finding>()
  private missingNotKept = 0
  private readonly byLast: Uint32Array | null

  constructor(readonly table: TxnIndexTable) {
    this.flags = new Uint8Array(table.length)
    this.byLast = table.sortedByLast()
    for (let k = 1; k < table.length; k++) {
      const a = this.at(k - 1)
      const b = this.at(k)
      if (table.compare(a, b, 'lastOffset') === 0 && table.compare(a, b, 'producerId') === 0)
        this.flags[b]! |= F_DUPLICATE
    }
  }

  /** the entry at rank k in (lastOffset, producerId, file) order */
  private at(k: number): number {
    return this.byLast === null ? k : this.byLast[k]!
  }

  /** the first (in file order) entry for producerId's abort at markerOffset, or -1 */
  private lookup(producerId: bigint, markerOffset: bigint): number {
    const t = this.table
    const n = t.length
    const marker = int64Halves(markerOffset)
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (t.compareTo(this.at(mid), 'lastOffset', marker) < 0) lo = mid + 1
      else hi = mid
    }
    for (let k = lo; k < n && t.compareTo(this.at(k), 'lastOffset', marker) === 0; k++) {
      const i = this.at(k)
      if (t.producerId(i) === producerId && (this.flags[i]! & F_DUPLICATE) === 0) return i
    }
    return -1
  }

  /** An ABORT marker ended a transaction with data: Kafka wrote `x` into the txnindex. */
  abortedTxn(x: ExpectedAbortedTxn): void {
    const i = this.lookup(x.producerId, x.lastOffset)
    if (i < 0) {
      const key = `${x.producerId}@${x.lastOffset}`
      if (this.missing.size >= MAX_LISTED_PER_CODE && !this.missing.has(key)) {
        this.missingNotKept++
        return
      }
      this.missing.set(key, {
        severity: 'error',
        code: 'TXNINDEX_MISSING_ENTRY',
        firstOffset: x.firstOffset,
        lastOffset: x.lastOffset,
        message: `producer ${x.producerId} aborted ${x.firstOffset}..${x.lastOffset} (ABORT marker at ${x.lastOffset}) but no .txnindex entry records it: read_committed consumers will see the aborted records`,
      })
      return
    }
    this.flags[i]! |= F_MATCHED
    const t = this.table
    if (x.firstOffset !== t.firstOffset(i)) {
      this.mismatch(i, F_FIRST_MISMATCH, () => ({
        severity: 'error',
        code: 'TXNINDEX_FIRST_OFFSET_MISMATCH',
        ...t.location(i),
        message: `txnindex says producer ${x.producerId}'s aborted transaction began at ${t.firstOffset(i)}, the log says ${x.firstOffset} (ABORT at ${x.lastOffset})`,
      }))
    } else if (x.lastStableOffset !== t.lastStableOffset(i)) {
      this.mismatch(i, F_LSO_MISMATCH, () => ({
        severity: 'warning',
        code: 'TXNINDEX_LSO_MISMATCH',
        ...t.location(i),
        message: `txnindex entry for producer ${x.producerId} (ABORT at ${x.lastOffset}) has lastStableOffset ${t.lastStableOffset(i)}, the log implies ${x.lastStableOffset}`,
      }))
    } else {
      this.mismatch(i, 0, null)
    }
  }

  /**
   * Entry i's latest verdict: a mismatch flag (0: none) and its finding, kept while fewer than MAX_LISTED_PER_CODE
   * of that flag are (a 16 MiB .txnindex has ~490k entries: a finding each would be ~170 MiB); the rest are counted by findings().
   */
  private mismatch(i: number, flag: number, make: (() => Finding) | null): void {
    const old = this.flags[i]! & (F_FIRST_MISMATCH | F_LSO_MISMATCH)
    if (old !== 0 && this.mismatches.delete(i)) {
      if (old === F_FIRST_MISMATCH) this.keptFirst--
      else this.keptLso--
    }
    this.flags[i] = (this.flags[i]! & ~(F_FIRST_MISMATCH | F_LSO_MISMATCH)) | flag
    if (make === null || (flag === F_FIRST_MISMATCH ? this.keptFirst : this.keptLso) >= MAX_LISTED_PER_CODE) return
    this.mismatches.set(i, make())
    if (flag === F_FIRST_MISMATCH) this.keptFirst++
    else this.keptLso++
  }

  /** An ABORT marker with no transaction open (an empty transaction: no entry expected). */
  emptyAbort(producerId: bigint, markerOffset: bigint): void {
    const i = this.lookup(producerId, markerOffset)
    if (i >= 0) this.flags[i]! |= F_EMPTY_ABORT
  }

  /** Findings in entry order, then the missing entries in marker order. `scannedFrom`/`scannedTo` bound the offsets the markers could be seen in. */
  findings(scannedFrom: bigint, scannedTo: bigint, out: FindingSink): void {
    let firstNotKept = 0
    let lsoNotKept = 0
    const t = this.table
    for (let i = 0; i < t.length; i++) {
      const f = this.flags[i]!
      const pid = t.producerId(i)
      const last = t.lastOffset(i)
      if ((f & F_DUPLICATE) !== 0) {
        out.push({
          severity: 'warning',
          code: 'TXNINDEX_DUPLICATE_ENTRY',
          ...t.location(i),
          message: `txnindex lists the abort of producer ${pid} at ${last} twice`,
        })
        continue
      }
      if ((f & F_MATCHED) !== 0) {
        const m = this.mismatches.get(i)
        if (m !== undefined) out.push(m)
        else if ((f & F_FIRST_MISMATCH) !== 0) firstNotKept++
        else if ((f & F_LSO_MISMATCH) !== 0) lsoNotKept++
        continue
      }
      const first = t.firstOffset(i)
      if (last < scannedFrom || last >= scannedTo) {
        out.push({
          severity: 'info',
          code: 'TXNINDEX_OUTSIDE_SCAN',
          ...t.location(i),
          message: `txnindex entry for producer ${pid} ends at ${last}, outside the scanned offsets ${scannedFrom}..${scannedTo - 1n}`,
        })
      } else if ((f & F_EMPTY_ABORT) !== 0 && first < scannedFrom) {
        out.push({
          severity: 'info',
          code: 'TXN_STARTED_BEFORE_SCAN',
          ...t.location(i),
          message: `producer ${pid}'s aborted transaction began at ${first}, before the first scanned offset ${scannedFrom} (no producer snapshot told us)`,
        })
      } else if ((f & F_EMPTY_ABORT) !== 0) {
        // The log cleaner removed the transaction's data and kept its ABORT marker with the original entry
        // (LogCleaner CleanedTransactionMetadata.onControlBatchRead appends the AbortedTxn to the cleaned segment's
        // .txnindex when it saw batches of that transaction); the next clean drops both. Consumers skip nothing.
        continue
      } else {
        out.push({
          severity: 'error',
          code: 'TXNINDEX_UNEXPECTED_ENTRY',
          ...t.location(i),
          message: `txnindex says producer ${pid} aborted ${first}..${last}, but there is no ABORT marker ending a transaction there; read_committed consumers will skip that producer's transactional data from ${first}`,
        })
      }
    }
    for (const f of this.missing.values()) out.push(f)
    out.count('TXNINDEX_MISSING_ENTRY', this.missingNotKept)
    out.count('TXNINDEX_FIRST_OFFSET_MISMATCH', firstNotKept)
    out.count('TXNINDEX_LSO_MISMATCH', lsoNotKept)
  }
}
