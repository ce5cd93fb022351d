// Reads the records of a __transaction_state partition (full record decoding: keys and values are
// needed) into pure TransactionStateRecord values, handed out one at a time: nothing is kept here, so
// a caller keeps what it needs (the newest record per id, or the producer ids of one id), not every
// record read.
import { forEachInternalRecord } from './internal-records.js'
import { FindingList } from '../analysis/finding-list.js'
import { finding } from '../analysis/findings.js'
import type { TransactionalIdState, TransactionStateRecord } from '../analysis/transactional-id-state.js'
import { replacesNewest, sortStates, transactionalIdState } from '../analysis/transactional-id-state.js'
import { decodeTransactionLogKey, decodeTransactionLogValue } from '../decode/topics/transaction-state.js'
import type { LostRecords } from '../analysis/lost-records.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import type { PartitionDir } from '../io/discover.js'
import { TimedOutWatch, timedOutFinding } from '../analysis/transaction-join/timed-out.js'
import type { TimedOutAbort } from '../analysis/transaction-join/timed-out.js'

/**
 * Calls `visit` with each record of the partition's segments, in file order; returns the findings (bounded per
 * code) and where records could not be read.
 */
export function scanTransactionLog (dir: PartitionDir, visit: (r: TransactionStateRecord) => void): { findings: FindingList, lost: LostRecords[] } {
  // bounded per code (analysis/finding-list.ts): a damaged log can give one finding per record
  const findings = new FindingList()
  const lost = forEachInternalRecord(dir.files.filter((x) => x.kind === 'log'), findings, (rec, header, f) => {
    if (rec.key === null) return
    const k = decodeTransactionLogKey(rec.key, rec.filePosition)
    if (k.transactionalId === null) return
    if (rec.valuePieces !== undefined) {
      // a value larger than the window: no coordinator writes one, and it would have to be held to decode
      findings.push(finding('BAD_INTERNAL_RECORD', `transaction log value of ${rec.valueSize ?? -1} bytes at offset ${rec.offset} is larger than the read window (${DEFAULT_WINDOW} bytes): not decoded`,
        { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : header.position }))
      return
    }
    visit({ offset: rec.offset, transactionalId: k.transactionalId, value: rec.value === null ? null : decodeTransactionLogValue(rec.value, rec.filePosition),
      file: f.path, position: rec.filePosition, timestamp: header.maxTimestamp })
  })
  return { findings, lost }
}

/**
 * The newest state of each transactional id in the partition, sorted by id. Read twice: the first pass
 * keeps only which record is each id's newest (its ordinal among the records visited, in typed arrays),
 * the second keeps those records. Keeping the newest record per id in one pass promoted every record
 * decoded to V8's old generation until the next of its id replaced it (even one BigInt offset per record
 * did); the figures are in bench/RESULTS.md ("Figures behind choices in the code"), and README's Known
 * limits has this pair's numbers.
 */
export function transactionLogStates (dir: PartitionDir, keepTimedOut: (a: TimedOutAbort) => boolean = () => true): { states: TransactionalIdState[], findings: FindingList } {
  const newest = new NewestPerId()
  let n = 0
  // the coordinator's own timeout aborts are said wherever its records are read (txns, lso)
  const timedOut = new TimedOutWatch()
  const { findings, lost } = scanTransactionLog(dir, (r) => { newest.add(r.transactionalId, r.offset, n++); timedOut.add(r) })
  for (const a of timedOut.aborts) if (keepTimedOut(a)) findings.push(timedOutFinding(a))
  const states: TransactionalIdState[] = []
  let k = 0
  // the same records in the same order, so one per id is taken; each is made a state at once, so no record is
  // held. Its findings are the first pass's again, but for a file that changed in between (then an id's newest
  // record may be missed, and that must be said)
  // a state whose newest record precedes bytes that could not be read is marked unknown past them
  const again = scanTransactionLog(dir, (r) => { if (newest.ordinalOf(r.transactionalId) === k) states.push(transactionalIdState(r, lost)); k++ }).findings
  for (const f of again.listed) if (f.code === 'FILE_CHANGED' && !findings.listed.some((x) => x.code === f.code && x.file === f.file)) findings.push(f)
  return { states: sortStates(states), findings }
}

/** per transactional id, the ordinal and offset of its newest record (replacesNewest), in typed arrays */
class NewestPerId {
  private readonly slots = new Map<string, number>()
  private offsets = new BigInt64Array(1024)
  private ordinals = new Float64Array(1024)

  add (id: string, offset: bigint, ordinal: number): void {
    let s = this.slots.get(id)
    if (s === undefined) {
      s = this.slots.size
      this.slots.set(id, s)
      if (s === this.offsets.length) this.grow()
    } else if (!replacesNewest(offset, this.offsets[s]!)) return
    this.offsets[s] = offset
    this.ordinals[s] = ordinal
  }

  ordinalOf (id: string): number { const s = this.slots.get(id); return s === undefined ? -1 : this.ordinals[s]! }

  private grow (): void {
    const o = new BigInt64Array(this.offsets.length * 2); o.set(this.offsets); this.offsets = o
    const d = new Float64Array(this.ordinals.length * 2); d.set(this.ordinals); this.ordinals = d
  }
}
