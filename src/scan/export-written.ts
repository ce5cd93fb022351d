// What export's one read (export-read.ts) wrote before a partition's end, and whether the final facts say the same
// of it: each batch written early was decided with the facts known then (the log start, no HW, no LSO, no open
// transaction, the aborted transactions ended so far), which are the final facts' answers for it only while no
// final bound, open transaction or aborted transaction ended later reaches back to it. Offsets that do not
// increase, or damage, can make one do so: the partition is then handed out again from its start, from the copy
// export-read.ts keeps of what it wrote, with the final facts.
import type { RunSink, StreamedTransaction } from '../analysis/run-sink.js'
import type { AbortedQueue } from '../analysis/record-visibility.js'
import { AbortedRanges } from '../analysis/record-visibility.js'
import { toBigInt } from '../bytes/int64.js'
import { SpillQueue } from '../io/spill-queue.js'
import type { finalFacts } from './export-scan.js'

/** the batches written before the partition's end: the largest last offset, the log start they were decided with */
export class Written {
  /** the largest last offset written so far, null before the first */
  last: bigint | null = null
  start: bigint | null = null
  private reached = false

  /** an aborted transaction has ended (its marker was fed): does it begin at or below a batch already written? */
  ended(t: StreamedTransaction): void {
    if (this.last !== null && t.marker?.type === 'ABORT' && !t.empty && toBigInt(t.firstOffset) <= this.last)
      this.reached = true
  }

  holds(
    f: ReturnType<typeof finalFacts>,
    open: ReadonlyArray<{ state: string; firstOffset: bigint | number }>,
  ): boolean {
    const w = this.last
    if (w === null) return true
    if (this.reached || f.logStartOffset !== this.start || f.highWatermark <= w || f.lastStableOffset <= w) return false
    return !open.some((t) => t.state === 'open' && BigInt(t.firstOffset) <= w)
  }
}

/**
 * The aborted transactions as read (record-visibility.ts AbortedQueueAsRead's order: first offset, then marker
 * order), each also told to Written, in typed arrays: a damaged partition waits whole for its end, and a hundred
 * thousand aborted transactions held as objects until then made the collector's every full mark the larger part of
 * export's CPU (59% of it against 45% for the two passes, on a 327 MB partition). 32 bytes a transaction not yet
 * admitted; a slot admitted is used again.
 */
export class AbortedSeen implements RunSink, AbortedQueue {
  private first = new BigInt64Array(INITIAL)
  private marker = new BigInt64Array(INITIAL)
  private pid = new BigInt64Array(INITIAL)
  private seq = new Float64Array(INITIAL)
  /** a min-heap of slots on (first, seq) */
  private heap = new Int32Array(INITIAL)
  private size = 0
  private free: number[] = []
  private slots = 0
  private next = 0

  /**
   * every aborted transaction, 24 bytes each, in a scratch file: when the final facts reach back to rows already
   * written, the partition is handed out again from the rows held (export-read.ts), with the two passes' queue
   */
  private readonly log = new SpillQueue(0)
  private readonly entry = Buffer.alloc(24)

  constructor(private readonly written: Written) {}

  plainBatch(): void {}
  controlBatch(): void {}
  transactionEnded(t: StreamedTransaction): void {
    this.written.ended(t)
    if (t.marker === null || t.marker.type !== 'ABORT' || t.empty) return
    const s = this.free.pop() ?? this.slot()
    this.first[s] = toBigInt(t.firstOffset)
    this.marker[s] = toBigInt(t.marker.offset)
    this.pid[s] = toBigInt(t.producerId)
    this.entry.writeBigInt64BE(this.first[s]!, 0)
    this.entry.writeBigInt64BE(this.marker[s]!, 8)
    this.entry.writeBigInt64BE(this.pid[s]!, 16)
    this.log.push(this.entry)
    this.seq[s] = this.next++
    let i = this.size++
    const h = this.heap
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!this.before(s, h[p]!)) break
      h[i] = h[p]!
      i = p
    }
    h[i] = s
  }

  admit(last: bigint, to: (producerId: bigint, markerOffset: bigint) => void): void {
    const h = this.heap
    while (this.size > 0 && this.first[h[0]!]! <= last) {
      const top = h[0]!
      const end = h[--this.size]!
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        if (l >= this.size) break
        const c = l + 1 < this.size && this.before(h[l + 1]!, h[l]!) ? l + 1 : l
        if (!this.before(h[c]!, end)) break
        h[i] = h[c]!
        i = c
      }
      if (this.size > 0) h[i] = end
      this.free.push(top)
      to(this.pid[top]!, this.marker[top]!)
    }
  }

  /** every aborted transaction ended, as the two passes' first pass collects them (its log emptied) */
  ranges(): AbortedRanges {
    const r = new AbortedRanges()
    for (let e = this.log.shift(); e !== undefined; e = this.log.shift()) {
      const marker = { type: 'ABORT', offset: e.readBigInt64BE(8) }
      r.transactionEnded({
        marker,
        empty: false,
        firstOffset: e.readBigInt64BE(0),
        producerId: e.readBigInt64BE(16),
      } as unknown as StreamedTransaction)
    }
    return r
  }

  /** deletes the log's scratch file (also after an error) */
  close(): void {
    this.log.close()
  }

  private before(a: number, b: number): boolean {
    const fa = this.first[a]!
    const fb = this.first[b]!
    return fa < fb || (fa === fb && this.seq[a]! < this.seq[b]!)
  }

  /** a new slot, the arrays doubled when full */
  private slot(): number {
    if (this.slots === this.first.length) {
      const n = this.slots * 2
      this.first = grown(this.first, new BigInt64Array(n))
      this.marker = grown(this.marker, new BigInt64Array(n))
      this.pid = grown(this.pid, new BigInt64Array(n))
      this.seq = grown(this.seq, new Float64Array(n))
      this.heap = grown(this.heap, new Int32Array(n))
    }
    return this.slots++
  }
}

const INITIAL = 1024

function grown<T extends BigInt64Array | Float64Array | Int32Array>(from: T, to: T): T {
  ;(to as { set: (a: T) => void }).set(from)
  return to
}
