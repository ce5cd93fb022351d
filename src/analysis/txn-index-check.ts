// Cross-check of the aborted transactions implied by ABORT markers against the .txnindex files.
// Kafka appends AbortedTxn(producerId, firstOffset, lastOffset = marker offset, lastStableOffset) to the
// txnindex of the segment holding the marker, for aborted transactions that had data
// (LogSegment.updateTxnIndex; empty transactions get none, KAFKA-10702). Consumers trust these
// entries, so a missing one exposes aborted data and an extra one hides committed data.
//
// The entries are kept in columns (TxnIndexTable, 8 bytes per field) because a big partition can
// have hundreds of thousands of them; markers are matched against them while the batches stream by.
import { ABORTED_TXN_FIRST_OFFSET, ABORTED_TXN_LAST_OFFSET, ABORTED_TXN_LAST_STABLE_OFFSET, ABORTED_TXN_PRODUCER_ID, ABORTED_TXN_SIZE } from '../decode/index-files.js'
import type { FindingSink } from './finding-list.js'
import { MAX_LISTED_PER_CODE } from './finding-list.js'
import type { Finding } from './findings.js'
import type { TxnIndexEntry } from './txn-input.js'

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

const ENTRY = ABORTED_TXN_SIZE
const PID = ABORTED_TXN_PRODUCER_ID
const FIRST = ABORTED_TXN_FIRST_OFFSET
const LAST = ABORTED_TXN_LAST_OFFSET
const LSO = ABORTED_TXN_LAST_STABLE_OFFSET

/** an int64 as (signed high int32, unsigned low uint32), to compare with entries without BigInts */
function split (v: bigint): [number, number] { return [Number(BigInt.asIntN(32, v >> 32n)), Number(BigInt.asUintN(32, v))] }

interface Chunk {
  file: string | undefined
  /** 34-byte entries from byte 0 */
  buf: Buffer
  /** table index of its first entry */
  start: number
  /** positions of in-memory entries; null = entry k of the file is at k * 34 */
  positions: Float64Array | null
}

/**
 * The entries of all .txnindex files of a partition, in file order, kept as the files' own bytes
 * (34 bytes per entry) and decoded on access: a big partition can have hundreds of thousands.
 */
export class TxnIndexTable {
  length = 0
  private readonly chunks: Chunk[] = []
  private cur: Chunk | null = null
  private byLast: Uint32Array | null | undefined = undefined
  private byFirst: Uint32Array | null | undefined = undefined

