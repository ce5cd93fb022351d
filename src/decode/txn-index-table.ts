// The entries of all .txnindex files of a partition (Kafka TransactionIndex, 34-byte AbortedTxn entries,
// layout in index-files.ts), in file order, kept as the files' own bytes and decoded on access: a big
// partition can have hundreds of thousands, and the analysis (analysis/txn-index-check.ts, consumer-view.ts)
// compares and orders them without a BigInt or an object per entry.
import { i64OfHalves } from '../bytes/int64.js'
import {
  ABORTED_TXN_FIRST_OFFSET,
  ABORTED_TXN_LAST_OFFSET,
  ABORTED_TXN_LAST_STABLE_OFFSET,
  ABORTED_TXN_PRODUCER_ID,
  ABORTED_TXN_SIZE,
} from './index-files.js'

/** One AbortedTxn entry held in memory (tests, small inputs), with where it came from. */
export interface TxnIndexEntry {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
  lastStableOffset: bigint
  file?: string
  position?: number
}

/** the int64 fields of an entry, by name */
export type TxnIndexField = 'producerId' | 'firstOffset' | 'lastOffset' | 'lastStableOffset'
const AT: Readonly<Record<TxnIndexField, number>> = {
  producerId: ABORTED_TXN_PRODUCER_ID,
  firstOffset: ABORTED_TXN_FIRST_OFFSET,
  lastOffset: ABORTED_TXN_LAST_OFFSET,
  lastStableOffset: ABORTED_TXN_LAST_STABLE_OFFSET,
}
const ENTRY = ABORTED_TXN_SIZE

interface Chunk {
  file: string | undefined
  /** 34-byte entries from byte 0 */
  buf: Buffer
  /** table index of its first entry */
  start: number
  /** positions of in-memory entries; null = entry k of the chunk is at base + k * 34 */
  positions: Float64Array | null
  /** file position of the chunk's first entry */
  base: number
}

export class TxnIndexTable {
  length = 0
  private readonly chunks: Chunk[] = []
  private cur: Chunk | null = null
  private byLast: Uint32Array | null | undefined = undefined
  private byFirst: Uint32Array | null | undefined = undefined

  /** in-memory entries (tests) */
  static from(entries: readonly TxnIndexEntry[]): TxnIndexTable {
    const t = new TxnIndexTable()
    let i = 0
    while (i < entries.length) {
      let j = i + 1
      while (j < entries.length && entries[j]!.file === entries[i]!.file) j++
      const buf = Buffer.alloc((j - i) * ENTRY)
      const positions = new Float64Array(j - i)
      for (let k = i; k < j; k++) {
        const e = entries[k]!
        const o = (k - i) * ENTRY
        for (const f of Object.keys(AT) as TxnIndexField[]) buf.writeBigInt64BE(e[f], o + AT[f])
        positions[k - i] = e.position ?? -1
      }
      t.push({ file: entries[i]!.file, buf, start: t.length, positions, base: 0 })
      i = j
    }
    return t
  }

  /** complete entries of a .txnindex file, the first at file position `base` (a window of it; a partial last entry is ignored) */
  addFile(file: string, buf: Buffer, base = 0): void {
    const n = Math.floor(buf.length / ENTRY)
    if (n > 0) this.push({ file, buf: buf.subarray(0, n * ENTRY), start: this.length, positions: null, base })
  }

  private push(c: Chunk): void {
    this.chunks.push(c)
    this.length += c.buf.length / ENTRY
    this.byLast = this.byFirst = undefined
  }

