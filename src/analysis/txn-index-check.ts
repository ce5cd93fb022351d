// Cross-check of the aborted transactions implied by ABORT markers against the .txnindex files.
// Kafka appends AbortedTxn(producerId, firstOffset, lastOffset = marker offset, lastStableOffset) to the
// txnindex of the segment holding the marker, for aborted transactions that had data
// (LogSegment.updateTxnIndex; empty transactions get none, KAFKA-10702). Consumers trust these
// entries, so a missing one exposes aborted data and an extra one hides committed data.
import type { Finding } from './findings.js'
import type { Transaction, TxnModel } from './transactions.js'
import type { TxnIndexEntry } from './txn-input.js'

export interface ExpectedAbortedTxn {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
  lastStableOffset: bigint
}

/** The txnindex entries the markers imply, in marker order. */
export function expectedAbortedTxns (model: TxnModel): ExpectedAbortedTxn[] {
  return model.transactions
    .filter((t): t is Transaction & { markerOffset: bigint } => t.outcome === 'ABORT' && !t.empty && t.markerOffset !== null)
    .sort((a, b) => (a.markerOffset < b.markerOffset ? -1 : 1))
    .map((t) => ({ producerId: t.producerId, firstOffset: t.firstOffset, lastOffset: t.markerOffset, lastStableOffset: t.completionLastStableOffset ?? t.markerOffset + 1n }))
}

function loc (e: TxnIndexEntry): { file?: string, position?: number } {
  return { ...(e.file !== undefined ? { file: e.file } : {}), ...(e.position !== undefined ? { position: e.position } : {}) }
}

/** Compare; `scannedFrom`/`scannedTo` bound the offsets the markers could be seen in. */
export function checkTxnIndex (model: TxnModel, entries: readonly TxnIndexEntry[], scannedTo: bigint): Finding[] {
  const out: Finding[] = []
  const scannedFrom = model.firstScannedOffset
  const expected = new Map<string, ExpectedAbortedTxn>()
  for (const e of expectedAbortedTxns(model)) expected.set(`${e.producerId}@${e.lastOffset}`, e)
  const emptyAborts = new Set(model.transactions.filter((t) => t.empty && t.outcome === 'ABORT').map((t) => `${t.producerId}@${t.markerOffset}`))
  const seen = new Set<string>()
  for (const e of entries) {
    const key = `${e.producerId}@${e.lastOffset}`
    if (seen.has(key)) {
      out.push({ severity: 'warning', code: 'TXNINDEX_DUPLICATE_ENTRY', ...loc(e), message: `txnindex lists the abort of producer ${e.producerId} at ${e.lastOffset} twice` })
      continue
    }
    seen.add(key)
    const x = expected.get(key)
    if (x === undefined) {
      if (e.lastOffset < scannedFrom || e.lastOffset >= scannedTo) {
        out.push({ severity: 'info', code: 'TXNINDEX_OUTSIDE_SCAN', ...loc(e), message: `txnindex entry for producer ${e.producerId} ends at ${e.lastOffset}, outside the scanned offsets ${scannedFrom}..${scannedTo - 1n}` })
      } else if (emptyAborts.has(key) && e.firstOffset < scannedFrom) {
        out.push({ severity: 'info', code: 'TXN_STARTED_BEFORE_SCAN', ...loc(e), message: `producer ${e.producerId}'s aborted transaction began at ${e.firstOffset}, before the first scanned offset ${scannedFrom} (no producer snapshot told us)` })
      } else {
        out.push({ severity: 'error', code: 'TXNINDEX_UNEXPECTED_ENTRY', ...loc(e),
          message: `txnindex says producer ${e.producerId} aborted ${e.firstOffset}..${e.lastOffset}, but there is no ABORT marker ending a transaction there; read_committed consumers will skip that producer's transactional data from ${e.firstOffset}` })
      }
      continue
    }
    if (x.firstOffset !== e.firstOffset) {
      out.push({ severity: 'error', code: 'TXNINDEX_FIRST_OFFSET_MISMATCH', ...loc(e),
        message: `txnindex says producer ${e.producerId}'s aborted transaction began at ${e.firstOffset}, the log says ${x.firstOffset} (ABORT at ${x.lastOffset})` })
    } else if (x.lastStableOffset !== e.lastStableOffset) {
      out.push({ severity: 'warning', code: 'TXNINDEX_LSO_MISMATCH', ...loc(e),
        message: `txnindex entry for producer ${e.producerId} (ABORT at ${e.lastOffset}) has lastStableOffset ${e.lastStableOffset}, the log implies ${x.lastStableOffset}` })
    }
  }
  for (const [key, x] of expected) {
    if (seen.has(key)) continue
    out.push({ severity: 'error', code: 'TXNINDEX_MISSING_ENTRY',
      message: `producer ${x.producerId} aborted ${x.firstOffset}..${x.lastOffset} (ABORT marker at ${x.lastOffset}) but no .txnindex entry records it: read_committed consumers will see the aborted records` })
  }
  return out
}
