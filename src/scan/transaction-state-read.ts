// A __transaction_state partition's coordinator records read in one pass: either as a tap on the partition scan's
// frames (the pass that gives the partition's own facts: log end, findings) or alone (forEachInternalRecord) when
// no partition scan reads it. Per transactional id only its newest record is kept (scan/newest-per-id.ts), and
// where records could not be read, so that a state past lost bytes is said to be unknown (analysis/lost-records.ts).
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { FindingList } from '../analysis/finding-list.js'
import type { LostRecords } from '../analysis/lost-records.js'
import { decodeFinding } from '../analysis/log-findings.js'
import type { TransactionalIdState, TransactionStateRecord } from '../analysis/transactional-id-state.js'
import { sortStates, transactionalIdState } from '../analysis/transactional-id-state.js'
import type { BatchHeader } from '../decode/batch-header.js'
import { DecodeError } from '../decode/errors.js'
import type { Frame } from '../decode/frame.js'
import { DEFAULT_WINDOW, FrameScanner } from '../decode/frame-scanner.js'
import type { V2Batch } from '../decode/log-reader.js'
import { readFrame } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import { walkPlainRecords } from '../decode/records.js'
import { RecordCursor } from '../decode/record-cursor.js'
import type { SingleRecord } from '../decode/single-record.js'
import { readSingleRecord } from '../decode/single-record.js'
import * as L from '../decode/layout.js'
import type { I64 } from '../bytes/int64.js'
import { i64, i64Add, i64AtBytes, toBigInt } from '../bytes/int64.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { batchRecords } from '../decode/streamed-batch.js'
import { TRANSACTION_STATES, decodeTransactionLogValue, transactionalIdAt } from '../decode/topics/transaction-state.js'
import type { TransactionValueHead } from '../decode/topics/transaction-value-head.js'
import { readCommonValueHead, readTransactionValue } from '../decode/topics/transaction-value-head.js'
import { readTransactionValueHead } from '../decode/topics/transaction-value-head.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { dataBatchTap, forEachInternalRecord } from './internal-records.js'
import { NewestPerKey } from './newest-per-id.js'
import { OngoingPerSlot } from './ongoing-per-slot.js'
import type { TimedOutAbort } from '../analysis/transaction-join/timed-out.js'
import { TimedOutWatch, timedOutFinding } from '../analysis/transaction-join/timed-out.js'

export type Frames = Pick<FrameScanner, 'next'>

const EMPTY = Buffer.alloc(0)
const PREPARE_ABORT = TRANSACTION_STATES.indexOf('PrepareAbort')
const ONGOING = TRANSACTION_STATES.indexOf('Ongoing')

/**
 * A coordinator record as it is read: its value is buf[at, at + length) (length -1: a tombstone), valid only during
 * the call; `whole` is the record decoded when the reader decoded it anyway (else null); `timestamp` is the batch's
 * maxTimestamp as the scan holds it (a BigInt made only by a listener that reads it); `head`: the value's head when
 * readCommonValueHead took it (decode/topics/transaction-value-head.ts; else null), valid only during the call
 */
export type StateRecordListener = (
  id: string,
  offset: bigint,
  file: string,
  position: number,
  timestamp: I64,
  buf: Buffer,
  at: number,
  length: number,
  whole: TransactionStateRecord | null,
  head: TransactionValueHead | null,
) => void

/** what reading one partition's coordinator records gave */
export interface TransactionStateRead {
  /** the newest state of each transactional id, sorted by id */
  states: TransactionalIdState[]
  /** what reading the records found (bounded per code); framing damage only when read alone (else it is the scan's) */
  findings: FindingList
  lost: LostRecords[]
  /** the coordinator's own timeout aborts (TXN_TIMED_OUT, analysis/transaction-join/timed-out.ts) */
  timedOut: readonly TimedOutAbort[]
}

/** one transactional id's records, each decoded whole, told as they are read (--transactional-id's producer ids) */
export interface IdWatch {
  readonly transactionalId: string
  see(r: TransactionStateRecord): void
}

/** the codes an I/O error of a segment gives (InputError): records past it are lost */
const IO_CODES = new Set<string>(['UNREADABLE', 'FILE_CHANGED', 'FILE_TOO_LARGE', 'NOT_REGULAR_FILE'])

