// The offset commits of a __consumer_offsets partition (record types 0 and 1: OffsetCommitKey/Value of the
// group coordinator), each with the producer of its batch: a transactional batch is a TxnOffsetCommit
// (sendOffsetsToTransaction), a plain one a consumer's own commit. Records of other types are skipped. Read alone
// (scanOffsetCommits), or as a tap on the partition scan's own frames (offsetCommitTap: the one pass that also
// gives the partition's runs and findings).
import { forEachInternalRecord, tapRecords } from './internal-records.js'
import type { Frames } from './internal-records.js'
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
 * `visit` as its batch passes; records that do not decode are findings in `findings` (framing damage is the scan's)
 */
export function offsetCommitTap(
  findings: FindingList,
  visit: (c: OffsetCommitRecord) => void,
): (frames: Frames, src: SegmentSource, file: KafkaFile) => Frames {
  return (frames, src, file) =>
    tapRecords(frames, src, file, findings, (rec, h, f) => {
      offsetCommitOf(rec, h, f, findings, visit)
    })
}

/** one record: an offset commit to `put`, a record of another type skipped, one that does not decode a finding */
function offsetCommitOf(
  rec: KafkaRecord,
  h: BatchHeader,
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
