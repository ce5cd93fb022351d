// The record pass `tsdump cleanup` needs: per segment its size and largest timestamp, per batch the
// producer, transaction and control facts, per record its offset, key and whether it has a value
// (LogCleaner decides on those alone). Keys are kept as hex strings in a per-partition table.
import { FindingList } from '../analysis/finding-list.js'
import { finding } from '../analysis/findings.js'
import { decodeFinding } from '../analysis/log-findings.js'
import type { CleanBatch, CleanSegment } from '../analysis/cleanup/model.js'
import { DecodeError } from '../decode/errors.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import { readLog } from '../decode/log-reader.js'
import { batchRecords } from '../decode/streamed-batch.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'

export function scanCleanupSegments (dir: PartitionDir): { segments: CleanSegment[], findings: FindingList } {
  const findings = new FindingList()
  const segments: CleanSegment[] = []
  for (const f of dir.files.filter((x) => x.kind === 'log' && x.baseOffset !== null)) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      findings.push(finding('UNREADABLE', describeFsError(e), { file: f.path }))
      continue
    }
    const seg: CleanSegment = { baseOffset: f.baseOffset!, file: f.path, sizeBytes: src.size, largestTimestamp: -1n, firstBatchTimestamp: null, batches: [] }
    try {
      for (const ev of readLog(src, { verifyCrc: false })) {
        if (ev.kind !== 'batch') continue
        const h = ev.header
        if (seg.firstBatchTimestamp === null) seg.firstBatchTimestamp = h.maxTimestamp
        if (h.maxTimestamp > seg.largestTimestamp) seg.largestTimestamp = h.maxTimestamp
        const b: CleanBatch = {
          baseOffset: h.baseOffset, lastOffset: h.lastOffset, producerId: h.producerId, producerEpoch: h.producerEpoch,
          transactional: h.isTransactional, control: h.isControl ? (ev.control?.typeName ?? 'UNKNOWN') : null,
          // DefaultRecordBatch.deleteHorizonMs: the base timestamp once the delete-horizon attribute is set (KIP-534)
          deleteHorizonMs: h.hasDeleteHorizon ? h.baseTimestamp : null, records: [],
        }
        if (!h.isControl) {
          try {
            for (const rec of batchRecords(h, ev.bytes, ev.complete, src, { window: DEFAULT_WINDOW })) {
              b.records.push({ offset: rec.offset, key: rec.key === null ? null : rec.key.toString('hex'), hasValue: rec.value !== null || rec.valueSize !== undefined })
            }
          } catch (e) {
            if (!(e instanceof DecodeError)) throw e
            findings.push(decodeFinding(e, f.path))
          }
        }
        seg.batches.push(b)
      }
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      findings.push(finding(e.code, e.message, { file: f.path, position: e.position }))
    } finally { src.close() }
    segments.push(seg)
  }
  return { segments, findings }
}

/** The log dir's cleaner-offset-checkpoint (LogCleanerManager.allCleanerCheckpoints); null when missing or malformed. */
export function readCleanerCheckpoint (logDir: string): OffsetCheckpoint | null {
  return readOffsetCheckpoint(logDir, 'cleaner-offset-checkpoint')
}
