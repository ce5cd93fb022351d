// decode/control-fast.ts reads COMMIT/ABORT markers without the general decoder; the partition scan
// trusts it only because of this promise: wherever it accepts a batch, the general path
// (log-reader's control record decoding) yields the same type, key version and coordinator epoch,
// with no problem. Checked on every control batch of the broker fixtures, and on mutated copies.
import * as fs from 'node:fs'
import * as path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EndTxnMarkerFacts } from '../../src/decode/control-fast.js'
import { readEndTxnMarkerFast } from '../../src/decode/control-fast.js'
import { readLog } from '../../src/decode/log-reader.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { FIXTURES } from '../support/paths.js'

function logs(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.log'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
}

/** every complete control batch of the fixtures, as its own bytes (a copy) */
const controls: Buffer[] = []
for (const f of logs(FIXTURES)) {
  for (const ev of readLog(new BufferSource(fs.readFileSync(f)), { verifyCrc: false })) {
    if (ev.kind === 'batch' && ev.complete && ev.header.isControl) controls.push(Buffer.from(ev.bytes)) // copy: the window is reused
  }
}

/** what the general path says about one batch: its control info and problems */
function general(batch: Buffer): {
  control: { type: number; keyVersion: number; coordinatorEpoch?: number } | null
  problems: string[]
} {
  for (const ev of readLog(new BufferSource(batch), { verifyCrc: false })) {
    if (ev.kind === 'batch') return { control: ev.control, problems: ev.problems.map((p) => p.code) }
  }
  return { control: null, problems: ['NOT_A_BATCH'] }
}

function agree(batch: Buffer): boolean {
  const out: EndTxnMarkerFacts = { type: -1, keyVersion: -1, coordinatorEpoch: -1 }
  if (!readEndTxnMarkerFast(batch, 0, batch.length, out)) return false
  const g = general(batch)
  expect(g.problems).toEqual([])
  expect(g.control).toMatchObject({
    type: out.type,
    keyVersion: out.keyVersion,
    coordinatorEpoch: out.coordinatorEpoch,
  })
  return true
}

describe('control-fast agrees with the general control-record decoding', () => {
  it('on every COMMIT/ABORT marker the brokers wrote', () => {
    expect(controls.length).toBeGreaterThan(10)
    let accepted = 0
    for (const b of controls) if (agree(b)) accepted++
    // brokers write markers in the one shape the fast path takes: it must accept them, or it is never used
    expect(accepted).toBeGreaterThan(controls.length / 2)
  })

  it('on markers with bytes of the record changed (accepted or refused, never a different answer)', () => {
    fc.assert(
      fc.property(fc.nat(controls.length - 1), fc.nat(), fc.integer({ min: 0, max: 255 }), (i, at, v) => {
        const b = Buffer.from(controls[i]!) // copy: mutated below
        const p = 61 + (at % (b.length - 61))
        b[p] = v
        agree(b)
      }),
      { numRuns: 3000 },
    )
  })
})
