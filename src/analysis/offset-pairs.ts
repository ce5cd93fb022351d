// (a, b) offset pairs that kafka-dump-log lists after a dump (non-consecutive offsets, index mismatches),
// newest first as its Scala List prepend gives them. Two growing BigInt64Arrays (16 bytes a pair, O(1) a
// push): the old Array#unshift copied the whole list on every gap, quadratic on a segment with a gap after
// every record. With a `limit`, only the newest `limit` pairs are kept (a ring) and the rest are counted:
// --compat keeps every pair because Kafka prints every one; tsdump's own text keeps a bounded list.
export class OffsetPairs implements Iterable<readonly [bigint, bigint]> {
  private a = new BigInt64Array(0)
  private b = new BigInt64Array(0)
  /** pairs pushed into the arrays (the ring's index) */
  private n = 0
  /** pairs counted by `countEvicted` only */
  private evicted = 0

  constructor(readonly limit = Number.POSITIVE_INFINITY) {}

  /** pairs pushed */
  get length(): number {
    return this.n + this.evicted
  }

  push(x: bigint, y: bigint): void {
    const k = this.n++
    if (this.limit <= 0) return
    if (k < this.a.length || k >= this.limit) {
      const i = k % this.a.length
      this.a[i] = x
      this.b[i] = y
      return
    }
    const cap = Math.min(this.limit, Math.max(16, this.a.length * 2))
    const na = new BigInt64Array(cap)
    na.set(this.a)
    this.a = na
    const nb = new BigInt64Array(cap)
    nb.set(this.b)
    this.b = nb
    this.a[k] = x
    this.b[k] = y
  }

  /**
   * Count `count` pairs that were pushed and dropped elsewhere (a dump worker's range kept only its newest
   * `limit`). Only right when at least `limit` pairs are pushed after them, so that they would have been
   * dropped here too: a range that dropped some has kept `limit`.
   */
  countEvicted(count: number): void {
    this.evicted += count
  }

  /** pairs kept (the newest ones) */
  get kept(): number {
    return Math.min(this.n, this.a.length)
  }
  /** pairs counted but not kept */
  get dropped(): number {
    return this.length - this.kept
  }

  *[Symbol.iterator](): Generator<readonly [bigint, bigint]> {
    const cap = this.a.length
    for (let k = this.n - 1; k >= this.n - this.kept; k--) yield [this.a[k % cap]!, this.b[k % cap]!]
  }

  /** the kept pairs oldest first, as two arrays (to post to another thread: a BigInt64Array is one copy, tuples are 2 objects each) */
  oldestFirst(): { a: BigInt64Array; b: BigInt64Array } {
    const cap = this.a.length
    const kept = this.kept
    const a = new BigInt64Array(kept)
    const b = new BigInt64Array(kept)
    for (let i = 0, k = this.n - kept; i < kept; i++, k++) {
      a[i] = this.a[k % cap]!
      b[i] = this.b[k % cap]!
    }
    return { a, b }
  }
}

/** an OffsetPairs that iterates `list` in the order given (the per-release reorderings of --compat) */
export function offsetPairsOf(list: ReadonlyArray<readonly [bigint, bigint]>): OffsetPairs {
  const p = new OffsetPairs()
  for (let i = list.length - 1; i >= 0; i--) p.push(list[i]![0], list[i]![1])
  return p
}
