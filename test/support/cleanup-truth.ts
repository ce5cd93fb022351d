// What a cleaned log dir holds, read from v2 batch headers (DefaultRecordBatch layout) by the tests themselves,
// not by tsdump: the truth `tsdump cleanup`'s predictions are compared with (issue #22).
import * as fs from 'node:fs'
import * as path from 'node:path'

/** [baseOffset, lastOffset] of each batch of a partition directory, in offset order */
export function batchRanges(partDir: string): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (const f of fs
    .readdirSync(partDir)
    .filter((x) => x.endsWith('.log'))
    .sort()) {
    const b = fs.readFileSync(path.join(partDir, f))
    for (let pos = 0; pos + 61 <= b.length; pos += 12 + b.readInt32BE(pos + 8)) {
      const base = Number(b.readBigInt64BE(pos))
      out.push([base, base + b.readInt32BE(pos + 23)])
    }
  }
  return out
}

/** data records and markers in a partition directory's segments below `end`; an emptied batch has no record */
export function recordsBelow(partDir: string, end: number): { data: number; markers: number } {
  let data = 0
  let markers = 0
  for (const f of fs.readdirSync(partDir).filter((x) => x.endsWith('.log') && Number(x.slice(0, 20)) < end)) {
    const b = fs.readFileSync(path.join(partDir, f))
    for (let pos = 0; pos + 61 <= b.length; pos += 12 + b.readInt32BE(pos + 8)) {
      if (Number(b.readBigInt64BE(pos)) >= end) continue
      const n = b.readInt32BE(pos + 57)
      if ((b.readInt16BE(pos + 21) & 0x20) !== 0) markers += n
      else data += n
    }
  }
  return { data, markers }
}
