// The summary line after a dumped log file, as text and as a JSON event.
import type { LogSummary } from '../analysis/log-summary.js'

export function formatSummary(s: LogSummary): string {
  const control = Object.entries(s.control)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  const records = s.records
  return (
    `Summary: ${plural(s.batches, 'batch', 'batches')}, ${plural(records, 'record', 'records')}` +
    (s.firstOffset !== null ? `, offsets ${s.firstOffset}..${s.lastOffset}` : '') +
    // control batches are transactional too, but they are counted under "control batches"
    `, ${plural(s.transactionalBatches, 'transactional data batch', 'transactional data batches')}` +
    `, control batches: ${control === '' ? 'none' : control}` +
    `, CRC failures: ${s.crcFailures}, trailing bytes: ${s.trailingBytes}` +
    (s.unsupported > 0 ? `, batches with unsupported codec: ${s.unsupported}` : '') +
    (s.corruptRegions > 0
      ? `, damaged regions: ${s.corruptRegions}` + (s.damagedBytes > 0 ? ` (${s.damagedBytes} bytes)` : '')
      : '')
  )
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

export function summaryJson(s: LogSummary): Record<string, unknown> {
  return {
    type: 'summary',
    file: s.file,
    batches: s.batches,
    records: s.records,
    transactionalBatches: s.transactionalBatches,
    controlBatches: s.control,
    crcFailures: s.crcFailures,
    unsupportedCodecBatches: s.unsupported,
    damagedRegions: s.corruptRegions,
    damagedBytes: s.damagedBytes,
    trailingBytes: s.trailingBytes,
    firstOffset: s.firstOffset,
    lastOffset: s.lastOffset,
    magic: s.magic,
    codecs: s.codecs,
  }
}
