// Per-file counts printed after a dump (and compared with ../shared/corpus/facts.json in tests).
import type { BatchHeader } from '../decode/batch-header.js'
import { codecName } from '../decode/layout.js'
import type { LegacyEntry } from '../decode/legacy.js'
import type { V2Batch } from '../decode/log-reader.js'

export interface LogSummary {
  file: string
  batches: number
  /** v2: sum of header recordsCount; legacy: one per entry, or its inner messages once decoded (deep mode) */
  records: number
  transactionalBatches: number
  control: Record<string, number>
  crcFailures: number
  unsupported: number
  corruptRegions: number
  trailingBytes: number
  firstOffset: bigint | null
  lastOffset: bigint | null
  magic: Record<string, number>
  codecs: Record<string, number>
  add (h: BatchHeader, b: V2Batch): void
  addLegacy (e: LegacyEntry): void
}

export function newSummary (file: string): LogSummary {
  const s: LogSummary = {
    file, batches: 0, records: 0, transactionalBatches: 0, control: {}, crcFailures: 0, unsupported: 0,
    corruptRegions: 0, trailingBytes: 0, firstOffset: null, lastOffset: null, magic: {}, codecs: {},
    add (h, b) {
      s.batches++
      s.records += h.recordsCount
      if (h.isTransactional && !h.isControl) s.transactionalBatches++
      if (h.isControl) {
        const t = b.control?.typeName ?? 'EMPTY'
        s.control[t] = (s.control[t] ?? 0) + 1
      }
      if (b.crcValid === false) s.crcFailures++
      s.firstOffset ??= h.baseOffset
      s.lastOffset = h.lastOffset
      s.magic[h.magic] = (s.magic[h.magic] ?? 0) + 1
      const c = codecName(h.compression)
      s.codecs[c] = (s.codecs[c] ?? 0) + 1
    },
    addLegacy (e) {
      s.batches++
      s.records++
      if (!e.crcValid) s.crcFailures++
      s.firstOffset ??= e.offset
      s.lastOffset = e.offset
      s.magic[e.magic] = (s.magic[e.magic] ?? 0) + 1
      const c = codecName(e.compression)
      s.codecs[c] = (s.codecs[c] ?? 0) + 1
    },
  }
  return s
}

export function formatSummary (s: LogSummary): string {
  const control = Object.entries(s.control).map(([k, v]) => `${k} ${v}`).join(', ')
  const records = s.records
  return `Summary: ${s.batches} batches, ${records} records` +
    (s.firstOffset !== null ? `, offsets ${s.firstOffset}..${s.lastOffset}` : '') +
    `, ${s.transactionalBatches} transactional batches` +
    `, control batches: ${control === '' ? 'none' : control}` +
    `, CRC failures: ${s.crcFailures}, trailing bytes: ${s.trailingBytes}` +
    (s.unsupported > 0 ? `, batches with unsupported codec: ${s.unsupported}` : '') +
    (s.corruptRegions > 0 ? `, damaged regions: ${s.corruptRegions}` : '')
}

export function summaryJson (s: LogSummary): Record<string, unknown> {
  return {
    type: 'summary', file: s.file, batches: s.batches, records: s.records,
    transactionalBatches: s.transactionalBatches, controlBatches: s.control, crcFailures: s.crcFailures,
    unsupportedCodecBatches: s.unsupported, damagedRegions: s.corruptRegions, trailingBytes: s.trailingBytes,
    firstOffset: s.firstOffset, lastOffset: s.lastOffset, magic: s.magic, codecs: s.codecs,
  }
}
