// Per transactional id (its slot, bytes/key-slots.ts) what the coordinator's timeout rule keeps of its newest record
// while that record is an Ongoing one: its offset, epoch and start time as I64s, so that the reader of millions of
// coordinator records (scan/transaction-state-read.ts) tells the rule (analysis/transaction-join/timed-out.ts) only
// the Ongoing record a PrepareAbort follows, with no BigInt or Map lookup per record.
import type { I64 } from '../bytes/int64.js'

export /** per id slot: its newest record's offset, epoch and start time while that record is an Ongoing one */
class OngoingPerSlot {
  private readonly offsets: I64[] = []
  private readonly starts: I64[] = []
  private readonly epochs: number[] = []
  private isOpen = new Uint8Array(256)

  open(slot: number, offset: I64, epoch: number, start: I64): void {
    if (slot >= this.isOpen.length) {
      const b = new Uint8Array(Math.max(2 * this.isOpen.length, slot + 1))
      b.set(this.isOpen)
      this.isOpen = b
    }
    this.isOpen[slot] = 1
    this.offsets[slot] = offset
    this.starts[slot] = start
    this.epochs[slot] = epoch
  }

  /** whether the slot's newest record was an Ongoing one; it is not any more */
  close(slot: number): boolean {
    if (this.isOpen[slot] !== 1) return false
    this.isOpen[slot] = 0
    return true
  }

  offsetOf(slot: number): I64 {
    return this.offsets[slot]!
  }
  startOf(slot: number): I64 {
    return this.starts[slot]!
  }
  epochOf(slot: number): number {
    return this.epochs[slot]!
  }
}
