// The fast loop of the partition scan. It handles what healthy segments hold: well-framed entries, v2
// headers that pass readLog's plausibility checks, COMMIT/ABORT markers of the shape brokers write and
// empty control batches. It reads the header fields straight from the window as numbers (canonical I64)
// and allocates nothing per batch. At the first entry it does not handle (damage, a tail, an unusual
// control record, a batch bigger than the window ...) it stops, and readLog reads the rest of that file.
// It must therefore frame exactly as scanFrames does and accept only entries for which readLog reports
// no problem (test/commands/txn-fast-scan.test.ts compares the two on real and damaged segments).
import type { I64 } from '../analysis/i64.js'
import { i64, i64Add } from '../analysis/i64.js'
import type { PartitionAnalyzer } from '../analysis/partition-analyzer.js'
import type { BatchFacts } from '../analysis/txn-input.js'
import type { EndTxnMarkerFacts } from '../decode/control-fast.js'
import { readEndTxnMarkerFast } from '../decode/control-fast.js'
import * as L from '../decode/layout.js'
import type { FileSource } from '../io/file-source.js'

/** The one object the scan refills for every batch: the analyzer keeps nothing of it. */
export function scratchFacts (): BatchFacts {
  return { baseOffset: 0, lastOffset: 0, recordsCount: 0, producerId: -1, producerEpoch: -1, isTransactional: false, isControl: false,
    baseTimestamp: -1, maxTimestamp: -1, control: undefined, legacy: undefined, file: undefined, position: undefined }
}

/** window of the fast loop; a control batch or legacy entry larger than this goes to readLog */
const FAST_WINDOW = 256 * 1024
/** readLog's default --max-batch-bytes (scanFrames DEFAULT_MAX_BATCH): larger entries are framing damage */
const MAX_BATCH = 1024 * 1024 * 1024
const CONTROL_TYPE_NAMES = ['ABORT', 'COMMIT']
/** from this size on, skipping a batch's body with a separate read of the next header beats reading through it */
const LARGE_BATCH = 16 * 1024

/** the int64 big-endian at `o` as a canonical I64: a BigInt only outside [-2^53, 2^53) */
function readI64 (dv: DataView, o: number): I64 {
  const hi = dv.getInt32(o)
  if (hi >= -0x200000 && hi < 0x200000) return hi * 4294967296 + dv.getUint32(o + 4)
  return i64(dv.getBigInt64(o))
}

/** The fast loop (see the file comment): one window, reused for every segment of a partition. */
export class FastSegmentScan {
  private readonly win = Buffer.allocUnsafeSlow(FAST_WINDOW)
  private readonly dv = new DataView(this.win.buffer, this.win.byteOffset, this.win.byteLength)
  private readonly marker: EndTxnMarkerFacts = { type: 0, keyVersion: 0, coordinatorEpoch: 0 }
  /** the control info handed to the analyzer (which keeps nothing of it) */
  private readonly control = { type: 0, typeName: 'ABORT', coordinatorEpoch: 0 }
  private src: FileSource | undefined
  private winStart = 0
  private winLen = 0
  /**
   * bytes to read at the next refill: after a large batch that did not fit the window just a header (scanFrames
   * does the same), growing back to the window size over the entries that fit (markers between large batches stay small reads)
   */
  private probe = FAST_WINDOW

  constructor (private readonly a: PartitionAnalyzer, private readonly s: BatchFacts) {}