export class TransactionStateReader {
  private readonly newest = new NewestPerKey()
  private readonly findings = new FindingList()
  private readonly lost: LostRecords[] = []
  private readonly logs: string[]
  // the coordinator's timeout aborts are said wherever its records are read (txns, lso)
  private readonly timedOut = new TimedOutWatch()
  // per id slot its newest record while that is an Ongoing one (the watch is told it only when a PrepareAbort follows)
  private readonly ongoing = new OngoingPerSlot()
  // the batch being walked (batch()), and what each record's value head is read into
  private readonly cursor = new RecordCursor()
  private readonly one: SingleRecord = { offsetDelta: 0, keyAt: 0, keyLength: 0, valueAt: 0, valueLength: 0 }
  private readonly head: TransactionValueHead = {
    transactionStatus: 0,
    producerEpoch: 0,
    transactionTimeoutMs: 0,
    startTimestampAt: 0,
  }
  /** the record being read, set by record() (hold) before tell, prepareAbort and whole read it */
  private readonly rec = {
    slot: 0,
    offset: 0 as I64,
    file: undefined as unknown as KafkaFile,
    position: 0,
    timestamp: 0 as I64,
    buf: EMPTY as Buffer,
    at: 0,
    length: -1,
  }
  private file: KafkaFile | undefined
  /** the frames are a FrameScanner's, which says when its window is read again: values are kept in place until then */
  private inPlace = false
  /** the window of the batch walked in place, when its values may be kept there */
  private window: Buffer | undefined
  private baseOffset: I64 = 0
  private maxTimestamp: I64 = 0
  /** readCommonValueHead read the record's head into `head` (the listener need not walk it again) */
  private common = false

  /**
   * `onRecord`: told each record as it is read (BrokerModel.onTransactionStateRecord).
   * `watch`: told each record of its id
   */
  constructor(
    readonly dir: PartitionDir,
    private readonly onRecord?: StateRecordListener,
    private readonly watch?: IdWatch,
  ) {
    this.logs = dir.files.filter((f) => f.kind === 'log').map((f) => f.path)
  }

  /** the partition scan's frames of one segment, its records read on the way (partition-scan.ts PartitionScanOptions.frames) */
  tap(frames: Frames, src: SegmentSource, file: KafkaFile): Frames {
    // values stay in the scanner's window until it is read again (NewestPerKey.putInPlace)
    this.newest.flush()
    this.inPlace = frames instanceof FrameScanner
    if (frames instanceof FrameScanner) frames.beforeRefill = this.newest.flush
    return dataBatchTap(
      frames,
      file,
      (f, at) => this.lose(f, at),
      (ev) => this.batch(ev, src, file),
    )
  }

  /** one data batch's records; a DecodeError (of the batch or a value) is a finding and the rest of the batch is skipped */
  private batch(ev: Frame, src: SegmentSource, file: KafkaFile): void {
    try {
      if (ev.complete && ev.compression === 0 && ev.headerPlausible()) {
        // what the coordinator writes (uncompressed, small): walked in place, nothing allocated per record
        this.file = file
        this.baseOffset = ev.int64(L.OFFSET_OFFSET)
        this.maxTimestamp = ev.int64(L.MAX_TIMESTAMP_OFFSET)
        this.window = this.inPlace ? ev.window : undefined
        const r = this.one
        if (ev.recordsCount === 1 && readSingleRecord(ev.window, ev.o, ev.sizeInBytes, r)) {
          const position = ev.position + L.RECORD_BATCH_OVERHEAD
          const slot = this.slotOfKey(ev.window, r.keyAt, r.keyLength, position)
          const offset = r.offsetDelta === 0 ? this.baseOffset : i64Add(this.baseOffset, r.offsetDelta)
          if (slot >= 0)
            this.record(slot, offset, file, position, this.maxTimestamp, ev.window, r.valueAt, r.valueLength)
        } else walkPlainRecords(ev, this.baseOffset, this.cursor, this.visitCursor)
        return
      }
      const b = readFrame(ev, { verifyCrc: false }) as V2Batch
      for (const rec of batchRecords(b.header, b.bytes, b.complete, src, { window: DEFAULT_WINDOW }))
        this.visit(rec, b.header, file)
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e
      this.findings.push(decodeFinding(e, file.path))
    }
  }

  private readonly visitCursor = (c: RecordCursor): void => {
    if (c.keyLength < 0) return
    const position = c.base + c.start
    const slot = this.slotOfKey(c.buf, c.keyAt, c.keyLength, position)
    // (a batch of one record, as the coordinator writes them, needs no offset made)
    if (slot >= 0)
      this.record(
        slot,
        c.offsetDelta === 0 ? this.baseOffset : i64Add(this.baseOffset, c.offsetDelta),
        this.file!,
        position,
        this.maxTimestamp,
        c.buf,
        c.valueAt,
        c.valueLength,
      )
  }

