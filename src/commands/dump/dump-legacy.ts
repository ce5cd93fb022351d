// A legacy (magic 0/1) entry of a dumped range: counted, checked (a compressed wrapper's inner messages: their CRCs
// and offsets) and printed. Split out of dump-range.ts, whose entry loop calls onLegacy.
import { finding } from '../../analysis/findings.js'
import { DecodeError } from '../../decode/errors.js'
import type { LegacyEntry, LegacyRecord } from '../../decode/legacy.js'
import { decodeLegacyEntry, decodeLegacyRecords } from '../../decode/legacy.js'
import type { LegacyFrame } from '../../decode/log-reader.js'
import type { Ctx } from './dump-ctx.js'
import { limits, reportDecodeError, trackOffset } from './dump-ctx.js'

export function onLegacy(f: LegacyFrame, c: Ctx): void {
  const { opts } = c
  if (c.reported.codes.length > 0) {
    c.reported.codes.length = 0
    c.reported.positions.length = 0
  }
  let e
  try {
    e = decodeLegacyEntry(f.bytes, f.position)
  } catch (err) {
    if (err instanceof DecodeError) {
      reportDecodeError(err, c)
      return
    }
    throw err
  }
  if (
    c.range !== undefined &&
    c.range.batch({
      baseOffset: e.offset,
      lastOffset: e.offset,
      producerId: -1,
      baseTimestamp: e.timestamp,
      maxTimestamp: e.timestamp,
    }) !== 'in'
  )
    return
  c.summary.addLegacy(e)
  if (!e.crcValid) {
    c.log.add({
      severity: 'error',
      code: 'CRC_MISMATCH',
      file: c.file.path,
      position: f.position,
      message: `legacy message (offset ${e.offset}): crc stored ${e.crc} does not match its content`,
    })
  }
  if (opts.controlOnly) return
  c.printer.legacyBatch(e, c.file)
  if (!opts.deep) {
    countWrapped(e, c)
    return
  }
  try {
    let inner = 0
    let prev: bigint | undefined
    for (const r of decodeLegacyRecords(e, limits(opts))) {
      // a compressed wrapper counts as its inner messages once they are known
      if (inner++ > 0) c.summary.records++
      if (e.compression !== 0) checkInner(e, r, inner - 1, prev, c)
      prev = r.offset
      if (c.range !== undefined && !c.range.record(r.offset, r.timestamp)) continue
      trackOffset(r.offset, c)
      c.printer.legacyRecord(e, r, c.file)
    }
  } catch (err) {
    if (err instanceof DecodeError) reportDecodeError(err, c)
    else throw err
  }
}

/**
 * An inner message of a compressed legacy wrapper: its own CRC (the wrapper's covers only the compressed
 * bytes) and the order of the inner offsets. Positions inside the decompressed value are not file
 * positions, so the finding names the wrapper's position and the inner message's index.
 */
function checkInner(e: LegacyEntry, r: LegacyRecord, index: number, prev: bigint | undefined, c: Ctx): void {
  if (!r.crcValid) {
    c.summary.crcFailures++
    c.log.add(
      finding(
        'CRC_MISMATCH',
        `legacy wrapper (offset ${e.offset}): inner message ${index} (offset ${r.offset}): crc stored ${r.crc} does not match its content`,
        { file: c.file.path, position: e.position },
      ),
    )
  }
  if (prev !== undefined && r.offset <= prev) {
    c.log.add(
      finding(
        'OFFSETS_NOT_INCREASING',
        `legacy wrapper (offset ${e.offset}): inner message ${index} has offset ${r.offset}, not above the previous ${prev}`,
        { file: c.file.path, position: e.position },
      ),
    )
  }
}

/**
 * A shallow dump of a compressed legacy wrapper still counts its logical records (the messages inside), as
 * the deep dump does; kafka-dump-log prints no count. A wrapper that does not decode counts as one; the deep
 * dump is where its problem is reported.
 */
function countWrapped(e: LegacyEntry, c: Ctx): void {
  if (e.compression === 0) return
  try {
    let inner = 0
    for (const _r of decodeLegacyRecords(e, limits(c.opts))) inner++
    if (inner > 1) c.summary.records += inner - 1
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err
  }
}
