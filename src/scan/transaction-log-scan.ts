// Reads the records of a __transaction_state partition (full record decoding: keys and values are
// needed) into pure TransactionStateRecord values, handed out one at a time: nothing is kept here, so
// a caller keeps what it needs (the newest record per id, or the producer ids of one id), not every
// record read.
import { forEachInternalRecord } from './internal-records.js'
import { FindingList } from '../analysis/finding-list.js'
import { finding } from '../analysis/findings.js'
import type { TransactionStateRecord } from '../analysis/transactional-id-state.js'
import { decodeTransactionLogKey, decodeTransactionLogValue } from '../decode/topics/transaction-state.js'
import type { LostRecords } from '../analysis/lost-records.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import type { BatchHeader } from '../decode/batch-header.js'
import type { KafkaRecord } from '../decode/records.js'

/**
 * Calls `visit` with each record of the partition's segments, in file order; returns the findings (bounded per
 * code) and where records could not be read.
 */
export function scanTransactionLog(
  dir: PartitionDir,
  visit: (r: TransactionStateRecord) => void,
): { findings: FindingList; lost: LostRecords[] } {
  // bounded per code (analysis/finding-list.ts): a damaged log can give one finding per record
  const findings = new FindingList()
  const lost = forEachInternalRecord(
    dir.files.filter((x) => x.kind === 'log'),
    findings,
    (rec, header, f) => {
      const r = transactionLogRecord(rec, header, f, findings)
      if (r !== null) visit(r)
    },
  )
  return { findings, lost }
}

/**
 * One record of a __transaction_state segment as scanTransactionLog hands it out (null: not a transactional id's
 * record, or a value too large to hold, said in `findings`); the same for a tap on another reader's frames.
 * @throws DecodeError for a key or value that cannot be read
 */
export function transactionLogRecord(
  rec: KafkaRecord,
  header: BatchHeader,
  f: KafkaFile,
  findings: FindingList,
): TransactionStateRecord | null {
  if (rec.key === null) return null
  const k = decodeTransactionLogKey(rec.key, rec.filePosition)
  if (k.transactionalId === null) return null
  if (rec.valuePieces !== undefined) {
    // a value larger than the window: no coordinator writes one, and it would have to be held to decode
    findings.push(
      finding(
        'BAD_INTERNAL_RECORD',
        `transaction log value of ${rec.valueSize ?? -1} bytes at offset ${rec.offset} is larger than the read window (${DEFAULT_WINDOW} bytes): not decoded`,
        { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : header.position },
      ),
    )
    return null
  }
  return {
    offset: rec.offset,
    transactionalId: k.transactionalId,
    value: rec.value === null ? null : decodeTransactionLogValue(rec.value, rec.filePosition),
    file: f.path,
    position: rec.filePosition,
    timestamp: header.maxTimestamp,
  }
}
