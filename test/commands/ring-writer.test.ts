// The dump worker's output writer (commands/workers/dump-wire.ts): what the main thread reads back out
// of the shared ring, chunk by chunk in posting order, is exactly what was written, across ring wrap-arounds
// and lines larger than half the ring; every chunk ends at a write boundary (no UTF-8 character is split).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RING_BYTES, RingWriter } from '../../src/commands/workers/dump-wire.js'
import type { WorkerMessage } from '../../src/commands/workers/dump-wire.js'

function harness(): { w: RingWriter; read: () => string; chunks: string[] } {
  const ring = new SharedArrayBuffer(RING_BYTES)
  const inFlight = new SharedArrayBuffer(4)
  const counter = new Int32Array(inFlight)
  const view = Buffer.from(ring)
  const chunks: string[] = []
  // the main thread's side, done at once: copy out, give the space back
  const post = (m: WorkerMessage): void => {
    if (m.type !== 'chunk') return
    const from = m.data !== undefined ? Buffer.from(m.data) : view
    chunks.push(from.toString('utf8', m.offset, m.offset + m.length))
    Atomics.sub(counter, 0, m.length + m.skip)
  }
  const w = new RingWriter(ring, inFlight, post)
  return {
    w,
    chunks,
    read: () => {
      w.flush()
      expect(Atomics.load(counter, 0)).toBe(0)
      return chunks.join('')
    },
  }
}

describe('RingWriter', () => {
  it('gives back what was written: strings, byte writes, wrap-arounds and lines larger than half the ring', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'grapheme', maxLength: 300 }),
            fc.integer({ min: 1, max: 200_000 }).map((n) => 'é'.repeat(n)),
            fc.constant('x'.repeat(RING_BYTES)),
          ),
          { maxLength: 60 },
        ),
        (parts) => {
          const { w, read, chunks } = harness()
          for (const [i, s] of parts.entries()) {
            if (i % 2 === 0) {
              w.write(s)
              continue
            }
            const bytes = Buffer.from(s)
            const at = w.reserve(bytes.length)
            bytes.copy(w.buffer, at)
            w.commit(at + bytes.length)
          }
          expect(read()).toBe(parts.join(''))
          // a split UTF-8 character would decode to U+FFFD (unless the input holds one itself: grapheme strings can draw it)
          if (!parts.some((p) => p.includes('\uFFFD'))) for (const c of chunks) expect(c).not.toContain('\uFFFD')
        },
      ),
      { numRuns: 40 },
    )
  })
})
