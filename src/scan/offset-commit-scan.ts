// The offset commits of a __consumer_offsets partition (record types 0 and 1: OffsetCommitKey/Value of the
// group coordinator), each with the producer of its batch: a transactional batch is a TxnOffsetCommit
// (sendOffsetsToTransaction), a plain one a consumer's own commit. Records of other types are skipped.
import { FindingList } from '../analysis/finding-list.js'
import type { OffsetCommitRecord } from '../analysis/transaction-join/types.js'
import { finding } from '../analysis/findings.js'
import { decodeFinding } from '../analysis/log-findings.js'
import { DecodeError } from '../decode/errors.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import { readLog } from '../decode/log-reader.js'
import { batchRecords } from '../decode/streamed-batch.js'
import { decodeGroupRecord } from '../decode/topics/consumer-offsets.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'


const big = (v: unknown): bigint => (typeof v === 'bigint' ? v : BigInt(v as number))

/** Every offset commit record of the partition, in file order, and the findings of records that do not decode. */
export function scanOffsetCommits (dir: PartitionDir): { commits: OffsetCommitRecord[], findings: FindingList } {
  const findings = new FindingList()
  const commits: OffsetCommitRecord[] = []
  for (const f of dir.files.filter((x) => x.kind === 'log')) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      findings.push(finding('UNREADABLE', describeFsError(e), { file: f.path }))
      continue
    }
    try {
      for (const ev of readLog(src, { verifyCrc: false })) {
        if (ev.kind !== 'batch' || ev.header.isControl) continue
        const h = ev.header
        try {
          for (const rec of batchRecords(h, ev.bytes, ev.complete, src, { window: DEFAULT_WINDOW })) {
            if (rec.key === null || rec.valuePieces !== undefined) continue
            const type = rec.key.length >= 2 ? rec.key.readInt16BE(0) : -1
            if (type !== 0 && type !== 1) continue
            let r
            try { r = decodeGroupRecord(rec.key, rec.value, '4.4', { checkValueVersion: false }, rec.filePosition, rec.filePosition) } catch (e) {
              if (!(e instanceof DecodeError)) throw e
              // the transaction is still listed, without this commit
              findings.push(finding('BAD_INTERNAL_RECORD', `offset commit at offset ${rec.offset} does not decode: ${e.message}`, { file: f.path, position: rec.filePosition }))
              continue
            }
            const k = r.key
            const v = r.value?.data
            commits.push({ recordOffset: rec.offset, producerId: h.producerId, producerEpoch: h.producerEpoch, transactional: h.isTransactional,
              group: String(k.group), topic: String(k.topic), partition: Number(k.partition),
              offset: v === undefined ? null : big(v.offset), metadata: v === undefined || v.metadata === null ? null : String(v.metadata),
              timestamp: h.maxTimestamp, file: f.path, position: rec.filePosition })
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
  return { commits, findings }
}
