// Bit rot: one flipped bit anywhere in a real v2 batch. Inside the CRC-covered bytes it is a CRC_MISMATCH
// on that batch only; in batchLength or magic it is framing damage, and the batches after it are still
// read when the framing allows (resync); in baseOffset / partitionLeaderEpoch Kafka itself cannot see it.
import * as fs from 'node:fs'
import * as path from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { detachEvent, readLog } from '../../src/decode/log-reader.js'
import type { LogEvent } from '../../src/decode/log-reader.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { flipBit } from '../support/segment-builder.js'
import { expectNoCrash, findings, frameBoundaries, realLogs, rmrf, run, tmp, writeLog } from './support.js'

const dir = tmp()
afterAll(() => rmrf(dir))

interface Sample {
  name: string
  buf: Buffer
  bounds: number[]
  v2: number[]
}

const samples: Sample[] = realLogs()
  .map((p) => {
    const whole = fs.readFileSync(p)
    const all = frameBoundaries(whole)
    // large files: 40 entries from the middle keep every property run fast
    const buf =
      whole.length > 65536
        ? whole.subarray(all[Math.floor(all.length / 2)], all[Math.floor(all.length / 2) + 40])
        : whole.subarray(0, all[all.length - 1])
    const bounds = frameBoundaries(buf)
    const v2 = bounds
      .slice(0, -1)
      .map((_, i) => i)
      .filter((i) => buf[bounds[i]! + 16] === 2)
    return { name: path.basename(path.dirname(p)), buf, bounds, v2 }
  })
  .filter((s) => s.v2.length >= 2)

if (samples.length === 0)
  console.log('skipping bit-flip properties: no real segments (../shared/corpus, fixtures/broker) found')

function scan(buf: Buffer): LogEvent[] {
  return Array.from(readLog(new BufferSource(buf), { resync: true }), detachEvent)
}

/** positions of batches that decoded with a valid CRC and no problem */
function goodPositions(evs: LogEvent[]): number[] {
  return evs.flatMap((e) =>
    e.kind === 'batch' && e.crcValid === true && e.problems.length === 0
      ? [e.header.position]
      : e.kind === 'legacy'
        ? [e.position]
        : [],
  )
}

const arbFlip = fc.integer({ min: 0, max: Math.max(0, samples.length - 1) }).chain((si) => {
  const s = samples[si]!
  return fc.record({
    si: fc.constant(si),
    bi: fc.constantFrom(...s.v2),
    frac: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  })
})

