// reconcile and lso with the partitions spread over worker threads (commands/workers/partition-pool.ts) write
// exactly what the sequential scan writes, text and JSON, exit code included, on every broker log
// directory of fixtures/broker (several partitions each, transactions, a hanging one, __transaction_state).
// The workers run the compiled dist/, which vitest's globalSetup (test/support/build-dist.ts) rebuilds first
// when a src/ file is newer.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runLso } from '../../src/commands/lso.js'
import { runReconcile } from '../../src/commands/reconcile.js'
import { REPO_ROOT } from '../support/paths.js'
import { testContext } from '../hostile/support.js'
import { staleSource } from '../support/build-dist.js'

const broker = path.join(REPO_ROOT, 'fixtures', 'broker')
const logDirs = fs
  .readdirSync(broker)
  .map((s) => path.join(broker, s, 'logs'))
  .filter((d) => fs.existsSync(d))

type Run = (threads: number, onWorkers: (n: number) => void) => Promise<{ code: number; out: string; err: string }>

function runner(fn: typeof runReconcile | typeof runLso, opts: Record<string, unknown>): Run {
  return async (threads, onWorkers) => {
    const ctx = testContext()
    const code = await (fn as (o: unknown, c: typeof ctx) => Promise<number>)(
      { ...opts, threads, workerInternals: { minBytes: 0, onWorkers } },
      ctx,
    )
    return { code, out: ctx.stdout.text, err: ctx.stderr.text }
  }
}

describe('reconcile / lso in partition workers = one thread', () => {
  it('runs the current source: no src/ file is newer than dist/ (test/support/build-dist.ts rebuilds it)', () => {
    expect(staleSource()).toBeUndefined()
  })
  for (const dir of logDirs) {
    for (const format of ['text', 'json'] as const) {
      const cases: Array<[string, Run]> = [
        ['reconcile', runner(runReconcile, { paths: [dir], format, wide: true })],
        ['lso', runner(runLso, { paths: [dir], format, wide: true, now: 1_800_000_000_000 })],
      ]
      for (const [name, run] of cases) {
        it(`${name} ${format} ${path.basename(path.dirname(dir))}`, async () => {
          let workers = 0
          const one = await run(1, () => {
            throw new Error('one thread starts no worker')
          })
          const two = await run(2, (n) => {
            workers = n
          })
          expect(two.out).toBe(one.out)
          expect(two.err).toBe(one.err)
          expect(two.code).toBe(one.code)
          const partitions = fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isDirectory()).length
          expect(workers, 'workers ran when there are partitions to share').toBe(partitions > 1 ? 2 : 0)
        })
      }
    }
  }
})