  /**
   * Feed the entries of `src` while they are ordinary.
   * @returns the position of the first entry not handled (src.size when all were) and whether a legacy entry was fed
   */
  scan (src: FileSource, file: string): { stop: number, legacy: boolean } {
    this.src = src
    this.winStart = this.winLen = 0
    this.probe = FAST_WINDOW
    this.s.file = file
    const end = src.size
    let legacy = false
    let pos = 0
    while (pos < end) {
      // scanFrames: a tail at <= 17 bytes left; frameProblem; an entry past the end
      if (end - pos <= L.HEADER_SIZE_UP_TO_MAGIC || !this.ensure(pos, L.HEADER_SIZE_UP_TO_MAGIC)) break
      const o = pos - this.winStart
      const size = this.dv.getInt32(o + L.SIZE_OFFSET)
      const magic = this.dv.getInt8(o + L.MAGIC_OFFSET)
      const total = L.LOG_OVERHEAD + size
      if (size < L.MIN_RECORD_OVERHEAD || magic < 0 || magic > 2 || total > MAX_BATCH || total > end - pos) break
      if (magic < 2) {
        if (!this.legacy(pos, total)) break
        legacy = true
      } else if (size < L.MIN_V2_BATCH_LENGTH || !this.batch(pos, total)) {
        break
      }
      pos += total
      const spilled = pos > this.winStart + this.winLen
      this.probe = !spilled ? Math.min(FAST_WINDOW, this.probe * 2) : total >= LARGE_BATCH ? L.RECORD_BATCH_OVERHEAD : FAST_WINDOW
    }
    this.src = undefined
    return { stop: pos, legacy }
  }

  /** make [pos, pos + n) addressable (n <= FAST_WINDOW); false when the file ends first */
  private ensure (pos: number, n: number): boolean {
    if (pos >= this.winStart && pos + n <= this.winStart + this.winLen) return true
    this.winStart = pos
    this.winLen = this.src!.readInto(this.win, pos, Math.min(Math.max(this.probe, n), this.src!.size - pos))
    return n <= this.winLen
  }

  /** a magic 0/1 entry as partition-scan's feed passes it (readLog reads it whole) */
  private legacy (pos: number, total: number): boolean {
    if (total > FAST_WINDOW || !this.ensure(pos, total)) return false
    const s = this.s
    s.baseOffset = readI64(this.dv, pos - this.winStart); s.lastOffset = s.baseOffset; s.recordsCount = 1; s.producerId = -1; s.producerEpoch = -1
    s.isTransactional = false; s.isControl = false; s.baseTimestamp = -1; s.maxTimestamp = -1; s.control = undefined; s.legacy = true
    s.position = pos
    this.a.add(s)
    return true
  }

  /** a v2 batch for which readLog reports no problem; false (nothing fed) for any other */
  private batch (pos: number, total: number): boolean {
    if (!this.ensure(pos, L.RECORD_BATCH_OVERHEAD)) return false
    const dv = this.dv
    let o = pos - this.winStart
    const attributes = dv.getInt16(o + L.ATTRIBUTES_OFFSET)
    const count = dv.getInt32(o + L.RECORDS_COUNT_OFFSET)
    const delta = dv.getInt32(o + L.LAST_OFFSET_DELTA_OFFSET)
    // readLog's checkHeader
    if (count < 0 || delta < 0 || ((attributes & L.COMPRESSION_CODEC_MASK) === 0 && count > (total - L.RECORD_BATCH_OVERHEAD) / 7)) return false
    const s = this.s
    const isControl = (attributes & L.CONTROL_FLAG_MASK) !== 0
    if (!isControl) {
      s.control = undefined
    } else if (count === 0) {
      s.control = null // compaction can leave empty control batches (KAFKA-7467); readLog reports no problem
    } else {
      if (total > FAST_WINDOW || !this.ensure(pos, total)) return false
      o = pos - this.winStart
      if (!readEndTxnMarkerFast(this.win, o, o + total, this.marker)) return false
      this.control.type = this.marker.type
      this.control.typeName = CONTROL_TYPE_NAMES[this.marker.type]!
      this.control.coordinatorEpoch = this.marker.coordinatorEpoch
      s.control = this.control
    }
    s.baseOffset = readI64(dv, o)
    s.lastOffset = i64Add(s.baseOffset, delta)
    s.recordsCount = count
    s.producerId = readI64(dv, o + L.PRODUCER_ID_OFFSET)
    s.producerEpoch = dv.getInt16(o + L.PRODUCER_EPOCH_OFFSET)
    s.isTransactional = (attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0
    s.isControl = isControl
    s.baseTimestamp = readI64(dv, o + L.BASE_TIMESTAMP_OFFSET)
    s.maxTimestamp = readI64(dv, o + L.MAX_TIMESTAMP_OFFSET)
    s.legacy = undefined
    s.position = pos
    this.a.add(s)
    return true
  }
}
