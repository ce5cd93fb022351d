// decode/single-record.ts reads the one record of a coordinator's batch in place, for lso's and txns' walk of
// millions of them. The reader trusts it only because of this promise: wherever it takes a record, the general walk
// (walkPlainRecords, decodeRecords' checks) reads the batch without an error and gives the same key, value and offset
// delta. Checked on every one-record batch the fixtures' brokers wrote to __transaction_state, and on copies with
// each byte of the record changed and with the batch's length cut or grown.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BatchView } from '../../src/decode/batch-view.js'
import { scanFrames } from '../../src/decode/frame-scanner.js'
import * as L from '../../src/decode/layout.js'
import { RecordCursor } from '../../src/decode/record-cursor.js'
import { walkPlainRecords } from '../../src/decode/records.js'
import type { SingleRecord } from '../../src/decode/single-record.js'
import { readSingleRecord } from '../../src/decode/single-record.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'

/** every uncompressed one-record data batch of the fixtures' __transaction_state segments, each a copy */
function coordinatorBatches(): Buffer[] {
  const out: Buffer[] = []
  for (const root of [FIXTURES, FIXTURES_44])
    for (const e of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
      if (!e.isFile() || !e.name.endsWith('.log')) continue
      if (!path.basename(e.parentPath).startsWith('__transaction_state-')) continue
      for (const ev of scanFrames(new BufferSource(fs.readFileSync(path.join(e.parentPath, e.name))))) {
        if (ev.kind !== 'frame' || ev.magic !== 2 || !ev.complete || ev.isControl) continue
        if (ev.compression !== 0 || ev.recordsCount !== 1) continue
        out.push(Buffer.from(ev.window.subarray(ev.o, ev.o + ev.sizeInBytes)))
      }
    }
  return out
}

/** what the general walk reads of the batch at buf[pad, ...), or null where it throws */
function general(buf: Buffer, pad: number): SingleRecord | null {
  const v = new BatchView().at(buf, pad, 1000)
  const got: SingleRecord[] = []
  try {
    walkPlainRecords(v, 0, new RecordCursor(), (c) => {
      got.push({
        offsetDelta: c.offsetDelta,
        keyAt: c.keyAt,
        keyLength: c.keyLength,
        valueAt: c.valueAt,
        valueLength: c.valueLength,
      })
    })
  } catch {
    return null
  }
  return got.length === 1 ? got[0]! : null
}

/** the two agree on the batch `entry` (placed at an offset in a larger buffer); returns whether the fast read took it */
function agree(entry: Buffer): boolean {
  const pad = 5
  const buf = Buffer.concat([Buffer.alloc(pad, 0xee), entry, Buffer.alloc(7, 0xee)])
  const size = entry.readInt32BE(L.SIZE_OFFSET) + L.LOG_OVERHEAD
  const into: SingleRecord = { offsetDelta: -9, keyAt: -9, keyLength: -9, valueAt: -9, valueLength: -9 }
  if (!readSingleRecord(buf, pad, size, into)) return false
  expect(general(buf, pad)).toEqual(into)
  return true
}

describe('readSingleRecord (decode/single-record.ts)', () => {
  const batches = coordinatorBatches()

  it('takes every one-record batch the coordinators wrote, with the general walk’s fields', (ctx) => {
    if (batches.length === 0) ctx.skip()
    for (const b of batches) expect(agree(b)).toBe(true)
  })

  it('on batches with a byte of the record changed, or the length cut or grown (taken or declined, never a different answer)', (ctx) => {
    if (batches.length === 0) ctx.skip()
    let taken = 0
    let declined = 0
    for (const b of batches.slice(0, 40)) {
      for (let i = L.RECORD_BATCH_OVERHEAD; i < b.length; i++)
        for (const x of [0, 1, 2, 0x7f, 0x80, 0xff, b[i]! ^ 1, (b[i]! + 2) & 0xff]) {
          const m = Buffer.from(b)
          m[i] = x
          if (agree(m)) taken++
          else declined++
        }
      for (const d of [-3, -2, -1, 1, 2, 5]) {
        const m = Buffer.concat([b, Buffer.alloc(Math.max(0, d))]).subarray(0, b.length + d)
        m.writeInt32BE(m.length - L.LOG_OVERHEAD, L.SIZE_OFFSET)
        if (agree(m)) taken++
        else declined++
      }
    }
    // both sides were exercised
    expect(taken).toBeGreaterThan(0)
    expect(declined).toBeGreaterThan(0)
  })
})