describe.skipIf(samples.length === 0)('one flipped bit in a real v2 batch', () => {
  it('is found on that batch only, or is framing damage the scan recovers from', () => {
    fc.assert(
      fc.property(arbFlip, ({ si, bi, frac }) => {
        const s = samples[si]!
        const p = s.bounds[bi]!
        const size = s.bounds[bi + 1]! - p
        const byte = p + Math.floor(frac * size)
        const bit = byte * 8 + (Math.floor(frac * 1e6) % 8)
        const evs = scan(flipBit(s.buf, bit))
        const original = s.bounds.slice(0, -1)
        const others = original.filter((x) => x !== p)
        const rel = byte - p
        if (rel < 8 || (rel >= 12 && rel < 16)) {
          // baseOffset, partitionLeaderEpoch: outside the CRC (DefaultRecordBatch), undetectable by design
          expect(goodPositions(evs)).toEqual(original)
        } else if (rel >= 17) {
          // crc or CRC-covered bytes
          expect(goodPositions(evs)).toEqual(others)
          const bad = evs.find((e) => e.kind === 'batch' && e.header.position === p)
          expect(bad?.kind === 'batch' && bad.problems.map((x) => [x.code, x.position])[0]).toEqual(['CRC_MISMATCH', p])
          expect(evs.filter((e) => e.kind === 'tail' || e.kind === 'corrupt')).toEqual([])
        } else if (rel === 16) {
          // magic: BAD_MAGIC (resync to the next batch) or read as a legacy entry of the same size
          expect(goodPositions(evs).filter((x) => x !== p)).toEqual(others)
          const at = evs.find(
            (e) =>
              (e.kind === 'corrupt' || e.kind === 'legacy' || e.kind === 'batch') &&
              ('header' in e ? e.header.position : e.position) === p,
          )
          expect(at?.kind === 'corrupt' || at?.kind === 'legacy').toBe(true)
        } else {
          // batchLength: everything before is intact, and something is reported at or after p
          const good = goodPositions(evs)
          expect(good.filter((x) => x < p)).toEqual(original.filter((x) => x < p))
          const reported = evs.some(
            (e) =>
              e.kind === 'tail' ||
              e.kind === 'corrupt' ||
              (e.kind === 'batch' && e.problems.length > 0) ||
              e.kind === 'legacy',
          )
          expect(reported).toBe(true)
          // the last batch is still read whenever the damaged one was not the last (resync)
          if (bi < s.bounds.length - 2) expect(good).toContain(original[original.length - 1])
        }
      }),
      { numRuns: 2000 },
    )
  })

  it('through the CLI: a CRC_MISMATCH finding at the batch position, exit 1, later batches listed', async () => {
    const s = samples.find((x) => x.v2.length >= 3) ?? samples[0]!
    const bi = s.v2[1]!
    const p = s.bounds[bi]!
    const bit = (p + 40) * 8 + 3 // inside maxTimestamp/producerId: CRC-covered
    const file = writeLog(path.join(dir, 'cli'), flipBit(s.buf, bit))
    const r = await run(['--deep-iteration', file])
    expectNoCrash(r)
    expect(r.code).toBe(1)
    const f = findings(r.stderr).filter((x) => x.code !== 'NAME_NOT_OFFSET')
    expect(f.map((x) => [x.code, x.position])).toContainEqual(['CRC_MISMATCH', p])
    expect(r.stdout.match(/isvalid: false/g)).toHaveLength(1)
    expect(r.stdout).toContain(`position: ${s.bounds[s.bounds.length - 2]!} `)
    expect(r.stdout).toMatch(/CRC failures: 1,/)
  })

  it('a batchLength grown by a few bytes runs into the next batch: that batch is still read, nothing is skipped', () => {
    // the broker fixtures always have such a segment (orders-11-0: 4 batches); none found is a broken sample set
    const s = samples.find((x) => x.v2.length >= 3)!
    expect(s, 'no sample segment with 3 or more v2 batches').toBeDefined()
    const bi = s.v2[0]!
    const p = s.bounds[bi]!
    const next = s.bounds[bi + 1]!
    for (const grow of [1, 2, 5, 16]) {
      const b = Buffer.from(s.buf) // copy: the sample is shared
      b.writeInt32BE(b.readInt32BE(p + 8) + grow, p + 8)
      const evs = scan(b)
      expect(evs.find((e) => e.kind === 'corrupt')).toMatchObject({
        kind: 'corrupt',
        code: 'BAD_LENGTH',
        position: p,
        resyncPosition: next,
      })
      expect(goodPositions(evs)).toEqual(s.bounds.slice(0, -1).filter((x) => x !== p))
      // without resync (kafka-dump-log): the batch is read with its CRC failing, and the scan stops after it
      const strict = Array.from(readLog(new BufferSource(b), { resync: false }), detachEvent)
      expect(strict[bi]).toMatchObject({ kind: 'batch', crcValid: false })
    }
  })

  it('a batchLength pointing past the end of the file mid-segment: the later batches are still read', () => {
    // the broker fixtures always have such a segment (orders-11-0: 4 batches); none found is a broken sample set
    const s = samples.find((x) => x.v2.length >= 3)!
    expect(s, 'no sample segment with 3 or more v2 batches').toBeDefined()
    const p = s.bounds[s.v2[0]!]!
    const b = Buffer.from(s.buf) // copy: the sample is shared
    b.writeInt32BE(b.length * 2, p + 8) // past the end, below --max-batch-bytes
    const evs = scan(b)
    const c = evs.find((e) => e.kind === 'corrupt')
    expect(c).toMatchObject({ kind: 'corrupt', code: 'BAD_LENGTH', position: p })
    expect(goodPositions(evs)).toEqual(s.bounds.slice(0, -1).filter((x) => x !== p))
    // without resync, Kafka's behaviour: the rest is one truncated tail
    const strict = Array.from(readLog(new BufferSource(b), { resync: false }), detachEvent)
    expect(strict.filter((e) => e.kind === 'tail')).toMatchObject([{ position: p, reason: 'truncated' }])
  })
})
