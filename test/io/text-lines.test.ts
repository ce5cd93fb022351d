// The small text files are read line by line through one 64 KiB chunk (src/io/text-lines.ts): the lines must be
// those a whole-buffer split gives (an independent reader here), wherever the chunk boundaries fall, and a
// line longer than the bound never becomes a string.
import { describe, expect, it } from 'vitest'
import { bufferLines, textLines } from '../../src/io/text-lines.js'

/** the reference: split the whole text on \n, drop the empty piece after a final \n, strip one \r at each end */
function split(buf: Buffer, max: number): Array<{ text: string | null; position: number }> {
  const out: Array<{ text: string | null; position: number }> = []
  let pos = 0
  const parts = buf.toString('latin1').split('\n')
  if (parts[parts.length - 1] === '') parts.pop()
  for (const p of parts) {
    const raw = Buffer.from(p, 'latin1')
    out.push({ text: raw.length > max ? null : raw.toString('utf8').replace(/\r$/, ''), position: pos })
    pos += raw.length + 1
  }
  return out
}

/** a deterministic pseudo-random sequence (no Math.random: a failure must reproduce) */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

describe('textLines', () => {
  it('gives the lines a whole-buffer split gives, across chunk boundaries, with \\r\\n, empty and over-long lines', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed)
      const lines: string[] = []
      let size = 0
      while (size < 300_000) {
        const kind = r()
        const len = kind < 0.05 ? 0 : kind < 0.08 ? 500 + Math.floor(r() * 70_000) : Math.floor(r() * 40)
        const l = 'é'.repeat(Math.floor(len / 8)) + 'x'.repeat(len - Math.floor(len / 8) * 2) + (r() < 0.2 ? '\r' : '')
        lines.push(l)
        size += Buffer.byteLength(l) + 1
      }
      const text = lines.join('\n') + (seed % 2 === 0 ? '\n' : '')
      const buf = Buffer.from(text)
      const max = 512
      expect([...textLines(bufferLines(buf), max)], `seed ${seed}`).toEqual(split(buf, max))
    }
  })

  it('an empty file has no lines; a last line without \\n is a line', () => {
    expect([...textLines(bufferLines(Buffer.alloc(0)), 10)]).toEqual([])
    expect([...textLines(bufferLines(Buffer.from('a\nb')), 10)]).toEqual([
      { text: 'a', position: 0 },
      { text: 'b', position: 2 },
    ])
    expect([...textLines(bufferLines(Buffer.from('\n\n')), 10)]).toEqual([
      { text: '', position: 0 },
      { text: '', position: 1 },
    ])
  })
})
