// The record pass's batch for each frame export's one read (export-read.ts) takes from the partition scan, from
// bytes read once: a whole frame as the scan holds it; one the scan framed by its header alone, read now (what the
// scan's window already holds of it taken from there); one larger than the record pass's window, copied to the
// scratch file as its CRC is computed (export-large.ts); a batch whose grown length ran into a valid one, from the
// scan's window, which still holds its whole declared span (FrameScanner.windowed).
import { decodeFinding } from '../analysis/log-findings.js'
import { DecodeError } from '../decode/errors.js'
import type { CorruptEvent, Frame, TailEvent } from '../decode/frame.js'
import { DEFAULT_WINDOW, FrameScanner } from '../decode/frame-scanner.js'
import * as L from '../decode/layout.js'
import type { V2Batch } from '../decode/log-reader.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { batchRecords } from '../decode/streamed-batch.js'
import type { KafkaFile } from '../io/discover.js'
import { NotClean, UNCHECKED, frameOf, v2 } from './export-held.js'
import { LargeBatches } from './export-large.js'
import type { RecordsTap } from './export-scan.js'
import { RECORD_PASS_WINDOW } from './export-scan.js'

/** a batch as the record pass reads it; `at` >= 0: its bytes are in the scratch file there, with its streamed `crc` */
export interface TakenBatch {
  b: V2Batch
  at: number
  crc: number
}

export class SegmentBatches {
  readonly large = new LargeBatches()
  src: SegmentSource | undefined
  file: KafkaFile | undefined
  /** the scan's framer of the segment being read: what its window holds is not read again */
  private frames: Pick<FrameScanner, 'next'> | undefined

  /** a segment begins */
  start(frames: Pick<FrameScanner, 'next'>, src: SegmentSource, file: KafkaFile): void {
    this.frames = frames
    this.src = src
    this.file = file
  }

  /** the record pass's batch for a v2 frame the scan handed out */
  batch(f: Frame): TakenBatch {
    if (f.complete) return { b: v2(f), at: -1, crc: 0 }
    if (f.sizeInBytes <= RECORD_PASS_WINDOW) return { b: this.whole(f), at: -1, crc: 0 }
    return this.copy(f)
  }

  /**
   * A coordinator batch's records to the records tap, the batch whole as its reader (forEachInternalRecord) holds
   * it: one copied to the scratch file is read back whole; one that carries a producer id too, as that reader reads
   * it (the rows of such a batch wait for every coordinator's ids: export-read.ts `deferred`).
   * @throws NotClean for a batch that is not whole
   */
  tap(t: TakenBatch, f: Frame, records: RecordsTap): void {
    const b =
      t.at < 0
        ? t.b
        : v2(frameOf(this.large.whole(t.at, f.sizeInBytes), f.position, true, f.sizeInBytes, f.magic), UNCHECKED)
    const h = b.header
    if (!b.complete) throw new NotClean()
    if (h.isControl) return
    try {
      for (const rec of batchRecords(h, b.bytes, true, this.src!, { window: DEFAULT_WINDOW }))
        records.record(rec, h, this.file!)
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e
      records.findings.push(decodeFinding(e, this.file!.path))
    }
  }

  /**
   * A batch at `at` whose grown length ran into a valid batch (resync.ts overlappedBatch): the frame the record pass
   * reads there (its grown length, its CRC failing), from the scan's window, and the record pass's event at its
   * declared end, where the framing fails, framed from its 17-byte entry header as the record pass frames it.
   * @throws NotClean when the window does not hold it (a remote segment's framer)
   */
  grown(at: number): { frame: Frame; end: TailEvent | CorruptEvent } {
    const head = this.windowed(at, at + L.HEADER_SIZE_UP_TO_MAGIC)
    if (head.length < L.HEADER_SIZE_UP_TO_MAGIC) throw new NotClean()
    const total = head.readInt32BE(L.SIZE_OFFSET) + L.LOG_OVERHEAD
    const bytes = this.windowed(at, at + total)
    if (bytes.length < total) throw new NotClean()
    // the record pass reads a control batch whole at any size, streams a data batch larger than its window (copy
    // takes it from the scan's window too)
    const control = (bytes.readInt16BE(L.ATTRIBUTES_OFFSET) & L.CONTROL_FLAG_MASK) !== 0
    const whole = total <= RECORD_PASS_WINDOW || control
    const end = new FrameScanner(this.src!, { from: at + total, window: L.RECORD_BATCH_OVERHEAD }).next()
    if (end === undefined || end.kind === 'frame') throw new NotClean()
    // copy: the window is the scan's, refilled by its next event
    return { frame: frameOf(whole ? Buffer.from(bytes) : bytes, at, whole, total, head.readInt8(L.MAGIC_OFFSET)), end }
  }

  /** what the scan's window holds of [a, b), from `a` (empty when it is not a FrameScanner: a remote segment's) */
  private windowed(a: number, b: number): Buffer {
    return this.frames instanceof FrameScanner ? this.frames.windowed(a, b) : EMPTY
  }

  /** A batch the scan framed by its header alone (larger than its window) that the record pass holds whole: read now */
  private whole(f: Frame): V2Batch {
    const total = f.sizeInBytes
    const head = L.RECORD_BATCH_OVERHEAD
    const buf = Buffer.allocUnsafe(total)
    f.bytes.copy(buf, 0, 0, head)
    // what the scan's window read of it before skipping it is taken from there
    const seen = Math.max(head, this.windowed(f.position, f.position + total).copy(buf, 0))
    if (this.src!.readInto(buf.subarray(seen), f.position + seen, total - seen) !== total - seen) throw new NotClean()
    return v2(frameOf(buf, f.position, true, total, f.magic))
  }

  /** one the record pass streams: its CRC computed as the framer computes it, its bytes copied to the scratch file */
  private copy(f: Frame): TakenBatch {
    const seen = this.windowed(f.position, f.position + f.sizeInBytes)
    const c = this.large.copy(this.src!, f.bytes, f.position, f.sizeInBytes, seen)
    if (c === undefined) throw new NotClean()
    const head = Buffer.from(f.bytes.subarray(0, L.RECORD_BATCH_OVERHEAD))
    const frame = frameOf(head, f.position, false, f.sizeInBytes, f.magic)
    frame.crc = c.crc
    return { b: v2(frame), at: c.at, crc: c.crc }
  }
}

const EMPTY = Buffer.alloc(0)
