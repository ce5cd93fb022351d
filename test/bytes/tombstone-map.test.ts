// TombstoneMap answers get/has as a plain Map given the same operations does, and holds few gone keys: at most
// max(1,024, the keys present) besides those present, however many keys come and go.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TombstoneMap } from '../../src/bytes/tombstone-map.js'

type Op = { kind: 'set' | 'delete' | 'clear'; key: number; value: number }

const ops = fc.array(
  fc.record({
    kind: fc.constantFrom<Op['kind']>('set', 'set', 'delete', 'delete', 'clear'),
    key: fc.integer({ min: 0, max: 3000 }),
    value: fc.integer(),
  }),
  { maxLength: 6000 },
)

describe('TombstoneMap', () => {
  it('answers as a Map does after any sequence of set, delete and clear', () => {
    fc.assert(
      fc.property(ops, (l) => {
        const t = new TombstoneMap<number, number>()
        const m = new Map<number, number>()
        for (const op of l) {
          if (op.kind === 'set') {
            t.set(op.key, op.value)
            m.set(op.key, op.value)
          } else if (op.kind === 'delete') {
            t.delete(op.key)
            m.delete(op.key)
          } else if (op.key % 50 === 0) {
            t.clear()
            m.clear()
          }
          expect(t.get(op.key)).toBe(m.get(op.key))
          expect(t.has(op.key)).toBe(m.has(op.key))
        }
        for (let k = 0; k <= 3000; k++) expect(t.get(k)).toBe(m.get(k))
        expect(t.held).toBeLessThanOrEqual(m.size + Math.max(1025, m.size))
      }),
      { numRuns: 200 },
    )
  })

  it('holds a bounded number of keys while a million come and go, a few present at a time', () => {
    const t = new TombstoneMap<number, number>()
    let most = 0
    for (let i = 0; i < 1_000_000; i++) {
      t.set(i, i)
      if (i >= 5) t.delete(i - 5)
      most = Math.max(most, t.held)
    }
    expect(most).toBeLessThanOrEqual(5 + 1025)
    for (let i = 1_000_000 - 5; i < 1_000_000; i++) expect(t.get(i)).toBe(i)
    expect(t.has(1_000_000 - 6)).toBe(false)
  })

  it('keeps a bigint key apart from a number key of the same value, as a Map does', () => {
    const t = new TombstoneMap<number | bigint, string>()
    t.set(1, 'n')
    t.set(1n, 'b')
    t.delete(1)
    expect(t.get(1)).toBeUndefined()
    expect(t.get(1n)).toBe('b')
  })
})