  /**
   * the slot of the key buf[at, at + length)'s transactional id (-1: a key of another type): a plain v0 key's by
   * its bytes, others as transactionalIdAt reads them (@throws DecodeError where it throws)
   */
  private slotOfKey(buf: Buffer, at: number, length: number, position: number): number {
    // version 0 and the id's int16 length, byte by byte: Buffer.readInt16BE validates its argument at each call
    if (length >= 4 && (buf[at]! | buf[at + 1]!) === 0) {
      const n = (buf[at + 2]! << 8) | buf[at + 3]!
      if (n < 0x8000 && n <= length - 4) return this.newest.keys.of(buf, at + 4, n)
    }
    const id = transactionalIdAt(buf, at, length, position)
    return id === null ? -1 : this.newest.keys.ofString(id)
  }

  /** the records read alone, when no partition scan reads them */
  readAlone(): void {
    for (const d of forEachInternalRecord(
      this.dir.files.filter((x) => x.kind === 'log'),
      this.findings,
      (rec, header, f) => {
        this.visit(rec, header, f)
      },
    ))
      this.lost.push(d)
  }

  /**
   * The states; `scanFindings`: the partition scan's findings when it tapped the frames (a segment it could not open
   * or that changed while read loses the records past it, as reading alone would say)
   */
  finish(
    scanFindings: readonly Finding[] = [],
    keepTimedOut: (a: TimedOutAbort) => boolean = () => true,
  ): TransactionStateRead {
    for (const a of this.timedOut.aborts) if (keepTimedOut(a)) this.findings.push(timedOutFinding(a))
    for (const f of scanFindings)
      if (IO_CODES.has(f.code) && f.file !== undefined && this.logs.includes(f.file)) this.lose(f, f.file)
    const states: TransactionalIdState[] = []
    for (const e of this.newest.entries()) {
      const r = {
        offset: e.offset,
        transactionalId: e.key,
        value:
          e.value === null
            ? null
            : (readTransactionValue(e.value, 0, e.value.length) ?? decodeTransactionLogValue(e.value, e.position)),
        file: e.file,
        position: e.position,
        timestamp: e.timestamp,
      }
      states.push(transactionalIdState(r, this.lost))
    }
    return { states: sortStates(states), findings: this.findings, lost: this.lost, timedOut: this.timedOut.aborts }
  }

  private lose(f: Finding, file: string): void {
    // a preallocated (zero) tail holds no records: nothing is lost there
    if (f.code === 'ZERO_TAIL' || this.lost.some((d) => d.file === file)) return
    this.lost.push({
      file,
      position: f.position ?? 0,
      code: f.code,
      earlierFiles: this.logs.slice(0, Math.max(0, this.logs.indexOf(file))),
    })
  }

  /** a record as the general path reads it (a compressed or large batch, or the partition read alone) */
  private visit(rec: KafkaRecord, header: BatchHeader, f: KafkaFile): void {
    if (rec.key === null) return
    const slot = this.slotOfKey(rec.key, 0, rec.key.length, rec.filePosition)
    if (slot < 0) return
    if (rec.valuePieces !== undefined) {
      // a value larger than the window: no coordinator writes one, and it would have to be held to decode
      this.findings.push(
        finding(
          'BAD_INTERNAL_RECORD',
          `transaction log value of ${rec.valueSize ?? -1} bytes at offset ${rec.offset} is larger than the read window (${DEFAULT_WINDOW} bytes): not decoded`,
          { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : header.position },
        ),
      )
      return
    }
    const v = rec.value
    const at = rec.filePosition
    this.record(slot, i64(rec.offset), f, at, i64(header.maxTimestamp), v ?? EMPTY, 0, v === null ? -1 : v.length)
  }

