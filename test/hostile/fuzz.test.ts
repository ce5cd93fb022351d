// The fuzz loop of scripts/fuzz.mjs, in-process against the TypeScript sources, for ~10 seconds, so CI
// exercises it on every run. The seed is printed; FUZZ_SEED=<n> reproduces a run, FUZZ_SECONDS changes the budget.
import { describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
// @ts-expect-error: a plain .mjs script without type declarations
import { runFuzz } from '../../scripts/fuzz.mjs'

interface FuzzResult {
  seed: number
  iterations: number
  failures: Array<{ iteration: number; argv: string[]; input: string; problem: string }>
}

const seconds = Number(process.env.FUZZ_SECONDS ?? 10)
const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31)

describe('fuzz', () => {
  it(
    `random and mutated inputs through main() for ${seconds}s (seed ${seed})`,
    async () => {
      const lines: string[] = []
      const r = await (runFuzz as (o: object) => Promise<FuzzResult>)({
        main,
        seconds,
        seed,
        log: (s: string) => {
          lines.push(s)
          console.log(s)
        },
      })
      expect(r.iterations).toBeGreaterThan(0)
      expect(r.failures, lines.join('\n')).toEqual([])
    },
    (seconds + 30) * 1000,
  )
})
