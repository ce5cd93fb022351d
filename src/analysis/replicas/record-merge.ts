// Compacted partitions compared record by record: each broker's log cleaner rewrites its own copy on its own
// schedule (LogCleaner), so below the cleaned point two healthy copies hold different batches, yet a record both
// still hold at an offset is the same record: the same key and value. The copies' records below the point come
// in as each copy's walk reads its batches (digests of key and value, the records of one batch per copy at a
// time) and are merged by offset across the copies; a pair of copies stops at its first difference.
import type { RecordsCompared } from './replica-input.js'

/** a record below the cleaned point: its offset, and SHA-256 digests of its key and value */
export interface RecordDigest {
  offset: bigint
  key: string
  value: string
}

interface PairState {
  compared: number
  first: { offset: bigint; a: RecordDigest; b: RecordDigest } | null
}

export class RecordMerge {
  private readonly queues: RecordDigest[][]
  private readonly heads: number[]
  private readonly unread: number[]
  /** pairs[i][j], i < j */
  private readonly pairs: PairState[][]

  constructor(private readonly copies: number) {
    this.queues = Array.from({ length: copies }, () => [])
    this.heads = Array.from({ length: copies }, () => 0)
    this.unread = Array.from({ length: copies }, () => 0)
    this.pairs = Array.from({ length: copies }, () =>
      Array.from({ length: copies }, () => ({ compared: 0, first: null })),
    )
  }

  /** copy `i`'s records of one batch (in offset order); `unread`: the batch could not be read (whole) for them */
  add(i: number, records: readonly RecordDigest[], unread: boolean): void {
    const q = this.queues[i]!
    for (const r of records) q.push(r)
    if (unread) this.unread[i]!++
  }

  /**
   * Compare every offset up to `upTo` (null: all that are queued): no copy can add a record at or below it any more.
   * `onDiffer(i, j, offset)` is told of each pair's first difference.
   */
  compareUpTo(upTo: bigint | null, onDiffer: (i: number, j: number, offset: bigint) => void): void {
    const at: number[] = []
    for (;;) {
      let min: bigint | null = null
      for (let i = 0; i < this.copies; i++) {
        const r = this.queues[i]![this.heads[i]!]
        if (r !== undefined && (upTo === null || r.offset <= upTo) && (min === null || r.offset < min)) min = r.offset
      }
      if (min === null) break
      at.length = 0
      for (let i = 0; i < this.copies; i++) if (this.queues[i]![this.heads[i]!]?.offset === min) at.push(i)
      for (let x = 0; x < at.length; x++) {
        for (let y = x + 1; y < at.length; y++) this.comparePair(at[x]!, at[y]!, min, onDiffer)
      }
      for (const i of at) this.heads[i]!++
    }
    for (let i = 0; i < this.copies; i++) {
      // drop what was compared: a queue holds at most the records of one batch past `upTo`
      if (this.heads[i]! > 1024 || this.heads[i] === this.queues[i]!.length) {
        this.queues[i]!.splice(0, this.heads[i])
        this.heads[i] = 0
      }
    }
  }

  private comparePair(
    i: number,
    j: number,
    offset: bigint,
    onDiffer: (i: number, j: number, offset: bigint) => void,
  ): void {
    const p = this.pairs[i]![j]!
    if (p.first !== null) return
    p.compared++
    const a = this.queues[i]![this.heads[i]!]!
    const b = this.queues[j]![this.heads[j]!]!
    if (a.key === b.key && a.value === b.value) return
    p.first = { offset, a, b }
    onDiffer(i, j, offset)
  }

  /** copy `mine` against copy `theirs`: the offsets both hold, compared up to the first that differs */
  result(mine: number, theirs: number): RecordsCompared {
    const [i, j] = mine < theirs ? [mine, theirs] : [theirs, mine]
    const p = this.pairs[i]![j]!
    const f = p.first
    return {
      compared: p.compared,
      unread: this.unread[mine]! + this.unread[theirs]!,
      first: f === null ? null : { offset: f.offset, mine: mine === i ? f.a : f.b, theirs: mine === i ? f.b : f.a },
    }
  }
}