  /**
   * One record of the id in `slot`, its value buf[at, at + length) (length -1: a tombstone). The value is checked
   * here, so that one that cannot be read is a finding at its record (decodeTransactionLogValue throws); its head is
   * what the timeout watch reads of it, the whole value only for a PrepareAbort past its deadline, and its bytes
   * are kept while it is the id's newest.
   */
  private record(
    slot: number,
    offset: I64,
    f: KafkaFile,
    position: number,
    timestamp: I64,
    buf: Buffer,
    at: number,
    length: number,
  ): void {
    let whole: TransactionStateRecord | null = null
    let status = -1
    const h = this.head
    // `rec` is set only on the paths that read it (whole, tell, prepareAbort): most records take none of them
    let held = false
    this.common = length >= 0 && readCommonValueHead(buf, at, length, h)
    if (length >= 0) {
      if (this.common || readTransactionValueHead(buf, at, length, h)) status = h.transactionStatus
      else {
        held = this.hold(slot, offset, f, position, timestamp, buf, at, length)
        whole = this.whole()
        status = whole.value!.transactionStatus
      }
    }
    if (status === ONGOING) {
      const v = whole?.value
      if (v === undefined || v === null)
        this.ongoing.open(slot, offset, h.producerEpoch, i64AtBytes(buf, h.startTimestampAt))
      else this.ongoing.open(slot, offset, v.producerEpoch, i64(v.transactionStartTimestampMs))
    } else if (this.ongoing.close(slot) && status === PREPARE_ABORT) {
      held ||= this.hold(slot, offset, f, position, timestamp, buf, at, length)
      whole = this.prepareAbort(whole)
    }
    if (this.onRecord !== undefined || this.watch !== undefined) {
      if (!held) this.hold(slot, offset, f, position, timestamp, buf, at, length)
      this.tell(whole)
    }
    if (buf === this.window) this.newest.putInPlace(slot, offset, f.path, position, timestamp, buf, at, length)
    else this.newest.put(slot, offset, f.path, position, timestamp, buf, at, length)
  }

  /** the record being read, for whole, tell and prepareAbort (true: held): record()'s arguments, no object made */
  private hold(...a: Parameters<TransactionStateReader['record']>): true {
    const r = this.rec
    ;[r.slot, r.offset, r.file, r.position, r.timestamp, r.buf, r.at, r.length] = a
    return true
  }

  /** the listener (transactions' join: the fields it needs, from the bytes) and the watch (its id's records whole) */
  private tell(whole: TransactionStateRecord | null): void {
    const { slot, offset, file: f, position, timestamp, buf, at, length } = this.rec
    const id = this.newest.keys.keyOf(slot)
    const head = this.common ? this.head : null
    this.onRecord?.(id, toBigInt(offset), f.path, position, timestamp, buf, at, length, whole, head)
    if (id !== this.watch?.transactionalId) return
    try {
      whole ??=
        length >= 0
          ? this.whole()
          : {
              offset: toBigInt(offset),
              transactionalId: id,
              value: null,
              file: f.path,
              position,
              timestamp: toBigInt(timestamp),
            }
      this.watch.see(whole)
    } catch (e) {
      // a value the watch alone asked for is not its to report (reading the newest record says it)
      if (!(e instanceof DecodeError)) throw e
    }
  }

  /**
   * A PrepareAbort of an id whose newest record was an Ongoing one: the watch is told that Ongoing record and this
   * one (whole when it may be the coordinator's timeout abort), as it would be told every record: it keeps only an
   * id's newest Ongoing record, and any other record ends the episode (analysis/transaction-join/timed-out.ts)
   */
  private prepareAbort(whole: TransactionStateRecord | null): TransactionStateRecord | null {
    const { slot, offset, buf } = this.rec
    const id = this.newest.keys.keyOf(slot)
    const o = this.ongoing
    this.timedOut.see(id, toBigInt(o.offsetOf(slot)), ONGOING, o.epochOf(slot), toBigInt(o.startOf(slot)), null)
    if (whole === null) {
      const h = this.head
      const start = buf.readBigInt64BE(h.startTimestampAt)
      const prepared = buf.readBigInt64BE(h.startTimestampAt - 8)
      if (this.timedOut.wantsRecord(id, prepared, start, h.transactionTimeoutMs)) whole = this.whole()
    }
    this.timedOut.see(id, toBigInt(offset), PREPARE_ABORT, -1, -1n, whole)
    return whole
  }

  /** the record being read with its value decoded (@throws DecodeError for a value that cannot be read) */
  private whole(): TransactionStateRecord {
    const { slot, offset, file: f, position, timestamp, buf, at, length } = this.rec
    // the walk that read its head reads it whole; the general decoder decides what the walk does not take
    const value =
      readTransactionValue(buf, at, length) ?? decodeTransactionLogValue(buf.subarray(at, at + length), position)
    return {
      offset: toBigInt(offset),
      transactionalId: this.newest.keys.keyOf(slot),
      value,
      file: f.path,
      position,
      timestamp: toBigInt(timestamp),
    }
  }
}
