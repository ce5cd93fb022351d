// Reads the records of a __transaction_state partition (full record decoding: keys and values are
// needed) into pure TransactionStateRecord values.
import { FindingList } from '../analysis/finding-list.js'
import { finding } from '../analysis/findings.js'
import { decodeFinding } from '../analysis/log-findings.js'
import type { TransactionStateRecord } from '../analysis/transaction-state.js'
import { decodeTransactionLogKey, decodeTransactionLogValue } from '../decode/topics/transaction-state.js'
import { DecodeError } from '../decode/errors.js'
import { readLog } from '../decode/log-reader.js'
import { decodeRecords } from '../decode/records.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'

export function readTransactionLog (dir: PartitionDir): { records: TransactionStateRecord[], findings: FindingList } {
  const records: TransactionStateRecord[] = []
  // bounded per code (analysis/finding-list.ts): a damaged log can give one finding per record
  const findings = new FindingList()
  for (const f of dir.files.filter((x) => x.kind === 'log')) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      findings.push(finding('UNREADABLE', describeFsError(e), { file: f.path }))
      continue
    }
    try {
      for (const ev of readLog(src, { verifyCrc: false })) {
        if (ev.kind !== 'batch' || ev.header.isControl || !ev.complete) continue
        try {
          for (const rec of decodeRecords(ev.header, ev.bytes)) {
            if (rec.key === null) continue
            const k = decodeTransactionLogKey(rec.key, rec.filePosition)
            if (k.transactionalId === null) continue
            records.push({ offset: rec.offset, transactionalId: k.transactionalId, value: rec.value === null ? null : decodeTransactionLogValue(rec.value, rec.filePosition) })
          }
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e
          findings.push(decodeFinding(e, f.path))
        }
      }
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      findings.push(finding(e.code, e.message, { file: f.path, position: e.position }))
    } finally { src.close() }
  }
  return { records, findings }
}
