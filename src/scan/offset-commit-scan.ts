// The offset commits of a __consumer_offsets partition (record types 0 and 1: OffsetCommitKey/Value of the
// group coordinator), each with the producer of its batch: a transactional batch is a TxnOffsetCommit
// (sendOffsetsToTransaction), a plain one a consumer's own commit. Records of other types are skipped. Read alone
// (scanOffsetCommits), or as a tap on the partition scan's own frames (offsetCommitTap: the one pass that also
// gives the partition's runs and findings).
import { forEachInternalRecord } from './internal-records.js'
import type { Frames } from './internal-records.js'
import { decodeFinding } from '../analysis/log-findings.js'
import { AsciiIntern } from '../bytes/ascii-intern.js'
import { toBigInt } from '../bytes/int64.js'
import type { Frame } from '../decode/frame.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import * as L from '../decode/layout.js'
import type { V2Batch } from '../decode/log-reader.js'
import { readFrame } from '../decode/log-reader.js'
import { RecordCursor } from '../decode/record-cursor.js'
import { walkPlainRecords } from '../decode/records.js'
import { batchRecords } from '../decode/streamed-batch.js'
import { offsetCommitFields, readOffsetCommitAt } from '../decode/topics/offset-commit-fields.js'
import { FindingList } from '../analysis/finding-list.js'
import type { OffsetCommitRecord } from '../analysis/transaction-join/types.js'
import { finding } from '../analysis/findings.js'
import type { BatchHeader } from '../decode/batch-header.js'
import { DecodeError } from '../decode/errors.js'
import type { KafkaRecord } from '../decode/records.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { decodeGroupRecord } from '../decode/topics/consumer-offsets.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'

const big = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(v as number))

/**
 * Every offset commit record of the partition, in file order, and the findings of records that do not decode.
 * With `visit`, each is handed out as read and none kept (`commits` is then empty).
 */
export function scanOffsetCommits(
  dir: PartitionDir,
  visit?: (c: OffsetCommitRecord) => void,
): { commits: OffsetCommitRecord[]; findings: FindingList } {
  const findings = new FindingList()
  const commits: OffsetCommitRecord[] = []
  const put =
    visit ??
    ((c: OffsetCommitRecord): void => {
      commits.push(c)
    })
  forEachInternalRecord(
    dir.files.filter((x) => x.kind === 'log'),
    findings,
    (rec, h, f) => {
      offsetCommitOf(rec, h, f, findings, put)
    },
  )
  return { commits, findings }
}

/**
 * A tap on the partition scan's frames of one segment (PartitionScanOptions.frames): each offset commit handed to
 * `visit` as its batch passes; records that do not decode are findings in `findings` (framing damage is the scan's).
 * An uncompressed batch's records are walked in place (decode/records.ts walkPlainRecords) and each commit read
 * without building its key and value (decode/topics/offset-commit-fields.ts); any other batch, and a record the walk
 * does not take, as forEachInternalRecord reads them.
 */
export function offsetCommitTap(
  findings: FindingList,
  visit: (c: OffsetCommitRecord) => void,
): (frames: Frames, src: SegmentSource, file: KafkaFile) => Frames {
  const w = new CommitWalk(findings, visit)
  return (frames, src, file) => ({
    next: () => {
      const ev = frames.next()
      if (ev === undefined || ev.kind !== 'frame' || ev.magic < 2 || ev.isControl) return ev
      if (ev.complete && ev.compression === 0 && ev.headerPlausible()) w.batch(ev, file)
      else {
        const b = readFrame(ev, { verifyCrc: false }) as V2Batch
        try {
          for (const rec of batchRecords(b.header, b.bytes, b.complete, src, { window: DEFAULT_WINDOW }))
            offsetCommitOf(rec, b.header, file, findings, visit)
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e
          findings.push(decodeFinding(e, file.path))
        }
      }
      return ev
    },
  })
}

/** one uncompressed batch's records walked in place: nothing allocated per record but the commit handed out */
class CommitWalk {
  private readonly cursor = new RecordCursor()
  private readonly fields = offsetCommitFields()
  private readonly strings = new AsciiIntern()
  // the batch being walked
  private file: KafkaFile | undefined
  private baseOffset = 0n
  private producerId = 0n
  private producerEpoch = 0
  private transactional = false
  private maxTimestamp = 0n
  private position = 0

  constructor(
    private readonly findings: FindingList,
    private readonly put: (c: OffsetCommitRecord) => void,
  ) {}

