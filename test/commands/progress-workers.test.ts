// The progress line's batches/s counts the batches the worker threads dumped (it said "0 batches/s" whenever
// workers ran: only the one-thread dump counted them). Workers forced on a real segment with small ranges.
import * as fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { toDumpOptions } from '../../src/cli/commands/dump.js'
import { runDump } from '../../src/commands/dump.js'
import { realLogs, testContext } from '../hostile/support.js'

describe('progress line with worker threads', () => {
  it("counts the workers' batches", async (ctx) => {
    const logs = realLogs()
      .filter((p) => fs.statSync(p).size > 4096)
      .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)
    if (logs.length === 0) {
      console.log('skipping: no real segment over 4 KiB')
      ctx.skip()
      return
    }
    const file = logs[0]!
    const shown: string[] = []
    const c = {
      ...testContext(),
      stderrIsTTY: true,
      env: { TSDUMP_PROGRESS_DELAY_MS: '0' },
      status: {
        show: (t: string) => {
          shown.push(t)
        },
        clear: () => {},
      },
    }
    let ranges = 0
    const code = await runDump({ ...toDumpOptions([file], {}), threads: 2 }, c, {
      parallelMinBytes: 0,
      rangeBytes: 1024,
      onRanges: (n) => {
        ranges = n
      },
    })
    expect(code).toBeLessThan(2)
    expect(ranges).toBeGreaterThan(1)
    expect(shown.length).toBeGreaterThan(0)
    const rates = shown
      .map((l) => /(\d+) batches\/s/.exec(l))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]))
    expect(rates.length).toBe(shown.length)
    // the first lines may come before any range is done; most must count batches
    expect(rates.filter((r) => r > 0).length, shown.slice(0, 5).join('\n')).toBeGreaterThan(rates.length / 2)
  })
})
