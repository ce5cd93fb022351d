// What a clean does to the dirty section, tallied while the offset map is built, so that the section is read twice
// in all (the partition scan, then Cleaner.buildOffsetMap) and not a third time by Cleaner.cleanSegments. A dirty
// record is kept when it is its key's newest (Cleaner.shouldRetainRecord: offset >= map.get(key)), which the map
// itself knows once it is built (OffsetMap record flags: a tombstone bit per key, replaced tombstones counted as
// the map fills). A marker's fate (CleanedTransactionMetadata.onControlBatchRead) depends on the transactions in
// progress where the section starts, which only the read of the clean section before it knows: a producer's
// first marker in the section, with none of its transaction's batches before it there, waits for that state.
import type { CleanBatch } from './model.js'
import type { CleanedTransactionMetadata } from './txn-metadata.js'

export class DirtyTally {
  recordsBefore = 0
  abortedRecords = 0
  markersKept = 0
  markersRemoved = 0
  /** the current data batch belongs to an aborted transaction */
  discard = false
  /** the current data batch's delete horizon */
  horizon: bigint | null = null
  /** producers whose transaction state is the section's own (a marker of theirs was read in it) */
  private readonly settled = new Set<bigint>()
  /** producer id -> its first marker in the section, to be judged with the state where the section starts */
  private readonly pending = new Map<bigint, { commit: boolean; horizonPassed: boolean }>()

  constructor(private readonly nowMs: bigint) {}

  /** a control batch, told before `txns` (the map pass's CleanedTransactionMetadata) reads it */
  control(b: CleanBatch, txns: CleanedTransactionMetadata): void {
    const horizonPassed = b.deleteHorizonMs !== null && b.deleteHorizonMs <= this.nowMs
    const isMarker = b.control === 'COMMIT' || b.control === 'ABORT'
    // its own transaction's batches were read in the section: the section's state decides it
    const known =
      !isMarker ||
      this.settled.has(b.producerId) ||
      (b.control === 'COMMIT' ? txns.committedOpen(b.producerId) : txns.abortedSeen(b.producerId) === true)
    const canDiscard = txns.onControlBatchRead(b)
    if (isMarker && !this.settled.has(b.producerId)) {
      this.settled.add(b.producerId)
      if (!known) {
        this.pending.set(b.producerId, { commit: b.control === 'COMMIT', horizonPassed })
        return
      }
    }
    if (b.control === 'EMPTY') return
    if (canDiscard && horizonPassed) this.markersRemoved++
    else this.markersKept++
  }

  /** the waiting markers judged with `before`: the clean pass's CleanedTransactionMetadata where the section starts */
  settle(before: CleanedTransactionMetadata): void {
    for (const [producerId, m] of this.pending) {
      const canDiscard = m.commit ? !before.committedOpen(producerId) : before.abortedSeen(producerId) !== true
      if (canDiscard && m.horizonPassed) this.markersRemoved++
      else this.markersKept++
    }
    this.pending.clear()
  }
}