  /** in-memory entries (tests, PartitionInput) */
  static from (entries: readonly TxnIndexEntry[]): TxnIndexTable {
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
        buf.writeBigInt64BE(e.producerId, o + 2); buf.writeBigInt64BE(e.firstOffset, o + 10)
        buf.writeBigInt64BE(e.lastOffset, o + 18); buf.writeBigInt64BE(e.lastStableOffset, o + 26)
        positions[k - i] = e.position ?? -1
      }
      t.push({ file: entries[i]!.file, buf, start: t.length, positions })
      i = j
    }
    return t
  }

  /** the complete entries of one .txnindex file (a partial last entry is ignored) */
  addFile (file: string, buf: Buffer): void {
    const n = Math.floor(buf.length / ENTRY)
    if (n > 0) this.push({ file, buf: buf.subarray(0, n * ENTRY), start: this.length, positions: null })
  }

  private push (c: Chunk): void {
    this.chunks.push(c)
    this.length += c.buf.length / ENTRY
    this.byLast = this.byFirst = undefined
  }

  private chunk (i: number): Chunk {
    const c = this.cur
    if (c !== null && i >= c.start && (i - c.start) * ENTRY < c.buf.length) return c
    let lo = 0; let hi = this.chunks.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (this.chunks[mid]!.start <= i) lo = mid
      else hi = mid - 1
    }
    this.cur = this.chunks[lo]!
    return this.cur
  }

  private field (i: number, at: number): bigint {
    const c = this.chunk(i)
    return c.buf.readBigInt64BE((i - c.start) * ENTRY + at)
  }

  /** compare field `at` of entries i and j without making BigInts (high int32, then low uint32) */
  cmpField (i: number, j: number, at: number): number {
    const a = this.chunk(i); const oa = (i - a.start) * ENTRY + at
    const b = this.chunk(j); const ob = (j - b.start) * ENTRY + at
    const ha = a.buf.readInt32BE(oa); const hb = b.buf.readInt32BE(ob)
    if (ha !== hb) return ha < hb ? -1 : 1
    const la = a.buf.readUInt32BE(oa + 4); const lb = b.buf.readUInt32BE(ob + 4)
    return la === lb ? 0 : la < lb ? -1 : 1
  }

  /** compare field `at` of entry i with the int64 (hi, lo) */
  cmpFieldTo (i: number, at: number, hi: number, lo: number): number {
    const c = this.chunk(i); const o = (i - c.start) * ENTRY + at
    const h = c.buf.readInt32BE(o)
    if (h !== hi) return h < hi ? -1 : 1
    const l = c.buf.readUInt32BE(o + 4)
    return l === lo ? 0 : l < lo ? -1 : 1
  }

  producerId (i: number): bigint { return this.field(i, PID) }
  firstOffset (i: number): bigint { return this.field(i, FIRST) }
  lastOffset (i: number): bigint { return this.field(i, LAST) }
  lastStableOffset (i: number): bigint { return this.field(i, LSO) }

  location (i: number): { file?: string, position?: number } {
    const c = this.chunk(i)
    const p = c.positions === null ? (i - c.start) * ENTRY : c.positions[i - c.start]!
    return { ...(c.file !== undefined ? { file: c.file } : {}), ...(p >= 0 ? { position: p } : {}) }
  }

  /** entry indexes ordered by (lastOffset, producerId, file order); null = file order already is */
  sortedByLast (): Uint32Array | null {
    if (this.byLast === undefined) {
      this.byLast = this.sorted((a, b) => this.cmpField(a, b, LAST) || this.cmpField(a, b, PID) || a - b)
    }
    return this.byLast
  }

  /** entry indexes ordered by (firstOffset, file order), the consumer's priority queue; null = file order already is */
  sortedByFirst (): Uint32Array | null {
    if (this.byFirst === undefined) {
      this.byFirst = this.sortedByKey(FIRST) ?? this.sorted((a, b) => this.cmpField(a, b, FIRST) || a - b)
    }
    return this.byFirst
  }

  /**
   * Stable merge sort of the entry indexes by one field read as a double; undefined when some value
   * is outside ±2^53 (then the comparator sort is used). Array.prototype.sort with a comparator copies
   * the indexes into a heap array; this needs two Uint32Arrays and one Float64Array.
   */
  private sortedByKey (at: number): Uint32Array | null | undefined {
    const n = this.length
    const key = new Float64Array(n)
    let inOrder = true
    for (let i = 0; i < n; i++) {
      const c = this.chunk(i); const o = (i - c.start) * ENTRY + at
      const hi = c.buf.readInt32BE(o)
      if (hi > 0x1FFFFF || hi < -0x200000) return undefined
      key[i] = hi * 4294967296 + c.buf.readUInt32BE(o + 4)
      if (i > 0 && key[i - 1]! > key[i]!) inOrder = false
    }
    if (inOrder) return null
    let src = new Uint32Array(n)
    let dst = new Uint32Array(n)
    for (let i = 0; i < n; i++) src[i] = i
    for (let w = 1; w < n; w *= 2) {
      for (let lo = 0; lo < n; lo += 2 * w) {
        const mid = Math.min(lo + w, n); const hi = Math.min(lo + 2 * w, n)
        let a = lo; let b = mid; let k = lo
        while (a < mid && b < hi) dst[k++] = key[src[b]!]! < key[src[a]!]! ? src[b++]! : src[a++]!
        while (a < mid) dst[k++] = src[a++]!
        while (b < hi) dst[k++] = src[b++]!
      }
      const t = src; src = dst; dst = t
    }
    return src
  }

  private sorted (cmp: (a: number, b: number) => number): Uint32Array | null {
    let inOrder = true
    for (let i = 1; i < this.length && inOrder; i++) if (cmp(i - 1, i) > 0) inOrder = false
    if (inOrder) return null
    const idx = new Uint32Array(this.length)
    for (let i = 0; i < idx.length; i++) idx[i] = i
    return idx.sort(cmp)
  }
}

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

  constructor (readonly table: TxnIndexTable) {
    this.flags = new Uint8Array(table.length)
    this.byLast = table.sortedByLast()
    for (let k = 1; k < table.length; k++) {
      const a = this.at(k - 1); const b = this.at(k)
      if (table.cmpField(a, b, LAST) === 0 && table.cmpField(a, b, PID) === 0) this.flags[b]! |= F_DUPLICATE
    }
  }

  /** the entry at rank k in (lastOffset, producerId, file) order */
  private at (k: number): number { return this.byLast === null ? k : this.byLast[k]! }

  /** the first (in file order) entry for producerId's abort at markerOffset, or -1 */
  private lookup (producerId: bigint, markerOffset: bigint): number {
    const t = this.table
    const n = t.length
    const [mh, ml] = split(markerOffset)
    let lo = 0; let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (t.cmpFieldTo(this.at(mid), LAST, mh, ml) < 0) lo = mid + 1
      else hi = mid
    }
    for (let k = lo; k < n && t.cmpFieldTo(this.at(k), LAST, mh, ml) === 0; k++) {
      const i = this.at(k)
      if (t.producerId(i) === producerId && (this.flags[i]! & F_DUPLICATE) === 0) return i
    }
    return -1
  }

  /** An ABORT marker ended a transaction with data: Kafka wrote `x` into the txnindex. */
  abortedTxn (x: ExpectedAbortedTxn): void {
    const i = this.lookup(x.producerId, x.lastOffset)
    if (i < 0) {
      const key = `${x.producerId}@${x.lastOffset}`
      if (this.missing.size >= MAX_LISTED_PER_CODE && !this.missing.has(key)) { this.missingNotKept++; return }
      this.missing.set(key, { severity: 'error', code: 'TXNINDEX_MISSING_ENTRY',
        firstOffset: x.firstOffset, lastOffset: x.lastOffset, message: `producer ${x.producerId} aborted ${x.firstOffset}..${x.lastOffset} (ABORT marker at ${x.lastOffset}) but no .txnindex entry records it: read_committed consumers will see the aborted records` })
      return
    }
    this.flags[i]! |= F_MATCHED
    const t = this.table
    if (x.firstOffset !== t.firstOffset(i)) {
      this.mismatch(i, F_FIRST_MISMATCH, () => ({ severity: 'error', code: 'TXNINDEX_FIRST_OFFSET_MISMATCH', ...t.location(i),
        message: `txnindex says producer ${x.producerId}'s aborted transaction began at ${t.firstOffset(i)}, the log says ${x.firstOffset} (ABORT at ${x.lastOffset})` }))
    } else if (x.lastStableOffset !== t.lastStableOffset(i)) {
      this.mismatch(i, F_LSO_MISMATCH, () => ({ severity: 'warning', code: 'TXNINDEX_LSO_MISMATCH', ...t.location(i),
        message: `txnindex entry for producer ${x.producerId} (ABORT at ${x.lastOffset}) has lastStableOffset ${t.lastStableOffset(i)}, the log implies ${x.lastStableOffset}` }))
    } else {
      this.mismatch(i, 0, null)
    }
  }

  /**
   * Entry i's latest verdict: a mismatch flag (0: none) and its finding, kept while fewer than MAX_LISTED_PER_CODE
   * of that flag are (a 16 MiB .txnindex has ~490k entries: a finding each would be ~170 MiB); the rest are counted by findings().
   */
  private mismatch (i: number, flag: number, make: (() => Finding) | null): void {
    const old = this.flags[i]! & (F_FIRST_MISMATCH | F_LSO_MISMATCH)
    if (old !== 0 && this.mismatches.delete(i)) { if (old === F_FIRST_MISMATCH) this.keptFirst--; else this.keptLso-- }
    this.flags[i] = (this.flags[i]! & ~(F_FIRST_MISMATCH | F_LSO_MISMATCH)) | flag
    if (make === null || (flag === F_FIRST_MISMATCH ? this.keptFirst : this.keptLso) >= MAX_LISTED_PER_CODE) return
    this.mismatches.set(i, make())
    if (flag === F_FIRST_MISMATCH) this.keptFirst++; else this.keptLso++
  }

  /** An ABORT marker with no transaction open (an empty transaction: no entry expected). */
  emptyAbort (producerId: bigint, markerOffset: bigint): void {
    const i = this.lookup(producerId, markerOffset)
    if (i >= 0) this.flags[i]! |= F_EMPTY_ABORT
  }

  /** Findings in entry order, then the missing entries in marker order. `scannedFrom`/`scannedTo` bound the offsets the markers could be seen in. */
  findings (scannedFrom: bigint, scannedTo: bigint, out: FindingSink): void {
    let firstNotKept = 0
    let lsoNotKept = 0
    const t = this.table
    for (let i = 0; i < t.length; i++) {
      const f = this.flags[i]!
      const pid = t.producerId(i)
      const last = t.lastOffset(i)
      if ((f & F_DUPLICATE) !== 0) {
        out.push({ severity: 'warning', code: 'TXNINDEX_DUPLICATE_ENTRY', ...t.location(i), message: `txnindex lists the abort of producer ${pid} at ${last} twice` })
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
        out.push({ severity: 'info', code: 'TXNINDEX_OUTSIDE_SCAN', ...t.location(i), message: `txnindex entry for producer ${pid} ends at ${last}, outside the scanned offsets ${scannedFrom}..${scannedTo - 1n}` })
      } else if ((f & F_EMPTY_ABORT) !== 0 && first < scannedFrom) {
        out.push({ severity: 'info', code: 'TXN_STARTED_BEFORE_SCAN', ...t.location(i), message: `producer ${pid}'s aborted transaction began at ${first}, before the first scanned offset ${scannedFrom} (no producer snapshot told us)` })
      } else {
        out.push({ severity: 'error', code: 'TXNINDEX_UNEXPECTED_ENTRY', ...t.location(i),
          message: `txnindex says producer ${pid} aborted ${first}..${last}, but there is no ABORT marker ending a transaction there; read_committed consumers will skip that producer's transactional data from ${first}` })
      }
    }
    for (const f of this.missing.values()) out.push(f)
    out.count('TXNINDEX_MISSING_ENTRY', this.missingNotKept)
    out.count('TXNINDEX_FIRST_OFFSET_MISMATCH', firstNotKept)
    out.count('TXNINDEX_LSO_MISMATCH', lsoNotKept)
  }
}
