// A batchLength that shrank by a few bytes (one bit flipped: 551 -> 547 in orders-11-0, a case a drawn bitflip seed
// found): the batch's last 4 bytes and the next batch's first ones frame by chance as a 27-byte magic 0 entry whose
// end lies inside the next batch. The resyncing scan must not resume after that entry: the intact batch under it
// is read. Expected batches: kafka-dump-log's text of the undamaged segment (fixtures/broker/orders/dump).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { walkEntryStarts } from '../../src/decode/frame-walk.js'
import type { LogEvent } from '../../src/decode/log-reader.js'
import { detachEvent, readLog } from '../../src/decode/log-reader.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { findings, rmrf, run, tmp } from '../hostile/support.js'
import { kafkaBatches } from '../support/damage-copy.js'
import { FIXTURES } from '../support/paths.js'

const SEGMENT = '00000000000000000000.log'
const LOG = path.join(FIXTURES, 'orders/logs/orders-11-0', SEGMENT)
const KAFKA_TEXT = path.join(FIXTURES, 'orders/dump/orders-11-0', `${SEGMENT}.shallow.txt`)
const DAMAGED = 511
const dir = tmp()
afterAll(() => rmrf(dir))

/** the segment with bit 2 of the batch at 511's batchLength flipped (551 -> 547) */
function damaged(): Buffer {
  const b = fs.readFileSync(LOG)
  expect(b.readInt32BE(DAMAGED + 8)).toBe(551)
  b[DAMAGED + 11] = b[DAMAGED + 11]! ^ 0b100
  expect(b.readInt32BE(DAMAGED + 8)).toBe(547)
  return b
}

function scan(buf: Buffer, window?: number): LogEvent[] {
  const opts = window === undefined ? { resync: true } : { resync: true, window, streamLarge: 'crc' as const }
  return Array.from(readLog(new BufferSource(buf), opts), detachEvent)
}

describe('a batchLength that shrank into a chance magic 0 entry over the next batch', () => {
  const kafka = kafkaBatches(KAFKA_TEXT)
  const buf = damaged()
  const end = DAMAGED + 12 + 547

  it('the fixture is the case: a 27-byte magic 0 entry frames at the shrunk end, over the next batch', () => {
    expect(kafka.map((k) => k.position)).toEqual([0, 433, 511, 1074])
    expect(buf[end + 16]).toBe(0)
    expect(buf.readInt32BE(end + 8) + 12).toBe(27)
    expect(end + 27).toBeGreaterThan(1074)
  })

  for (const window of [undefined, 61, 100, 4096, 1152]) {
    it(`every batch kafka-dump-log lists is read, the damaged one with CRC_MISMATCH (window ${window ?? 'default'})`, () => {
      const evs = scan(buf, window)
      const batches = evs.flatMap((e) => (e.kind === 'batch' ? [e] : []))
      expect(batches.map((b) => b.position)).toEqual(kafka.map((k) => k.position))
      expect(batches.map((b) => [Number(b.header.baseOffset), Number(b.header.lastOffset)])).toEqual(
        kafka.map((k) => [k.baseOffset, k.lastOffset]),
      )
      expect(batches.map((b) => b.crcValid)).toEqual(kafka.map((k) => k.position !== DAMAGED))
      expect(batches.find((b) => b.position === DAMAGED)!.problems.map((p) => p.code)).toEqual(['CRC_MISMATCH'])
      // the bytes between the shrunk end and the next batch are damage, resynced past; no legacy entry, no tail
      expect(evs.filter((e) => e.kind !== 'batch')).toMatchObject([
        { kind: 'corrupt', position: end, length: 1074 - end, resyncPosition: 1074 },
      ])
    })
  }

  it('without resync (Kafka): the chance entry is framed, as kafka-dump-log does', () => {
    const evs = Array.from(readLog(new BufferSource(buf), { resync: false }), detachEvent)
    expect(evs.find((e) => e.kind === 'legacy')).toMatchObject({ position: end, magic: 0, sizeInBytes: 27 })
  })

  it("the parallel dump's cut walk gives no cut at the chance entry", () => {
    const starts = Array.from(walkEntryStarts(new BufferSource(buf), buf.length, () => 1))
    expect(starts).not.toContain(end)
    const framed = new Set(scan(buf).flatMap((e) => (e.kind === 'batch' ? [e.position] : [])))
    for (const s of starts) expect(framed.has(s)).toBe(true)
  })

  it('dump and reconcile of the damaged partition read to offset 15', async () => {
    const part = path.join(dir, 'orders-11-0')
    fs.cpSync(path.dirname(LOG), part, { recursive: true })
    fs.writeFileSync(path.join(part, SEGMENT), buf)
    const d = await run([path.join(part, SEGMENT)])
    expect(d.stdout).toMatch(/Summary: 4 batches, 16 records, offsets 0\.\.15,/)
    expect(findings(d.stderr).map((f) => [f.code, f.position])).toEqual([
      ['CRC_MISMATCH', DAMAGED],
      ['BAD_LENGTH', end],
    ])
    const r = await run(['reconcile', '--json', part])
    expect(r.stdout).toMatch(/"logEndOffset":16,/)
  })
})
