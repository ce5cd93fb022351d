// The records of an internal topic's segments (__transaction_state, __consumer_offsets, __cluster_metadata,
// __remote_log_metadata), in file order: the one loop of the scans that decode keys and values. Each file is
// opened through io/, its data batches read without a CRC check (the dump checks them), a batch larger than the
// window record by record (decode/streamed-batch.ts). Nothing is kept here but where records were lost:
// framing damage (a torn tail, a length or magic that cannot be right) is a finding as in `dump`, and the
// first place of each file past which records could not be read is returned, so that what depends on them (a
// coordinator's state, a topic's configs, a remote segment's state) is said to be unknown, never a default.
import type { FindingList } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import type { LostRecords } from '../analysis/lost-records.js'
import { finding } from '../analysis/findings.js'
import { corruptFinding, decodeFinding, tailFinding } from '../analysis/log-findings.js'
import type { BatchHeader } from '../decode/batch-header.js'
import type { Frame } from '../decode/frame.js'
import { DecodeError } from '../decode/errors.js'
import type { FrameScanner } from '../decode/frame-scanner.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import type { V2Batch } from '../decode/log-reader.js'
import { readLog } from '../decode/log-reader.js'
import type { SegmentSource } from '../decode/segment-source.js'
import type { KafkaRecord } from '../decode/records.js'
import { batchRecords } from '../decode/streamed-batch.js'
import type { KafkaFile } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'

/**
 * Calls `visit` with each record of the data batches of `files`; returns where records were lost (one place per
 * file, the first). An unreadable file is a finding and the next is read; framing damage is the dump's finding
 * (the reader resyncs past it); a DecodeError (from the batch or thrown by `visit`) is a finding at its position
 * and the rest of that batch is skipped. `otherError` turns another error of a batch into a finding (a decoder's
 * own error type); without it, or when it returns undefined, the error is rethrown (a bug, not the data). `open`:
 * each file's source (a FileSource; the remote metadata's read alone holds what it reads for the scan after it).
 */
export function forEachInternalRecord(
  files: readonly KafkaFile[],
  findings: FindingList,
  visit: (rec: KafkaRecord, header: BatchHeader, file: KafkaFile) => void,
  otherError?: (e: unknown, file: KafkaFile, batchPosition: number) => Finding | undefined,
  open: (f: KafkaFile) => SegmentSource = (f) => new FileSource(f.path),
): LostRecords[] {
  const damage: LostRecords[] = []
  let earlierFiles: string[] = []
  const lost = (f: Finding, file: string): void => {
    findings.push(f)
    // a preallocated (zero) tail holds no records: nothing is lost there
    if (f.code !== 'ZERO_TAIL' && !damage.some((d) => d.file === file))
      damage.push({ file, position: f.position ?? 0, code: f.code, earlierFiles })
  }
  for (const f of files) {
    earlierFiles = files.slice(0, files.indexOf(f)).map((x) => x.path)
    let src: SegmentSource
    try {
      src = open(f)
    } catch (e) {
      lost(finding('UNREADABLE', describeFsError(e), { file: f.path, position: 0 }), f.path)
      continue
    }
    try {
      for (const ev of readLog(src, { verifyCrc: false, resync: true })) {
        if (ev.kind === 'tail') {
          lost(tailFinding(ev, f.path), f.path)
          continue
        }
        if (ev.kind === 'corrupt') {
          lost(corruptFinding(ev, f.path), f.path)
          continue
        }
        if (ev.kind !== 'batch' || ev.header.isControl) continue
        visitBatch(ev, src, f, findings, visit, otherError ?? (() => undefined))
      }
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      lost(finding(e.code, e.message, { file: f.path, position: e.position }), f.path)
    } finally {
      src.close()
    }
  }
  return damage
}

export type Frames = Pick<FrameScanner, 'next'>

/**
 * A tap on the partition scan's frames of one segment (PartitionScanOptions.frames) for an internal topic's reader:
 * framing damage handed to `lose` (where records were lost), each data batch of magic 2 to `batch`, every event
 * passed on to the scan unchanged
 */
export function dataBatchTap(
  frames: Frames,
  file: KafkaFile,
  lose: (f: Finding, file: string) => void,
  batch: (ev: Frame) => void,
): Frames {
  return {
    next: () => {
      const ev = frames.next()
      if (ev === undefined) return ev
      if (ev.kind === 'tail') lose(tailFinding(ev, file.path), file.path)
      else if (ev.kind === 'corrupt') lose(corruptFinding(ev, file.path), file.path)
      else if (ev.magic >= 2 && !ev.isControl) batch(ev)
      return ev
    },
  }
}

/**
 * A data batch's records to `visit` (forEachInternalRecord's, and a tapped reader's): a DecodeError (from the batch or
 * thrown by `visit`) is a finding and the rest of the batch is skipped; another error is `otherError`'s finding, or
 * rethrown when it gives none
 */
export function visitBatch(
  b: V2Batch,
  src: SegmentSource,
  file: KafkaFile,
  findings: FindingList,
  visit: (rec: KafkaRecord, header: BatchHeader, file: KafkaFile) => void,
  otherError: (e: unknown, file: KafkaFile, batchPosition: number) => Finding | undefined,
): void {
  try {
    for (const rec of batchRecords(b.header, b.bytes, b.complete, src, { window: DEFAULT_WINDOW }))
      visit(rec, b.header, file)
  } catch (e) {
    if (e instanceof DecodeError) {
      findings.push(decodeFinding(e, file.path))
      return
    }
    const other = otherError(e, file, b.position)
    if (other === undefined) throw e
    findings.push(other)
  }
}

/**
 * A tapped reader's framing damage or I/O error in `file`: a finding, and the first place of the file past which
 * records were lost (`order`: the reader's files in the order read); a preallocated (zero) tail loses nothing
 */
export function loseAt(findings: FindingList, lost: LostRecords[], f: Finding, file: string, order: string[]): void {
  findings.push(f)
  if (f.code === 'ZERO_TAIL' || lost.some((d) => d.file === file)) return
  lost.push({
    file,
    position: f.position ?? 0,
    code: f.code,
    earlierFiles: order.slice(0, Math.max(0, order.indexOf(file))),
  })
}
