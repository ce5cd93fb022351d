// (a, b) offset pairs that kafka-dump-log lists after a dump (non-consecutive offsets, index mismatches),
// newest first as its Scala List prepend gives them. Two growing BigInt64Arrays (16 bytes a pair, O(1) a
// push): the old Array#unshift copied the whole list on every gap, quadratic on a segment with a gap after
// every record. With a `limit`, only the newest `limit` pairs are kept (a ring) and the rest are counted:
// --compat keeps every pair because Kafka prints every one; tsdump's own text keeps a bounded list.
export class OffsetPairs implements Iterable<readonly [bigint, bigint]> {
  private a = new BigInt64Array(0)
  private b = new BigInt64Array(0)
  /** pairs pushed */
  length = 0

  constructor (readonly limit = Number.POSITIVE_INFINITY) {}

  push (x: bigint, y: bigint): void {
    const k = this.length++
    if (this.limit <= 0) return
    if (k < this.a.length || k >= this.limit) {
      const i = k % this.a.length
      this.a[i] = x; this.b[i] = y
      return
    }
    const cap = Math.min(this.limit, Math.max(16, this.a.length * 2))
    const na = new BigInt64Array(cap); na.set(this.a); this.a = na
    const nb = new BigInt64Array(cap); nb.set(this.b); this.b = nb
    this.a[k] = x; this.b[k] = y
  }

  /** pairs kept (the newest ones) */
  get kept (): number { return Math.min(this.length, this.a.length) }
  /** pairs counted but not kept */
  get dropped (): number { return this.length - this.kept }

  * [Symbol.iterator] (): Generator<readonly [bigint, bigint]> {
    const cap = this.a.length
    for (let k = this.length - 1; k >= this.length - this.kept; k--) yield [this.a[k % cap]!, this.b[k % cap]!]
  }
}

/** an OffsetPairs that iterates `list` in the order given (the per-release reorderings of --compat) */
export function offsetPairsOf (list: ReadonlyArray<readonly [bigint, bigint]>): OffsetPairs {
  const p = new OffsetPairs()
  for (let i = list.length - 1; i >= 0; i--) p.push(list[i]![0], list[i]![1])
  return p
}