  private chunk(i: number): Chunk {
    const c = this.cur
    if (c !== null && i >= c.start && (i - c.start) * ENTRY < c.buf.length) return c
    let lo = 0
    let hi = this.chunks.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (this.chunks[mid]!.start <= i) lo = mid
      else hi = mid - 1
    }
    this.cur = this.chunks[lo]!
    return this.cur
  }

  /** field `f` of entry i */
  get(i: number, f: TxnIndexField): bigint {
    const c = this.chunk(i)
    return c.buf.readBigInt64BE((i - c.start) * ENTRY + AT[f])
  }

  producerId(i: number): bigint {
    return this.get(i, 'producerId')
  }
  firstOffset(i: number): bigint {
    return this.get(i, 'firstOffset')
  }
  lastOffset(i: number): bigint {
    return this.get(i, 'lastOffset')
  }
  lastStableOffset(i: number): bigint {
    return this.get(i, 'lastStableOffset')
  }

  /** compare field `f` of entries i and j without making BigInts (high int32, then low uint32) */
  compare(i: number, j: number, f: TxnIndexField): number {
    const at = AT[f]
    const a = this.chunk(i)
    const oa = (i - a.start) * ENTRY + at
    const b = this.chunk(j)
    const ob = (j - b.start) * ENTRY + at
    const ha = a.buf.readInt32BE(oa)
    const hb = b.buf.readInt32BE(ob)
    if (ha !== hb) return ha < hb ? -1 : 1
    const la = a.buf.readUInt32BE(oa + 4)
    const lb = b.buf.readUInt32BE(ob + 4)
    return la === lb ? 0 : la < lb ? -1 : 1
  }

  /** compare field `f` of entry i with `v` given as its halves (bytes/int64.ts int64Halves: split once, compared many times) */
  compareTo(i: number, f: TxnIndexField, v: readonly [high: number, low: number]): number {
    const c = this.chunk(i)
    const o = (i - c.start) * ENTRY + AT[f]
    const h = c.buf.readInt32BE(o)
    if (h !== v[0]) return h < v[0] ? -1 : 1
    const l = c.buf.readUInt32BE(o + 4)
    return l === v[1] ? 0 : l < v[1] ? -1 : 1
  }

  location(i: number): { file?: string; position?: number } {
    const c = this.chunk(i)
    const p = c.positions === null ? c.base + (i - c.start) * ENTRY : c.positions[i - c.start]!
    return { ...(c.file !== undefined ? { file: c.file } : {}), ...(p >= 0 ? { position: p } : {}) }
  }

  /** entry indexes ordered by (lastOffset, producerId, file order); null = file order already is */
  sortedByLast(): Uint32Array | null {
    if (this.byLast === undefined) {
      this.byLast = this.sorted((a, b) => this.compare(a, b, 'lastOffset') || this.compare(a, b, 'producerId') || a - b)
    }
    return this.byLast
  }

  /** entry indexes ordered by (firstOffset, file order), the consumer's priority queue; null = file order already is */
  sortedByFirst(): Uint32Array | null {
    if (this.byFirst === undefined) {
      this.byFirst =
        this.sortedByKey('firstOffset') ?? this.sorted((a, b) => this.compare(a, b, 'firstOffset') || a - b)
    }
    return this.byFirst
  }

  /**
   * Stable merge sort of the entry indexes by one field read as a double; undefined when some value
   * is outside ±2^53 (then the comparator sort is used). Array.prototype.sort with a comparator copies
   * the indexes into a heap array; this needs two Uint32Arrays and one Float64Array.
   */
  private sortedByKey(f: TxnIndexField): Uint32Array | null | undefined {
    const n = this.length
    const key = new Float64Array(n)
    let inOrder = true
    for (let i = 0; i < n; i++) {
      const c = this.chunk(i)
      const o = (i - c.start) * ENTRY + AT[f]
      const v = i64OfHalves(c.buf.readInt32BE(o), c.buf.readUInt32BE(o + 4))
      if (typeof v !== 'number') return undefined
      key[i] = v
      if (i > 0 && key[i - 1]! > key[i]!) inOrder = false
    }
    if (inOrder) return null
    let src = new Uint32Array(n)
    let dst = new Uint32Array(n)
    for (let i = 0; i < n; i++) src[i] = i
    for (let w = 1; w < n; w *= 2) {
      for (let lo = 0; lo < n; lo += 2 * w) {
        const mid = Math.min(lo + w, n)
        const hi = Math.min(lo + 2 * w, n)
        let a = lo
        let b = mid
        let k = lo
        while (a < mid && b < hi) dst[k++] = key[src[b]!]! < key[src[a]!]! ? src[b++]! : src[a++]!
        while (a < mid) dst[k++] = src[a++]!
        while (b < hi) dst[k++] = src[b++]!
      }
      const t = src
      src = dst
      dst = t
    }
    return src
  }

  private sorted(cmp: (a: number, b: number) => number): Uint32Array | null {
    let inOrder = true
    for (let i = 1; i < this.length && inOrder; i++) if (cmp(i - 1, i) > 0) inOrder = false
    if (inOrder) return null
    const idx = new Uint32Array(this.length)
    for (let i = 0; i < idx.length; i++) idx[i] = i
    return idx.sort(cmp)
  }
}
