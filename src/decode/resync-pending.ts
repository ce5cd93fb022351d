// The resync search's open candidates (resync.ts): a binary min-heap on their end position, in four typed
// arrays of MAX_PENDING entries (8 bytes each), so that an input built to offer millions of candidates costs
// a bounded table, not an object per candidate.

/**
 * candidates whose end the sweep has not reached yet; a header found while this many are open is not
 * considered (only inputs built to defeat the search's cheap checks get there)
 */
export const MAX_PENDING = 1 << 18

/** open candidates, a binary min-heap on their end position */
export class Pending {
  readonly pos = new Float64Array(MAX_PENDING)
  readonly end = new Float64Array(MAX_PENDING)
  readonly prefix = new Float64Array(MAX_PENDING)
  readonly stored = new Float64Array(MAX_PENDING)
  size = 0

  push(pos: number, end: number, prefix: number, stored: number): void {
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (this.end[parent]! <= end) break
      this.move(parent, i)
      i = parent
    }
    this.set(i, pos, end, prefix, stored)
  }

  /** remove the root (the caller read it) */
  pop(): void {
    const last = --this.size
    if (last === 0) return
    const e = this.end[last]!
    let i = 0
    for (;;) {
      let c = 2 * i + 1
      if (c >= last) break
      if (c + 1 < last && this.end[c + 1]! < this.end[c]!) c++
      if (this.end[c]! >= e) break
      this.move(c, i)
      i = c
    }
    this.move(last, i)
  }

  /** keep only candidates before `pos` (the first valid batch found so far); rebuilds the heap */
  keepBefore(pos: number): void {
    const kept: number[][] = []
    for (let i = 0; i < this.size; i++)
      if (this.pos[i]! < pos) kept.push([this.pos[i]!, this.end[i]!, this.prefix[i]!, this.stored[i]!])
    this.size = 0
    for (const k of kept) this.push(k[0]!, k[1]!, k[2]!, k[3]!)
  }

  /** the first position of an open candidate at or after `from` (Infinity: none) */
  firstFrom(from: number): number {
    let first = Number.POSITIVE_INFINITY
    for (let i = 0; i < this.size; i++) {
      const p = this.pos[i]!
      if (p >= from && p < first) first = p
    }
    return first
  }

  private move(from: number, to: number): void {
    this.set(to, this.pos[from]!, this.end[from]!, this.prefix[from]!, this.stored[from]!)
  }

  private set(i: number, pos: number, end: number, prefix: number, stored: number): void {
    this.pos[i] = pos
    this.end[i] = end
    this.prefix[i] = prefix
    this.stored[i] = stored
  }
}
