// The unit suite's random tests replay: the run's seeds are chosen once and printed (test/support/seeds.ts), and
// every fast-check run uses TSDUMP_FC_SEED (test/support/fc-seed.ts), so the printed number reproduces a failure.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

describe('seeds of the random tests', () => {
  it('TSDUMP_FC_SEED and FUZZ_SEED are set for every test file, and fast-check runs with TSDUMP_FC_SEED', () => {
    const seed = Number(process.env.TSDUMP_FC_SEED)
    expect(Number.isSafeInteger(seed)).toBe(true)
    expect(Number.isSafeInteger(Number(process.env.FUZZ_SEED))).toBe(true)
    expect(fc.readConfigureGlobal().seed).toBe(seed)
    // the same seed draws the same values: what makes a printed seed a replay
    const draw = (): number[] => fc.sample(fc.integer(), { numRuns: 5 })
    expect(draw()).toEqual(draw())
  })
})
