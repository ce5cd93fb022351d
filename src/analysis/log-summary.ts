// Per-file counts of a dump (printed by format/dump-printer.ts; compared with ../shared/corpus/facts.json in tests).
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import { BatchView } from '../decode/batch-view.js'
import * as L from '../decode/layout.js'
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
  /** bytes skipped inside damaged regions that reading resumed after (not trailing: batches follow them) */
  damagedBytes: number
  /** bytes after the last batch that do not form one (a tail, or damage reading did not resume after) */
  trailingBytes: number
  readonly firstOffset: bigint | null
  readonly lastOffset: bigint | null
  magic: Record<string, number>
  codecs: Record<string, number>
  add(b: V2Batch): void
  addLegacy(e: LegacyEntry): void
  materialise(): void
  /** the counts as plain data (a worker thread's share of a file, structured-clone safe) */
  part(): SummaryPart
  /** add the counts of the run of batches that follows the ones already counted (parallel dumps) */
  absorb(p: SummaryPart): void
}

/** Summary counts of a run of batches, mergeable in file order. */
export interface SummaryPart {
  batches: number
  records: number
  transactionalBatches: number
  control: Record<string, number>
  crcFailures: number
  unsupported: number
  corruptRegions: number
  damagedBytes: number
  trailingBytes: number
  firstOffset: bigint | null
  magicCounts: number[]
  codecCounts: number[]
  lastBase: I64
  lastDelta: number
  lastLegacy: bigint | null
  any: boolean
}

// Reads the few header fields it needs in place (a BatchView, no BigInt per batch); the last offset is
// kept as its batch's base offset and delta and only turned into a bigint when asked for.
class Summary implements LogSummary {
  batches = 0
  records = 0
  transactionalBatches = 0
  control: Record<string, number> = {}
  crcFailures = 0
  unsupported = 0
  corruptRegions = 0
  damagedBytes = 0
  trailingBytes = 0
  firstOffset: bigint | null = null
  magic: Record<string, number> = {}
  codecs: Record<string, number> = {}
  private readonly magicCounts = [0, 0, 0]
  private readonly codecCounts = [0, 0, 0, 0, 0, 0, 0, 0]
  private lastBase: I64 = 0
  private lastDelta = 0
  private lastLegacy: bigint | null = null
  private any = false

  constructor(readonly file: string) {}

  add(b: V2Batch): void {
    const v = view.of(b.bytes, b.position)
    this.batches++
    const attributes = v.attributes
    const count = v.recordsCount
    const codec = attributes & L.COMPRESSION_CODEC_MASK
    // an impossible count (reported as a finding) must not make the total negative or absurd
    const size = v.sizeInBytes
    this.records += Math.max(0, codec === 0 ? Math.min(count, Math.floor((size - L.RECORD_BATCH_OVERHEAD) / 7)) : count)
    const isControl = (attributes & L.CONTROL_FLAG_MASK) !== 0
    if ((attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0 && !isControl) this.transactionalBatches++
    if (isControl) {
      // a control batch with records that could not be read is not an emptied one (KAFKA-7467)
      const t = b.control?.typeName ?? (count === 0 ? 'EMPTY' : 'UNREADABLE')
      this.control[t] = (this.control[t] ?? 0) + 1
    }
    if (b.crcValid === false) this.crcFailures++
    this.lastBase = v.int64(L.OFFSET_OFFSET)
    if (!this.any) {
      this.firstOffset = toBigInt(this.lastBase)
      this.any = true
    }
    this.lastDelta = v.lastOffsetDelta
    this.lastLegacy = null
    this.magicCounts[2]!++
    this.codecCounts[codec]!++
  }

  addLegacy(e: LegacyEntry): void {
    this.batches++
    this.records++
    if (!e.crcValid) this.crcFailures++
    if (!this.any) {
      this.firstOffset = e.offset
      this.any = true
    }
    this.lastLegacy = e.offset
    this.magicCounts[e.magic]!++
    this.codecCounts[e.compression & 7]!++
  }

  get lastOffset(): bigint | null {
    if (!this.any) return null
    if (this.lastLegacy !== null) return this.lastLegacy
    return toBigInt(this.lastBase) + BigInt(this.lastDelta)
  }

  part(): SummaryPart {
    return {
      batches: this.batches,
      records: this.records,
      transactionalBatches: this.transactionalBatches,
      control: { ...this.control },
      crcFailures: this.crcFailures,
      unsupported: this.unsupported,
      corruptRegions: this.corruptRegions,
      damagedBytes: this.damagedBytes,
      trailingBytes: this.trailingBytes,
      firstOffset: this.firstOffset,
      magicCounts: [...this.magicCounts],
      codecCounts: [...this.codecCounts],
      lastBase: this.lastBase,
      lastDelta: this.lastDelta,
      lastLegacy: this.lastLegacy,
      any: this.any,
    }
  }

  absorb(p: SummaryPart): void {
    this.batches += p.batches
    this.records += p.records
    this.transactionalBatches += p.transactionalBatches
    for (const [t, n] of Object.entries(p.control)) this.control[t] = (this.control[t] ?? 0) + n
    this.crcFailures += p.crcFailures
    this.unsupported += p.unsupported
    this.corruptRegions += p.corruptRegions
    this.damagedBytes += p.damagedBytes
    this.trailingBytes += p.trailingBytes
    p.magicCounts.forEach((n, m) => {
      this.magicCounts[m]! += n
    })
    p.codecCounts.forEach((n, c) => {
      this.codecCounts[c]! += n
    })
    if (!p.any) return
    if (!this.any) {
      this.firstOffset = p.firstOffset
      this.any = true
    }
    // the later run's last batch is the file's last so far
    this.lastBase = p.lastBase
    this.lastDelta = p.lastDelta
    this.lastLegacy = p.lastLegacy
  }

  /** fill `magic` and `codecs` (only what occurs, as facts.json lists them); call when the file is done */
  materialise(): void {
    this.magic = {}
    this.magicCounts.forEach((n, m) => {
      if (n > 0) this.magic[m] = n
    })
    this.codecs = {}
    this.codecCounts.forEach((n, c) => {
      if (n > 0) this.codecs[codecName(c)] = n
    })
  }
}

const view = new BatchView()

export function newSummary(file: string): LogSummary {
  return new Summary(file)
}
