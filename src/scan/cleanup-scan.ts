// The reads `tsdump cleanup` needs: a partition's segments (base offset, size) and, on demand, one segment's batches
// and records streamed to a visitor (decode/log-reader readLog, record bodies only for the batches asked for), so
// that no record is kept. Each read's findings go into the partition's list.
import type { FindingList } from '../analysis/finding-list.js'
import { finding } from '../analysis/findings.js'
import type { Finding } from '../analysis/findings.js'
import { decodeFinding } from '../analysis/log-findings.js'
import type { CleanSegment, SegmentVisitor } from '../analysis/cleanup/model.js'
import { DecodeError } from '../decode/errors.js'
import { readLog } from '../decode/log-reader.js'
import { batchRecords } from '../decode/streamed-batch.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'
import { PARTITION_SCAN_WINDOW } from './batch-feed.js'
import { HeaderFacts } from '../analysis/cleanup/txn-metadata.js'
import type { BatchFacts } from '../analysis/batch-facts.js'
import type { PartitionScanOptions } from './partition-scan.js'

/** cleanup's hooks on a partition scan, and the headers they collect per partition */
export interface CleanupHooks {
  hooks: Required<Pick<PartitionScanOptions, 'analyzer' | 'batch'>>
  headers: Map<PartitionDir, HeaderFacts>
}

/**
 * The batch headers cleanup's rules need, taken as the partition scan every command shares streams (HeaderFacts):
 * the segments' timestamps, declared records and aborted transactions cost no pass of their own. The scan must
 * take the partitions one after another (scanPaths, BrokerModel.scan), as `analyzer` starts each.
 */
export function cleanupHooks(): CleanupHooks {
  const headers = new Map<PartitionDir, HeaderFacts>()
  let current = new HeaderFacts()
  return {
    headers,
    hooks: {
      analyzer: (dir) => {
        // (the partition before is done)
        current.trim()
        current = new HeaderFacts()
        headers.set(dir, current)
        return {}
      },
      batch: (s: BatchFacts) => {
        if (s.legacy === true || s.file === undefined) return
        current.batch(s.file, {
          baseOffset: s.baseOffset,
          maxTimestamp: s.maxTimestamp,
          producerId: s.producerId,
          transactional: s.isTransactional,
          // a control batch whose CRC failed (undefined) is not trusted as a marker
          control: s.isControl ? (s.control?.typeName ?? 'EMPTY') : null,
          records: s.recordsCount,
        })
      },
    },
  }
}

/** the partition's .log segments in offset order; an unopenable one is a finding and left out */
export function cleanupSegments(dir: PartitionDir, findings: FindingList): CleanSegment[] {
  const out: CleanSegment[] = []
  for (const f of dir.files.filter((x) => x.kind === 'log' && x.baseOffset !== null)) {
    try {
      const src = new FileSource(f.path)
      out.push({
        baseOffset: f.baseOffset!,
        file: f.path,
        sizeBytes: src.size,
        largestTimestamp: -1n,
        firstBatchTimestamp: null,
        dataRecords: 0,
      })
      src.close()
    } catch (e) {
      findings.push(finding('UNREADABLE', describeFsError(e), { file: f.path }))
    }
  }
  return out
}

/** one pass over a segment; the same file's findings are reported once per partition */
export function readCleanupSegment(
  seg: CleanSegment,
  visit: SegmentVisitor,
  findings: FindingList,
  reported: Set<string>,
  resync = true,
): void {
  const report = (f: Parameters<FindingList['push']>[0]): void => {
    const key = `${f.code}@${f.file ?? ''}:${f.position ?? ''}`
    if (!reported.has(key)) {
      reported.add(key)
      findings.push(f)
    }
  }
  let src: FileSource
  try {
    src = new FileSource(seg.file)
  } catch (e) {
    report(finding('UNREADABLE', describeFsError(e), { file: seg.file }))
    return
  }
  try {
    // a 256 KiB window: a batch larger than it is streamed (batchRecords), and no 8 MiB buffer per read is left to the GC
    // past damage as the partition scan goes (its findings are the scan's: only record decoding adds any here)
    for (const ev of readLog(src, {
      verifyCrc: false,
      resync,
      window: PARTITION_SCAN_WINDOW,
      ...(visit.headersOnly === true ? { headersOnly: true } : {}),
    })) {
      if (ev.kind !== 'batch') continue
      const h = ev.header
      const want = visit.batch({
        baseOffset: h.baseOffset,
        lastOffset: h.lastOffset,
        maxTimestamp: h.maxTimestamp,
        producerId: h.producerId,
        producerEpoch: h.producerEpoch,
        transactional: h.isTransactional,
        control: h.isControl ? (ev.control?.typeName ?? 'EMPTY') : null,
        // DefaultRecordBatch.deleteHorizonMs: the base timestamp once the delete-horizon attribute is set (KIP-534)
        deleteHorizonMs: h.hasDeleteHorizon ? h.baseTimestamp : null,
        records: h.recordsCount,
      })
      if (want === 'stop') break
      if (want === 'skip' || h.isControl || visit.record === undefined) continue
      try {
        for (const rec of batchRecords(h, ev.bytes, ev.complete, src, { window: PARTITION_SCAN_WINDOW })) {
          visit.record(rec.offset, rec.key, rec.value !== null || rec.valueSize !== undefined)
        }
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e
        report(decodeFinding(e, seg.file))
      }
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    report(finding(e.code, e.message, { file: seg.file, position: e.position }))
  } finally {
    src.close()
  }
}

/** The log dir's cleaner-offset-checkpoint (LogCleanerManager.allCleanerCheckpoints); null when missing or malformed. */
export function readCleanerCheckpoint(logDir: string): OffsetCheckpoint | null {
  return readOffsetCheckpoint(logDir, 'cleaner-offset-checkpoint')
}
