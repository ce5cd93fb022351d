import * as fs from 'node:fs'
import * as os from 'node:os'
import { describe, expect, it } from 'vitest'
import { BufferSource } from '../../src/io/buffer-source.js'
import { HeldSegments } from '../../src/io/held-segments.js'

// What a first reader read of a file, served to a second reader without reading it again: checked against the
// bytes themselves, with reads that go forward, back, overlap and skip, in memory and past the bound in a scratch file.
const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff))

function firstReads(held: HeldSegments, key: string): BufferSource {
  const real = new BufferSource(bytes)
  const t = held.tee(key, real)
  const into = Buffer.alloc(3000)
  t.readInto(into, 0, 1000) // forward
  t.readInto(into, 1000, 1500)
  t.readInto(into, 800, 900) // back, overlapping what was read and past it
  t.readAt(4000, 500) // a gap of 1,700 bytes before it (a large batch's body, skipped)
  t.readInto(into, 3000, 200) // inside the gap
  t.readInto(into, 9800, 3000) // to the end, fewer bytes than asked
  return real
}

function scratchDirs(): string[] {
  return fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('tsdump-isolation-held-'))
}

describe('HeldSegments', () => {
  for (const [label, memory] of [
    ['in memory', 1 << 20],
    ['past a bound of 700 bytes, in a scratch file', 700],
  ] as const) {
    it(`serves what the first reader read, the file for the rest (${label})`, () => {
      const before = scratchDirs().length
      const held = new HeldSegments(memory)
      const first = firstReads(held, 'a')
      expect(first.bytesRead).toBe(1000 + 1500 + 900 + 500 + 200 + 200)
      const real = new BufferSource(bytes)
      const r = held.replay('a', real)
      expect(r.size).toBe(bytes.length)
      // every window, any alignment, the same bytes as the file
      for (const [at, n] of [
        [0, 10_000],
        [950, 3200],
        [3100, 1500],
        [9990, 100],
      ] as const) {
        const into = Buffer.alloc(n)
        const got = r.readInto(into, at, n)
        expect(got).toBe(Math.min(n, bytes.length - at))
        expect(into.subarray(0, got).equals(bytes.subarray(at, at + got))).toBe(true)
      }
      expect(r.readAt(4100, 50).equals(bytes.subarray(4100, 4150))).toBe(true)
      // from the file only what the first reader did not read, [2500, 3000), [3200, 4000) and [4500, 9800): 6,600 bytes
      // of the whole pass, 1,300 of [950, 4150), 900 of [3100, 4600), none of the rest
      expect(real.bytesRead).toBe(6600 + 1300 + 900)
      if (memory < 1000) expect(scratchDirs().length).toBe(before + 1)
      r.close()
      // the next partition fills the same memory and scratch file from their start
      held.reset()
      firstReads(held, 'c')
      const again = held.replay('c', new BufferSource(bytes))
      const all = Buffer.alloc(bytes.length)
      expect(again.readInto(all, 0, all.length)).toBe(bytes.length)
      expect(all.equals(bytes)).toBe(true)
      expect(held.replay('a', real)).toBe(real)
      held.close()
      expect(scratchDirs().length).toBe(before)
    })
  }

  // once: one reader's passes over a file (check, then print), each byte read from the file once
  for (const [label, memory] of [
    ['in memory', 1 << 20],
    ['past the bound, in a scratch file', 2500],
  ] as const) {
    it(`once: a second pass reads from what the first held (${label})`, () => {
      const held = new HeldSegments(memory, 'once-test')
      const real = new BufferSource(bytes)
      const src = held.once('k', real)
      const into = Buffer.alloc(bytes.length)
      for (const [at, n] of [
        [0, 4000],
        [6000, 4000],
        [3000, 3500],
      ] as const)
        src.readInto(into.subarray(0, n), at, n)
      expect(real.bytesRead).toBe(bytes.length) // [3000, 6000) overlapped what was held: read 4000-6000 only
      const all = Buffer.alloc(bytes.length)
      expect(src.readInto(all, 0, all.length)).toBe(bytes.length)
      expect(all.equals(bytes)).toBe(true)
      expect(src.readAt(9000, 5000).equals(bytes.subarray(9000))).toBe(true)
      expect(real.bytesRead).toBe(bytes.length)
      src.close()
      held.close()
    })
  }

  it('a file nothing was held for is read as it is', () => {
    const held = new HeldSegments()
    const real = new BufferSource(bytes)
    expect(held.replay('b', real)).toBe(real)
    held.close()
  })
})