  /** a DecodeError (of the batch or a record) is a finding and the rest of the batch is skipped */
  batch(ev: Frame, file: KafkaFile): void {
    this.file = file
    this.position = ev.position
    this.baseOffset = toBigInt(ev.int64(L.OFFSET_OFFSET))
    this.producerId = toBigInt(ev.int64(L.PRODUCER_ID_OFFSET))
    this.producerEpoch = ev.producerEpoch
    this.transactional = ev.isTransactional
    this.maxTimestamp = toBigInt(ev.int64(L.MAX_TIMESTAMP_OFFSET))
    try {
      walkPlainRecords(ev, this.baseOffset, this.cursor, this.visit)
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e
      this.findings.push(decodeFinding(e, file.path))
    }
  }

  private readonly visit = (c: RecordCursor): void => {
    if (c.keyLength < 2 || c.buf.readInt16BE(c.keyAt) > 1 || c.buf.readInt16BE(c.keyAt) < 0) return
    const f = this.fields
    const file = this.file!
    const offset = c.offsetDelta === 0 ? this.baseOffset : this.baseOffset + BigInt(c.offsetDelta)
    const position = c.base + c.start
    if (!readOffsetCommitAt(c.buf, c.keyAt, c.keyLength, c.valueAt, c.valueLength, f, this.strings)) {
      // the general decoder decides (a finding where it fails)
      offsetCommitOf(
        {
          offset,
          filePosition: position,
          key: c.buf.subarray(c.keyAt, c.keyAt + c.keyLength),
          value: c.valueLength < 0 ? null : c.buf.subarray(c.valueAt, c.valueAt + c.valueLength),
        },
        {
          producerId: this.producerId,
          producerEpoch: this.producerEpoch,
          isTransactional: this.transactional,
          maxTimestamp: this.maxTimestamp,
          position: this.position,
        },
        file,
        this.findings,
        this.put,
      )
      return
    }
    this.put({
      recordOffset: offset,
      producerId: this.producerId,
      producerEpoch: this.producerEpoch,
      transactional: this.transactional,
      group: f.group,
      topic: f.topic,
      partition: f.partition,
      offset: f.offset,
      metadata: f.metadata,
      timestamp: this.maxTimestamp,
      file: file.path,
      position,
    })
  }
}

/** one record: an offset commit to `put`, a record of another type skipped, one that does not decode a finding */
function offsetCommitOf(
  rec: Pick<KafkaRecord, 'offset' | 'filePosition' | 'key' | 'value'> & { valuePieces?: unknown },
  h: Pick<BatchHeader, 'producerId' | 'producerEpoch' | 'isTransactional' | 'maxTimestamp' | 'position'>,
  f: KafkaFile,
  findings: FindingList,
  put: (c: OffsetCommitRecord) => void,
): void {
  if (rec.key === null || rec.valuePieces !== undefined) return
  const type = rec.key.length >= 2 ? rec.key.readInt16BE(0) : -1
  if (type !== 0 && type !== 1) return
  let r
  try {
    r = decodeGroupRecord(rec.key, rec.value, '4.4', { checkValueVersion: false }, rec.filePosition, rec.filePosition)
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e
    // the transaction is still listed, without this commit
    findings.push(
      finding('BAD_INTERNAL_RECORD', `offset commit at offset ${rec.offset} does not decode: ${e.message}`, {
        file: f.path,
        position: rec.filePosition,
      }),
    )
    return
  }
  const k = r.key
  const v = r.value?.data
  // a negative value version reads no field at all (Kafka 4.1+ refuses it: UnknownRecordVersionException); an
  // offset that is not there is not made up
  if (
    (r.value !== null && r.value.version < 0) ||
    (v !== undefined && typeof v.offset !== 'bigint' && typeof v.offset !== 'number')
  ) {
    findings.push(
      finding(
        'BAD_INTERNAL_RECORD',
        `offset commit at offset ${rec.offset}: value version ${r.value?.version ?? '?'} has no offset field: not read`,
        { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : h.position },
      ),
    )
    return
  }
  put({
    recordOffset: rec.offset,
    producerId: h.producerId,
    producerEpoch: h.producerEpoch,
    transactional: h.isTransactional,
    group: String(k.group),
    topic: String(k.topic),
    partition: Number(k.partition),
    offset: v === undefined ? null : big(v.offset),
    metadata: v === undefined || v.metadata === null ? null : String(v.metadata),
    timestamp: h.maxTimestamp,
    file: f.path,
    position: rec.filePosition,
  })
}
