// RecentMarkers (KAFKA-19999 duplicates): bounded memory, yet the markers of the `max` producers that ended a
// transaction last are always remembered, and an older epoch or the other outcome is never a duplicate.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RecentMarkers } from '../../src/analysis/duplicate-markers.js'

describe('RecentMarkers', () => {
  it('remembers the last marker of at least the `max` most recent producers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 3 }), fc.boolean()), {
          maxLength: 600,
        }),
        (max, markers) => {
          const m = new RecentMarkers(max)
          const last = new Map<number, [number, boolean]>()
          for (const [pid, epoch, commit] of markers) {
            m.ended(pid, epoch, commit ? 'COMMIT' : 'ABORT')
            last.delete(pid)
            last.set(pid, [epoch, commit])
          }
          const recent = [...last].slice(-max)
          for (const [pid, [epoch, commit]] of recent) {
            expect(m.isDuplicate(pid, epoch, commit ? 'COMMIT' : 'ABORT')).toBe(true)
            expect(m.isDuplicate(pid, epoch, commit ? 'ABORT' : 'COMMIT')).toBe(false)
            expect(m.isDuplicate(pid, epoch + 1, commit ? 'COMMIT' : 'ABORT')).toBe(false)
          }
          // whatever is remembered is the producer's last marker, never an older one
          for (const [pid, [epoch, commit]] of last) {
            for (const e of [0, 1, 2, 3]) {
              for (const c of [true, false])
                if (e !== epoch || c !== commit) expect(m.isDuplicate(pid, e, c ? 'COMMIT' : 'ABORT')).toBe(false)
            }
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  it('keeps at most 2 * max producers', () => {
    const m = new RecentMarkers(10)
    for (let pid = 0; pid < 1000; pid++) m.ended(pid, 0, 'COMMIT')
    let remembered = 0
    for (let pid = 0; pid < 1000; pid++) if (m.isDuplicate(pid, 0, 'COMMIT')) remembered++
    expect(remembered).toBeGreaterThanOrEqual(10)
    expect(remembered).toBeLessThanOrEqual(20)
  })
})
