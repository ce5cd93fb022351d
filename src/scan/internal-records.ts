// The records of an internal topic's segments (__transaction_state, __consumer_offsets, __cluster_metadata,
// __remote_log_metadata), in file order: the one loop of the scans that decode keys and values. Each file is
// opened through io/, its data batches read without a CRC check (the dump checks them), a batch larger than the
// window record by record (decode/streamed-batch.ts). Nothing is kept here.
import type { FindingList } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { decodeFinding } from '../analysis/log-findings.js'
import type { BatchHeader } from '../decode/batch-header.js'
import { DecodeError } from '../decode/errors.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import { readLog } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import { batchRecords } from '../decode/streamed-batch.js'
import type { KafkaFile } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'

/**
 * Calls `visit` with each record of the data batches of `files`. An unreadable file is a finding and the next is
 * read; a DecodeError (from the batch or thrown by `visit`) is a finding at its position and the rest of that batch
 * is skipped. `otherError` turns another error of a batch into a finding (a decoder's own error type); without it,
 * or when it returns undefined, the error is rethrown (a bug, not the data).
 */
export function forEachInternalRecord (files: readonly KafkaFile[], findings: FindingList,
  visit: (rec: KafkaRecord, header: BatchHeader, file: KafkaFile) => void,
  otherError?: (e: unknown, file: KafkaFile, batchPosition: number) => Finding | undefined): void {
  for (const f of files) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      findings.push(finding('UNREADABLE', describeFsError(e), { file: f.path }))
      continue
    }
    try {
      for (const ev of readLog(src, { verifyCrc: false })) {
        if (ev.kind !== 'batch' || ev.header.isControl) continue
        try {
          for (const rec of batchRecords(ev.header, ev.bytes, ev.complete, src, { window: DEFAULT_WINDOW })) visit(rec, ev.header, f)
        } catch (e) {
          if (e instanceof DecodeError) { findings.push(decodeFinding(e, f.path)); continue }
          const other = otherError?.(e, f, ev.position)
          if (other === undefined) throw e
          findings.push(other)
        }
      }
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      findings.push(finding(e.code, e.message, { file: f.path, position: e.position }))
    } finally { src.close() }
  }
}
